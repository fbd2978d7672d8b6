import KeyedArchive

/// Restoration classes by name: the factories that rebuild objects the app creates in code
/// (UIKit's `viewControllerWithRestorationIdentifierPath:coder:`).
public struct RestorationClassRegistry {
    /// Builds the object saved at `identifierPath` (root first), reading what it needs from
    /// `coder`, which is positioned on the object's saved keys; nil declines.
    public typealias Factory = (_ identifierPath: [String], _ coder: KeyedUnarchiver) throws -> (any Restorable)?

    private var factories: [String: Factory] = [:]

    public init() {}

    public mutating func register(_ className: String, factory: @escaping Factory) {
        factories[className] = factory
    }

    public func factory(named className: String) -> Factory? { factories[className] }
    public var registeredNames: [String] { factories.keys.sorted() }
}
