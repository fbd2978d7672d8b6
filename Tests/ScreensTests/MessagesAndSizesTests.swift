import Testing
@testable import Screens
import ScreensTesting
import Terminal

/// A screen saying something too long for its one line, as a reader's error or a map notice does.
final class NoticeScreen: Screen {
    var notice: String?
    var status: String?

    init(_ title: String = "Notices") { super.init(title: title) }

    override var messages: [String] { notice.map { [$0] } ?? [] }
    override var statusText: String? { status }
    override var keyBindings: [KeyBinding] {
        [KeyBinding(.character("x"), help: "Say something") { [unowned self] in self.notice = "Said once more." }]
    }

    override func draw(in canvas: Canvas) {
        if let notice { canvas.write(DisplayWidth.truncate(notice, to: canvas.width), x: 0, y: canvas.height - 1) }
    }
}

@Suite("Messages, and every size from 40×10")
struct MessagesAndSizesTests {
    static let sizes = [(40, 10), (40, 12), (80, 24), (200, 60)]
    static let longNotice = "Could not open /home/alice/Books/Through the Looking-Glass, and What Alice Found There.epub: "
        + "the archive's central directory is damaged (entry 7 of 12 claims 4294967295 bytes); the book that was open stays open."

    @Test("a long notice is cut with “…” on screen, and M shows it whole, wrapped, newest last", arguments: sizes)
    func messagesOverlayShowsTheWholeNotice(_ size: (Int, Int)) throws {
        let screen = NoticeScreen()
        screen.notice = "An earlier notice."
        let pilot = Pilot(screen, columns: size.0, rows: size.1)
        screen.notice = Self.longNotice
        try pilot.send(.resize(Size(columns: size.0, rows: size.1)))
        let shown = pilot.content.last { !$0.isEmpty } ?? ""
        #expect(shown.hasSuffix("…") || size.0 >= 200, "\(shown)")
        #expect(pilot.app.messageLog.entries == ["An earlier notice.", Self.longNotice])
        try pilot.type("M")
        #expect(pilot.app.modals.count == 1)
        try pilot.press(.control("e"))  // the newest at the bottom, however small the box
        let boxText = pilot.content.filter { $0.contains("│") }.map { line in
            line.trimmingCharacters(in: ["│", " ", "↑", "↓"])
        }.filter { !$0.isEmpty }
        #expect(boxText.joined(separator: " ").hasSuffix("the book that was open stays open."), "\(boxText)")
        // Every word of the notice can be read by scrolling up through the box.
        var seen = Set<String>()
        try pilot.press(.control("a"))
        for _ in 0..<40 {
            for line in pilot.content { for word in line.split(separator: " ") { seen.insert(String(word)) } }
            try pilot.press(.down)
        }
        for word in Self.longNotice.split(separator: " ").map(String.init) {
            #expect(seen.contains(word) || seen.contains("•") && seen.contains(word), "“\(word)” never shown")
        }
        try pilot.press(.escape)
        #expect(pilot.app.modals.isEmpty)
    }

    @Test("the same notice shown frame after frame is kept once; a new one is added")
    func noticesAreKeptOnceEach() throws {
        let screen = NoticeScreen()
        screen.notice = "Bookmark added."
        let pilot = Pilot(screen, columns: 40, rows: 12)
        try pilot.resize(columns: 50, rows: 12)
        try pilot.resize(columns: 40, rows: 12)
        #expect(pilot.app.messageLog.entries == ["Bookmark added."])
        try pilot.type("x")
        #expect(pilot.app.messageLog.entries == ["Bookmark added.", "Said once more."])
    }

    @Test("no messages yet: the overlay says so; M is listed in help; F2 opens it while typing")
    func emptyLogAndKeys() throws {
        let root = RecordingScreen("Root")
        let pilot = Pilot(root, columns: 40, rows: 12)
        try pilot.type("M")
        #expect(pilot.content.contains { $0.contains("No messages yet.") })
        try pilot.press(.escape)
        try pilot.type("?")
        try pilot.press(.control("e"))
        #expect(pilot.content.contains { $0.contains("M") && $0.contains("Messages") })
        try pilot.press(.escape)
        let list = ListScreen(title: "Items", items: numberedItems(3))
        let typing = Pilot(list, columns: 40, rows: 12)
        try typing.type("/M")
        #expect(typing.app.modals.isEmpty)  // M is text in the filter
        #expect(list.state.filter.text == "M")
        try typing.press(.function(2))
        #expect(typing.app.modals.count == 1)
        #expect(typing.content.contains { $0.contains("Messages") })
    }

