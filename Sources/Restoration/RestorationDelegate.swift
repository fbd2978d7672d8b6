import KeyedArchive

/// The app's say in restoration (UIKit's application delegate methods): whether to save and
/// whether to restore at all, and a place for app-wide state beside the screen tree.
public protocol RestorationDelegate: AnyObject {
    func shouldSaveApplicationState() -> Bool
    func shouldRestoreApplicationState(_ header: RestorationHeader) -> Bool
    /// Writes app-level keys into the archive's top level (keys starting "WL" are reserved).
    func willEncodeRestorableState(with coder: KeyedArchiver) throws
    /// Reads them back, after the screen tree is restored.
    func didDecodeRestorableState(with coder: KeyedUnarchiver) throws
}

extension RestorationDelegate {
    public func shouldSaveApplicationState() -> Bool { true }
    public func shouldRestoreApplicationState(_ header: RestorationHeader) -> Bool { true }
    public func willEncodeRestorableState(with coder: KeyedArchiver) throws {}
    public func didDecodeRestorableState(with coder: KeyedUnarchiver) throws {}
}
