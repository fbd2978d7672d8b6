import KeyedArchive
import Screens
import Terminal

/// A one-line text field. Its text and cursor are saved with the screen, so a half-typed line
/// is still there after a relaunch. Enter shows the text on a screen of its own.
public final class DraftScreen: Screen {
    public private(set) var field = TextFieldState()

    public init() {
        super.init(title: "Draft", restorationIdentifier: "Draft")
    }

    public override var acceptsTextInput: Bool { true }

    public override func draw(in canvas: Canvas) {
        canvas.write(" Write a line, then Enter to read it back.", x: 0, y: 1, style: .dim)
        canvas.write(" Line:", x: 0, y: 3)
        field.draw(in: canvas, x: 7, y: 3, width: max(1, canvas.width - 8))
    }

    public override var keyBindings: [KeyBinding] {
        [KeyBinding(.enter, help: "Read the line back") { [unowned self] in
            (self.parent as? NavigationStack)?.push(ReviewScreen(text: self.field.text))
        }]
    }

    public override func handle(_ event: Event) throws -> Bool {
        switch event {
        case .key(let key) where field.apply(key):
            setNeedsDisplay()
            return true
        case .paste(let text):
            field.insert(pasted: text)
            setNeedsDisplay()
            return true
        default:
            return try super.handle(event)
        }
    }

    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(field.text, forKey: "text")
        coder.encode(field.cursor, forKey: "cursor")
    }

    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        let text = try coder.decodeObject(of: String.self, forKey: "text") ?? ""
        let cursor = coder.containsValue(forKey: "cursor") ? try coder.decodeInteger(forKey: "cursor") : nil
        // The text field clamps the cursor, so a damaged archive cannot put it outside the text.
        field = TextFieldState(String(text.prefix(StateApp.maximumLineLength)), cursor: cursor)
    }
}
