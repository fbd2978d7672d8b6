import KeyedArchive

/// Restoration classes by name: the factories that rebuild objects the app creates in code
/// (UIKit's `viewControllerWithRestorationIdentifierPath:coder:`).
public struct RestorationClassRegistry {
    /// Builds the object saved at `identifierPath` (root first), reading what it needs from
    /// `coder`, which is positioned on the object's saved keys; nil declines.
    public typealias Factory = (_ identifierPath: [String], _ coder: KeyedUnarchiver) throws -> (any Restorable)?

    private var factories: [String: Factory] = [:]

    /// A registry with no class.
    public init() {}

    /// Registers the factory that rebuilds objects saved with `className`; a second
    /// registration of one name replaces the first.
    public mutating func register(_ className: String, factory: @escaping Factory) {
        factories[className] = factory
    }

    /// The factory registered for `className`, if any.
    public func factory(named className: String) -> Factory? { factories[className] }
    /// Every registered class name, sorted.
    public var registeredNames: [String] { factories.keys.sorted() }
}
