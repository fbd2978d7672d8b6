import Screens
import Terminal
import Testing

/// `prepareForFirstFrame` is the one moment a screen may load what it shows before the app's
/// first frame: once, on the screens that frame shows, after they appeared, before drawing.
@Suite("Application: preparing the first frame")
struct FirstFramePreparationTests {
    final class PreparingScreen: Screen {
        let log: CallLog
        init(_ title: String, log: CallLog) {
            self.log = log
            super.init(title: title)
        }
        override func viewDidAppear() { log.entries.append("\(title).didAppear") }
        override func prepareForFirstFrame() { log.entries.append("\(title).prepare") }
        override func draw(in canvas: Canvas) { log.entries.append("\(title).draw") }
    }

    @Test func theShownScreensArePreparedOnceAfterAppearingAndBeforeTheFirstDraw() throws {
        let log = CallLog()
        let shown = PreparingScreen("Shown", log: log)
        let hidden = PreparingScreen("Hidden", log: log)
        let tabs = TabScreen(title: "Root", tabs: [NavigationStack(root: shown), hidden])
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 24))
        let app = Application(terminal: terminal, root: tabs)
        app.launch()
        #expect(log.entries == ["Shown.didAppear", "Shown.prepare", "Shown.draw"])

        log.entries = []
        tabs.select(1)
        app.setNeedsDisplay()
        try app.processPendingEvents()
        #expect(!log.entries.contains("Hidden.prepare"), "a tab shown later is drawn with what it has")
        #expect(log.entries.contains("Hidden.draw"))
    }

    @Test func aModalPresentedBeforeTheFirstFrameIsPreparedToo() {
        let log = CallLog()
        let root = PreparingScreen("Root", log: log)
        let app = Application(terminal: HeadlessTerminal(size: Size(columns: 80, rows: 24)), root: root)
        app.presentModal(PreparingScreen("Sheet", log: log))
        app.launch()
        #expect(log.entries.filter { $0.hasSuffix(".prepare") } == ["Root.prepare", "Sheet.prepare"])
    }
}
