import Synchronization
import Testing
import Screens
import ScreensTesting
import Terminal

/// A screen whose news comes from another thread, as a GPS reader or a page counter does.
private final class MailboxScreen: Screen {
    let mailbox = Mutex<String?>(nil)
    private(set) var shown = "nothing yet"
    private(set) var wakes = 0

    override func handleWake() -> Bool {
        wakes += 1
        guard let news = mailbox.withLock({ value -> String? in defer { value = nil }; return value }) else { return false }
        shown = news
        return true
    }

    override func draw(in canvas: Canvas) {
        canvas.write(shown, x: 0, y: 0)
    }
}

@Suite("Wake-ups from background work")
struct WakeTests {
    @Test func hiddenTabsAndModalsTakeTheirNewsAndOneFrameShowsIt() throws {
        let shown = MailboxScreen(title: "Shown")
        let hidden = MailboxScreen(title: "Hidden")
        let pilot = Pilot(TabScreen(title: "Root", tabs: [shown, hidden]))
        let modal = MailboxScreen(title: "Modal")
        pilot.app.presentModal(modal)
        try pilot.press()
        let framesBefore = pilot.terminal.framesPresented

        shown.mailbox.withLock { $0 = "a fix at 48.85 N" }
        hidden.mailbox.withLock { $0 = "page count 212" }
        try pilot.send(.wake)

        #expect(shown.shown == "a fix at 48.85 N")
        #expect(hidden.shown == "page count 212", "a hidden tab still takes its news")
        #expect(modal.wakes == 1)
        #expect(pilot.terminal.framesPresented == framesBefore + 1)
    }

    @Test func aWakeWithNoNewsDrawsNothing() throws {
        let screen = MailboxScreen(title: "Quiet")
        let pilot = Pilot(screen)
        let framesBefore = pilot.terminal.framesPresented
        try pilot.send(.wake)
        #expect(screen.wakes == 1)
        #expect(pilot.terminal.framesPresented == framesBefore)
    }

    @Test func postingFromAnotherThreadIsSafeAndCoalesces() async {
        // Without a terminal's wake pipe installed this only records the flag; it must not crash
        // or block from any thread, however many times it is called.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<100 { Wakeup.post() } } }
        }
    }
}
