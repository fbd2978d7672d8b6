import KeyedArchive

/// An object the restoration engine can save and rebuild (screens conform in Screens; this
/// module knows nothing of them).
public protocol Restorable: AnyObject {
    /// The name it is saved under among its siblings; nil means it is not preserved, nor is
    /// anything below it.
    var restorationIdentifier: String? { get }
}
