import KeyedArchive

/// An object the restoration engine can save and rebuild. Screens conform in the Screens
/// module; this module knows nothing of them.
///
/// The rules are UIKit's: an object is preserved only when it and every ancestor up to the
/// root have a ``restorationIdentifier``; its identifier must be unique among its siblings.
/// Only ``restorationIdentifier`` is required: the other requirements have defaults that save
/// nothing and have no children, so a leaf implements ``encodeRestorableState(with:)`` and
/// ``decodeRestorableState(with:)``, and a container ``restorableChildren`` and
/// ``restoreChildren(_:)``.
public protocol Restorable: AnyObject {
    /// The name it is saved under among its siblings; nil means neither it nor anything below
    /// it is preserved.
    var restorationIdentifier: String? { get }
    /// Identifiers it was saved under before a rename: an archive that names it by one of
    /// them still restores it, so a rename keeps every user's saved place.
    var formerRestorationIdentifiers: [String] { get }
    /// The registered restoration class that rebuilds it at launch when the app does not
    /// create it anyway (a screen pushed in code); nil when the app always creates it.
    var restorationClassName: String? { get }
    /// The children to preserve, in order: a tab screen's tabs, a navigation stack's screens.
    var restorableChildren: [any Restorable] { get }
    /// Writes the object's own state (not its children's) into `coder`.
    func encodeRestorableState(with coder: KeyedArchiver) throws
    /// Called before the object first appears, with what `encodeRestorableState` wrote.
    func decodeRestorableState(with coder: KeyedUnarchiver) throws
    /// Containers: the children found or rebuilt for the saved ones, in saved order, after each
    /// has decoded its own state. A navigation stack makes them its stack.
    func restoreChildren(_ children: [any Restorable])
    /// Called on every restored object once the whole tree is restored.
    func applicationFinishedRestoringState()
}

extension Restorable {
    /// No former identifiers: the object was never saved under another name.
    public var formerRestorationIdentifiers: [String] { [] }
    /// No restoration class: the app makes the object at launch itself.
    public var restorationClassName: String? { nil }
    /// No children.
    public var restorableChildren: [any Restorable] { [] }
    /// Saves nothing of the object's own.
    public func encodeRestorableState(with coder: KeyedArchiver) throws {}
    /// Reads nothing.
    public func decodeRestorableState(with coder: KeyedUnarchiver) throws {}
    /// Ignores the restored children: right for an object with none.
    public func restoreChildren(_ children: [any Restorable]) {}
    /// Does nothing.
    public func applicationFinishedRestoringState() {}
}

extension Restorable {
    /// Whether an archive that saved an object under `identifier` saved this one: its
    /// identifier now or one it had before.
    public func answers(toRestorationIdentifier identifier: String) -> Bool {
        restorationIdentifier == identifier || formerRestorationIdentifiers.contains(identifier)
    }
}
