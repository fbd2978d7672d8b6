import Terminal

/// The app's states, after UIKit's: not running, in the foreground (inactive
/// while launching, then active), in the background after Ctrl-Z.
public enum ApplicationState: Sendable, Equatable {
    case notRunning, inactive, active, background
}

/// Hooks later features use to save and reload: UIKit's "dependable exit points".
public protocol ApplicationLifecycleObserver: AnyObject {
    func applicationDidFinishLaunching(_ application: Application)
    func applicationWillEnterForeground(_ application: Application)
    func applicationDidEnterBackground(_ application: Application)
    func applicationWillTerminate(_ application: Application, reason: TerminationReason)
    /// The first frame is on the terminal (restoration's crash marker is cleared here).
    func applicationDidPresentFirstFrame(_ application: Application)
    /// A tick passed with no event: the moment for debounced work such as autosave.
    func applicationDidBecomeIdle(_ application: Application)
    /// Background work posted `Wakeup.post()`; screens have already taken their news.
    func applicationDidWake(_ application: Application)
}

extension ApplicationLifecycleObserver {
    public func applicationDidFinishLaunching(_ application: Application) {}
    public func applicationWillEnterForeground(_ application: Application) {}
    public func applicationDidEnterBackground(_ application: Application) {}
    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {}
    public func applicationDidPresentFirstFrame(_ application: Application) {}
    public func applicationDidBecomeIdle(_ application: Application) {}
    public func applicationDidWake(_ application: Application) {}
}
