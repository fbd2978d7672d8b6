import Terminal

/// Where the app is in its life, after UIKit's states; read it from ``Application/state``.
///
/// - `notRunning`: before ``Application/launch()`` and after ``Application/terminate(_:)``.
/// - `inactive`: while launching, before the root screen appears.
/// - `active`: in the foreground, taking input.
/// - `background`: stopped by Ctrl-Z, until `fg` brings it back.
public enum ApplicationState: Sendable, Equatable {
    /// `notRunning` before launch and after termination; `inactive` while launching; `active` in
    /// the foreground, taking input; `background` stopped by Ctrl-Z until `fg`.
    case notRunning, inactive, active, background
}

/// Hooks for work tied to the app's lifecycle — restoring and saving state, flushing settings —
/// at UIKit's "dependable exit points".
///
/// Every hook has an empty default: implement the ones needed, and register the observer with
/// ``Application/addLifecycleObserver(_:)`` before running. Hooks run on the main thread, in
/// the order the observers were added, and may touch screens.
public protocol ApplicationLifecycleObserver: AnyObject {
    /// The tree exists and nothing is drawn yet: restore saved state here.
    func applicationDidFinishLaunching(_ application: Application)
    /// Back from the background (`fg` after Ctrl-Z): read what may have changed meanwhile.
    func applicationWillEnterForeground(_ application: Application)
    /// Going to the background (Ctrl-Z): save now, the process may never run again.
    func applicationDidEnterBackground(_ application: Application)
    /// The app is ending, by quit or by a signal: the last moment to save.
    func applicationWillTerminate(_ application: Application, reason: TerminationReason)
    /// The first frame is on the terminal (restoration's crash marker is cleared here).
    func applicationDidPresentFirstFrame(_ application: Application)
    /// Input settled, or a deadline this observer asked for came: the moment for debounced work
    /// such as autosave. Never on a beat: with no input and no deadline it is not called.
    func applicationDidBecomeIdle(_ application: Application)
    /// Background work posted `Wakeup.post()`, or a descriptor from `wakeDescriptors` became
    /// readable; screens have already taken their news.
    func applicationDidWake(_ application: Application)
    /// When this observer next needs `applicationDidBecomeIdle` though nothing else happens
    /// (a write waiting to settle, a file to look at again), on the application's clock; nil
    /// when nothing is due.
    func nextIdleDeadline(_ application: Application) -> Double?
    /// Descriptors whose readiness is news for this observer (an inotify descriptor): the loop
    /// wakes when one is readable and calls `applicationDidWake`, which must drain it.
    func wakeDescriptors(_ application: Application) -> [Int32]
}

extension ApplicationLifecycleObserver {
    /// Does nothing.
    public func applicationDidFinishLaunching(_ application: Application) {}
    /// Does nothing.
    public func applicationWillEnterForeground(_ application: Application) {}
    /// Does nothing.
    public func applicationDidEnterBackground(_ application: Application) {}
    /// Does nothing.
    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {}
    /// Does nothing.
    public func applicationDidPresentFirstFrame(_ application: Application) {}
    /// Does nothing.
    public func applicationDidBecomeIdle(_ application: Application) {}
    /// Does nothing.
    public func applicationDidWake(_ application: Application) {}
    /// Asks for no deadline: the observer hears of idleness only after input.
    public func nextIdleDeadline(_ application: Application) -> Double? { nil }
    /// Watches no descriptor.
    public func wakeDescriptors(_ application: Application) -> [Int32] { [] }
}
