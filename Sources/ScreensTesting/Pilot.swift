import Screens
import Terminal

/// Runs a screen tree in an `Application` on a headless terminal and drives it one
/// synchronous step at a time, like Textual's pilot: every call queues its events and lets the
/// application handle them before it returns, so the screen can be read straight after.
///
/// ```swift
/// let fruit = ["Apple", "Pear"].map { ListItem(id: $0, title: $0) }
/// let pilot = Pilot(NavigationStack(root: ListScreen(title: "Fruit", items: fruit)), columns: 40, rows: 10)
/// try pilot.press("down")
/// pilot.expectRow(2, equals: "▸ Pear")
/// pilot.expectStyle(of: "Pear", row: 2, has: .reverse)
/// ```
///
/// Subclass it to give a harness names for the screens it builds (`reader`, `store`); set up
/// what the tree needs before calling `super.init`, which launches the application.
open class Pilot: DrivesApplication {
    /// The headless terminal the application draws on.
    public let terminal: HeadlessTerminal
    /// The application, launched by `init`.
    public let app: Application

    /// Launches `root` on a terminal of `columns` × `rows` cells and draws the first frame.
    ///
    /// - Parameters:
    ///   - root: the screen tree to run.
    ///   - columns: the terminal's width in cells.
    ///   - rows: its height, the hint bar's row included.
    ///   - capabilities: what the terminal can show; `unicode: false` gives the ASCII stand-ins
    ///     and `colors: false` the monochrome look, as on a real terminal without them.
    ///   - minimumSize: lowers the "terminal too small" limit, for tests of short terminals.
    ///   - observers: lifecycle observers (a restoration or defaults controller) added before
    ///     launch, so they see `applicationDidFinishLaunching` as in the real run loop.
    public init(_ root: Screen, columns: Int = 40, rows: Int = 12,
                capabilities: TerminalCapabilities = .init(colors: true, unicode: true),
                minimumSize: Size? = nil, observers: [ApplicationLifecycleObserver] = []) {
        terminal = HeadlessTerminal(size: Size(columns: columns, rows: rows), capabilities: capabilities)
        app = Application(terminal: terminal, root: root)
        if let minimumSize { app.minimumSize = minimumSize }
        for observer in observers { app.addLifecycleObserver(observer) }
        app.launch()
    }
}
