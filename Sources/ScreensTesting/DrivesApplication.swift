import Screens
import Terminal

/// Anything that holds an `Application` on a `HeadlessTerminal` and
/// drives it from a test.
///
/// ``Pilot`` is the ready-made one. A harness that builds its own tree (a front with fake
/// services, an app with lifecycle observers) either subclasses ``Pilot`` or conforms to this
/// protocol, and gets every key, paste, click and resize, the screen read back as text and
/// styles, and the `expect…` checks.
///
/// Every driving call queues its events and lets the application process all of them before
/// it returns, so its effect is on the screen straight after: no sleeps, no polling, nothing
/// that depends on the speed of the machine.
public protocol DrivesApplication {
    /// The terminal the application draws on: the last frame presented, and the input queue.
    var terminal: HeadlessTerminal { get }
    /// The application under test, already launched.
    var app: Application { get }
}
