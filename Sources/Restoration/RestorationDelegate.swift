import KeyedArchive

/// The app's say in restoration (UIKit's application delegate methods): whether to save and
/// whether to restore at all, and a place for app-wide state beside the screen tree.
///
/// Every method has a default (save, restore, no app-wide keys); pass the delegate to
/// ``RestorationEngine/preserve(root:modals:header:delegate:)`` and
/// ``RestorationEngine/restore(from:root:presentModal:delegate:)``.
public protocol RestorationDelegate: AnyObject {
    /// Whether to save now; the code that saves asks before calling
    /// ``RestorationEngine/preserve(root:modals:header:delegate:)``. Return `false` to leave the
    /// archive on disk as it is (a session started with a "do not save" option).
    func shouldSaveApplicationState() -> Bool
    /// Whether to restore the archive `header` describes (saved by which version, when);
    /// returning `false` makes ``RestorationEngine/restore(from:root:presentModal:delegate:)``
    /// throw ``RestorationError/Kind/declinedByApp`` and the app starts fresh.
    func shouldRestoreApplicationState(_ header: RestorationHeader) -> Bool
    /// Writes app-level keys into the archive's top level (keys starting "WL" are reserved).
    func willEncodeRestorableState(with coder: KeyedArchiver) throws
    /// Reads them back, after the screen tree is restored.
    func didDecodeRestorableState(with coder: KeyedUnarchiver) throws
}

extension RestorationDelegate {
    /// Always saves.
    public func shouldSaveApplicationState() -> Bool { true }
    /// Restores every archive this build can read.
    public func shouldRestoreApplicationState(_ header: RestorationHeader) -> Bool { true }
    /// Writes no app-level keys.
    public func willEncodeRestorableState(with coder: KeyedArchiver) throws {}
    /// Reads no app-level keys.
    public func didDecodeRestorableState(with coder: KeyedUnarchiver) throws {}
}