    @Test("an alert's message is kept among the messages")
    func alertsAreKept() throws {
        let root = RecordingScreen("Root")
        let pilot = Pilot(root, columns: 40, rows: 12)
        root.present(Alert(title: "Cannot open this book", message: "No such file."))
        try pilot.app.processPendingEvents()
        try pilot.press(.enter)
        #expect(pilot.app.messageLog.entries == ["Cannot open this book: No such file."])
    }

    @Test("the log keeps the last hundred, each bounded")
    func logIsBounded() {
        var log = MessageLog()
        for number in 1...250 { log.note("Notice \(number)", from: "screen") }
        log.append(String(repeating: "x", count: 1_000_000))
        #expect(log.entries.count == MessageLog.capacity)
        #expect(log.entries.first == "Notice 152")
        #expect(log.entries.last?.count == MessageLog.entryLimit + 1)
    }

    @Test("a status too long for the hint bar ends with “…” and is kept in the log", arguments: sizes)
    func longStatus(_ size: (Int, Int)) throws {
        let screen = NoticeScreen()
        screen.status = "offline, 3 changes waiting: " + String(repeating: "the sync folder /mnt/shared is not mounted; ", count: 5)
        let pilot = Pilot(screen, columns: size.0, rows: size.1)
        #expect(pilot.hintBar.hasSuffix("…"), "\(pilot.hintBar)")
        #expect(pilot.hintBar.contains("? Help"))
        #expect(pilot.app.messageLog.entries == [screen.status])
    }

    @Test("a short status is shown whole and not logged")
    func shortStatus() throws {
        let screen = NoticeScreen()
        screen.status = "Ln 1901, Col 10"
        let pilot = Pilot(screen, columns: 40, rows: 10)
        #expect(pilot.hintBar.hasSuffix("Ln 1901, Col 10"), "\(pilot.hintBar)")
        #expect(pilot.app.messageLog.entries.isEmpty)
    }

    @Test("tab names that do not fit are cut with “…”, never wrapped", arguments: sizes)
    func tabBarTruncates(_ size: (Int, Int)) throws {
        let names = ["Map", "Characters", "Book", "Through the Looking-Glass", "The Hunting of the Snark", "Sylvie and Bruno",
                     "Phantasmagoria", "A Tangled Tale"]
        let tabs = TabScreen(title: "Wonderland", tabs: names.map { RecordingScreen($0) })
        let pilot = Pilot(tabs, columns: size.0, rows: size.1)
        let bar = pilot.lines[0]
        #expect(bar.hasSuffix("…") || bar.hasSuffix("A Tangled Tale"), "\(bar)")
        #expect(DisplayWidth.of(bar) <= size.0)
        #expect(pilot.lines[1] == "[Map]")  // the next row is the tab's, not the bar's rest
    }

    @Test("titles are cut with “…” at 40 columns: a navigation path, a modal, the help", arguments: sizes)
    func titlesTruncate(_ size: (Int, Int)) throws {
        let longTitle = "The Walrus and the Carpenter were walking close at hand; they wept like anything to see such quantities of sand"
        let stack = NavigationStack(root: RecordingScreen("Characters"))
        let pilot = Pilot(stack, columns: size.0, rows: size.1)
        stack.push(RecordingScreen(longTitle))
        try pilot.app.processPendingEvents()
        #expect(pilot.lines[0].hasSuffix("…") || size.0 >= 200, "\(pilot.lines[0])")
        stack.present(Alert(title: longTitle, message: "Oysters."))
        try pilot.app.processPendingEvents()
        let titleRow = try #require(pilot.lines.first { $0.contains("┌") })
        #expect(titleRow.contains("… ") || size.0 >= 200, "\(titleRow)")
        for line in pilot.lines { #expect(DisplayWidth.of(line) <= size.0) }
    }
}
