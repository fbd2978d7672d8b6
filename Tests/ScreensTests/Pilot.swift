import Screens
import Terminal

/// Drives an `Application` on a headless terminal, one synchronous step at a time, like
/// Textual's Pilot: every call queues events and then processes them, so the screen can be
/// read straight after.
final class Pilot {
    let terminal: HeadlessTerminal
    let app: Application

    /// `minimumSize` lowers the app's "terminal too small" limit, for tests of short terminals.
    init(_ root: Screen, columns: Int = 40, rows: Int = 12, capabilities: TerminalCapabilities = .init(colors: true, unicode: true),
         minimumSize: Size? = nil) {
        terminal = HeadlessTerminal(size: Size(columns: columns, rows: rows), capabilities: capabilities)
        app = Application(terminal: terminal, root: root)
        if let minimumSize { app.minimumSize = minimumSize }
        app.launch()
    }

    func press(_ keys: Key...) throws {
        for key in keys { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
    }

    func type(_ text: String) throws {
        for character in text { terminal.enqueue(.key(.character(character))) }
        try app.processPendingEvents()
    }

    func click(x: Int, y: Int) throws {
        terminal.enqueue(.mouse(MouseEvent(.press, at: Point(x: x, y: y))))
        terminal.enqueue(.mouse(MouseEvent(.release, at: Point(x: x, y: y))))
        try app.processPendingEvents()
    }

    func wheel(down: Bool, x: Int, y: Int) throws {
        terminal.enqueue(.mouse(MouseEvent(down ? .wheelDown : .wheelUp, button: .none, at: Point(x: x, y: y))))
        try app.processPendingEvents()
    }

    func resize(columns: Int, rows: Int) throws {
        terminal.resize(to: Size(columns: columns, rows: rows))
        try app.processPendingEvents()
    }

    /// Sends raw bytes as a terminal would, through the terminal's input decoder; the input
    /// then falls quiet, as after a person stops typing.
    func sendBytes(_ bytes: [UInt8]) throws {
        terminal.feed(bytes)
        try app.processPendingEvents()
    }

    /// A bracketed paste of `text`, as a terminal sends it.
    func paste(_ text: String) throws {
        try sendBytes(Array(("\u{1B}[200~" + text + "\u{1B}[201~").utf8))
    }

    func send(_ event: Event) throws {
        terminal.enqueue(event)
        try app.processPendingEvents()
    }

    var lines: [String] { terminal.lines }
    var hintBar: String { terminal.lines[terminal.lines.count - 1] }
    /// The rows above the hint bar.
    var content: [String] { Array(terminal.lines.dropLast()) }
    var cursor: Point? { terminal.frame.cursor }

    /// The column where `text` starts on row `y` (in cells, counting wide characters as two).
    func column(of text: String, row y: Int) -> Int? {
        let row = terminal.frame.text(row: y)
        guard let range = row.firstRange(of: text) else { return nil }
        return DisplayWidth.of(row[..<range.lowerBound])
    }

    /// The style of the cell where `text` starts on row `y`.
    func style(of text: String, row y: Int) -> Style? {
        column(of: text, row: y).map { terminal.frame[$0, y].style }
    }
}

/// A log shared by several screens, so the order of their calls can be checked.
final class CallLog {
    var entries: [String] = []
    func take() -> [String] { defer { entries = [] }; return entries }
}

/// A screen that logs its lifecycle calls, draws its title and optional lines.
final class RecordingScreen: Screen {
    let log: CallLog
    var bindings: [KeyBinding] = []
    var body: [String] = []

    init(_ title: String, log: CallLog = CallLog(), restorationIdentifier: String? = nil) {
        self.log = log
        super.init(title: title, restorationIdentifier: restorationIdentifier)
    }

    override func viewDidLoad() { log.entries.append("\(title).didLoad") }
    override func viewWillAppear() { log.entries.append("\(title).willAppear") }
    override func viewDidAppear() { log.entries.append("\(title).didAppear") }
    override func viewWillDisappear() { log.entries.append("\(title).willDisappear") }
    override func viewDidDisappear() { log.entries.append("\(title).didDisappear") }
    override var keyBindings: [KeyBinding] { bindings }

    override func draw(in canvas: Canvas) {
        canvas.write("[\(title)]", x: 0, y: 0)
        for (row, line) in body.enumerated() { canvas.write(line, x: 0, y: row + 1) }
    }
}

/// Records application lifecycle calls, in order, into a shared log.
final class LifecycleRecorder: ApplicationLifecycleObserver {
    var log: [String] = []
    var terminal: LoggingTerminal?

    private func record(_ entry: String) {
        log.append(entry)
        terminal?.log.append(entry)
    }

    func applicationDidFinishLaunching(_ application: Application) { record("didFinishLaunching") }
    func applicationWillEnterForeground(_ application: Application) { record("willEnterForeground") }
    func applicationDidEnterBackground(_ application: Application) { record("didEnterBackground") }
    func applicationWillTerminate(_ application: Application, reason: TerminationReason) { record("willTerminate(\(reason))") }
}

/// A headless terminal that also logs the calls the app makes on it, to check their order
/// against the lifecycle hooks.
final class LoggingTerminal: Terminal {
    let inner: HeadlessTerminal
    var log: [String] = []

    init(size: Size = Size(columns: 40, rows: 12)) { inner = HeadlessTerminal(size: size) }

    var size: Size { inner.size }
    var capabilities: TerminalCapabilities { inner.capabilities }
    func present(_ frame: CellBuffer, full: Bool) { log.append(full ? "present(full)" : "present"); inner.present(frame, full: full) }
    func nextEvent(timeout: Double?) -> Event? { inner.nextEvent(timeout: timeout) }
    func suspend() { log.append("suspend"); inner.suspend() }
    func restore() { log.append("restore"); inner.restore() }
}

struct TestError: Error, Equatable { var message: String }

func numberedItems(_ count: Int) -> [ListItem] {
    (1...count).map { ListItem(id: "item-\($0)", title: "Item \($0)") }
}

/// A container with one child that takes every event reaching it: shows what a child passed on.
final class CatchAllScreen: Screen {
    let child: Screen
    var received: [Event] = []

    init(_ child: Screen) {
        self.child = child
        super.init(title: "CatchAll")
        adopt(child)
    }

    override var children: [Screen] { [child] }
    override var visibleChildren: [Screen] { [child] }
    override func draw(in canvas: Canvas) { child.render(in: canvas) }
    override func handle(_ event: Event) throws -> Bool {
        received.append(event)
        return true
    }
}

/// Three recording tabs under a tab bar, sharing one log.
func threeTabs(log: CallLog = CallLog()) -> (TabScreen, [RecordingScreen]) {
    let screens = ["Map", "Characters", "Book"].map { RecordingScreen($0, log: log) }
    return (TabScreen(title: "Wonderland", tabs: screens), screens)
}
