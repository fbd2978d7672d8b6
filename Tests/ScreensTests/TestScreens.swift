import Screens
import Terminal

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
