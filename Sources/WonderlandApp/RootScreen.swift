import BookFront
import FoundationEssentials
import KeyedArchive
import Restoration
import Screens
import Terminal

/// Builds the screen tree every launch starts from: the tab bar and its three tabs, each with
/// the restoration identifier the restoration engine will save it under.
public enum RootScreen {
    public static let tabBarRestorationID = "RootTabBar"

    public static func make(services: AppServices = .inMemory()) -> TabScreen {
        WonderlandTabs(tabs: [MapTab.make(services: services), CharactersTab.make(services: services), BookTab.make(services: services)], services: services)
    }

    /// The engine with every restoration class the app's screens use.
    public static func restorationEngine(services: AppServices = .inMemory()) -> RestorationEngine {
        var registry = RestorationClassRegistry()
        MapTab.registerRestorationClasses(in: &registry, services: services)
        CharactersTab.registerRestorationClasses(in: &registry, services: services)
        BookTab.registerRestorationClasses(in: &registry, services: services)
        SettingsSheet.registerRestorationClasses(in: &registry, services: services)
        return RestorationEngine(registry: registry)
    }
}

/// The app's tab bar, with the one key that belongs to the whole app rather than a tab:
/// `,` opens the settings over it.
final class WonderlandTabs: TabScreen {
    private let services: AppServices

    init(tabs: [Screen], services: AppServices) {
        self.services = services
        super.init(title: "Wonderland", tabs: tabs, restorationIdentifier: RootScreen.tabBarRestorationID)
        showBookIfAsked()
    }

    /// `--book PATH` asks to read that book: the Book tab is shown, whichever tab was saved.
    private func showBookIfAsked() {
        guard services.launch.bookPath != nil, let book = tabs.firstIndex(where: { $0 is ReaderScreen }) else { return }
        select(book)
    }

    override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        try super.decodeRestorableState(with: coder)
        showBookIfAsked()
    }

    override var keyBindings: [KeyBinding] {
        var bindings = super.keyBindings + [KeyBinding(.character(","), help: "Settings") { [unowned self] in
            self.present(SettingsSheet(services: self.services))
        }]
        // Listed in the help while an offer is on show; `handleBeforeFocus` is what answers it.
        if let offer = services.handoff.offer, !offer.isFromNewerVersion {
            bindings.append(KeyBinding(.character("h"), help: "Continue from \(offer.deviceName) (Handoff)", showsInHintBar: false) { [unowned self] in
                self.services.handoff.take()
            })
        }
        return bindings
    }

    /// A sync problem is kept in the message log: the tab bar has room for its first words
    /// only. The sync notes follow; the problem's place is kept when there is none (an empty
    /// message is no message), so a note is never taken for new because the problem went.
    override var messages: [String] {
        [services.cloudStatus.problem.map { "Sync: " + $0 } ?? ""] + services.cloudStatus.notes
    }

    override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        if let offer = services.handoff.offer {
            drawSyncStatus(offer.text(now: Date()), keeping: offer.keyHint(typing: isTyping) ?? "", in: canvas, style: Self.offerStyle)
        } else if let status = services.cloudStatus.text {
            drawSyncStatus(status, in: canvas)
        }
    }

    /// Another machine's place, offered: `h` takes it, Esc or any other key waves it away
    /// (that key then does what it always does). While a text field has focus the offer waits:
    /// every key is text, and `h` works once the field is left.
    override func handleBeforeFocus(_ key: Key, typing: Bool) throws -> Bool {
        guard let offer = services.handoff.offer, !typing else { return false }
        if key == .character("h"), !offer.isFromNewerVersion {
            services.handoff.take()
            return true
        }
        services.handoff.dismiss()
        return key == .escape
    }

    private var isTyping: Bool {
        var screen: Screen? = self
        while let current = screen {
            if current.acceptsTextInput { return true }
            screen = current.focusedChild
        }
        return false
    }

    static let offerStyle = Style(reverse: true)

    /// The sync status at the right end of the tab bar, where the tab names leave room.
    /// `tail` is kept whole when the text is cut (the key that takes an offer).
    private func drawSyncStatus(_ status: String, keeping tail: String = "", in canvas: Canvas, style: Style = TabScreen.barStyle) {
        let namesEnd = 1 + tabs.enumerated().reduce(0) { $0 + DisplayWidth.of(" \($1.offset + 1) \($1.element.title) ") + 1 }
        let room = canvas.width - namesEnd - 2
        guard room >= 6 + DisplayWidth.of(tail) else { return }
        let text = DisplayWidth.truncate(status, to: room - DisplayWidth.of(tail)) + tail
        _ = canvas.write(text, x: canvas.width - 1 - DisplayWidth.of(text), y: 0, style: style)
    }
}
