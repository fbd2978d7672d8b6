import KeyedArchive
import Terminal
import TextSafety

/// A screen presented over everything in a centred box, ending with a typed result handed to
/// ``completion``.
///
/// Present one with ``Screen/present(_:)``; it takes every key until it calls ``finish(_:)``.
/// ``Alert``, ``Confirm`` and ``Prompt`` are the ready-made ones; subclass it for another
/// question, drawing its controls in ``drawControls(in:)`` in the ``extraRows`` it asks for.
open class ModalScreen<Result>: Screen {
    /// Called once with the result when the modal is dismissed.
    public var completion: ((Result) -> Void)?
    /// The message under the title, wrapped to the box. Messages quote input (a title, a path,
    /// an error from a server), so it is bounded whenever it is set: each line to
    /// `SafeText.messageLimit` characters, and no more lines than a box could ever show.
    public var message: String {
        didSet { message = Self.bounded(message: message) }
    }

    /// Lines of a message kept: a box taller than this would not fit a usual terminal anyway.
    static var messageLines: Int { 12 }

    /// A modal showing `message` under `title`; `completion` gets its result.
    public init(title: String, message: String, restorationIdentifier: String? = nil, completion: ((Result) -> Void)? = nil) {
        self.message = Self.bounded(message: message)
        self.completion = completion
        super.init(title: title, restorationIdentifier: restorationIdentifier)
    }

    /// Dismisses the modal and delivers its result.
    public func finish(_ result: Result) {
        application?.dismissModal(self)
        completion?(result)
    }

    /// Rows the content below the message needs (a text field, buttons).
    open var extraRows: Int { 1 }

    /// Draws the box centred on the canvas: the title on its border, the message wrapped inside,
    /// and the controls below.
    open override func draw(in canvas: Canvas) {
        let width = min(canvas.width, max(30, min(60, DisplayWidth.of(message) + 4, canvas.width)))
        let wrapped = DisplayWidth.wrap(message, to: max(1, width - 4))
        let height = min(canvas.height, wrapped.count + extraRows + 4)
        let box = canvas.subcanvas(canvas.bounds.centered(width: width, height: height))
        box.fill()
        box.drawBox(style: .bold)
        box.write(" " + DisplayWidth.truncate(title, to: max(0, width - 6)) + " ", x: 2, y: 0, style: .bold)
        for (row, line) in wrapped.enumerated() where row + 1 < height - 1 {
            box.write(line, x: 2, y: row + 1)
        }
        drawControls(in: box.subcanvas(Rect(x: 2, y: wrapped.count + 2, width: width - 4, height: extraRows)))
    }

    static func bounded(message: String) -> String {
        let lines = message.split(separator: "\n", maxSplits: messageLines, omittingEmptySubsequences: false)
        let kept = lines.prefix(messageLines).map { SafeText.bounded($0) }
        return (kept + (lines.count > messageLines ? ["…"] : [])).joined(separator: "\n")
    }

    /// Draws the text field or the buttons, below the message.
    open func drawControls(in canvas: Canvas) {}
}

/// A message and one OK button, closed with Enter, Esc or Space; its completion gets nothing.
///
/// ```swift
/// screen.present(Alert(title: "Cannot open", message: error.description))
/// ```
public final class Alert: ModalScreen<Void> {
    /// For a notice that appears without the user asking (at launch, from syncing): a key it
    /// does not use closes it and is then handled as if it had not been there, so the key the
    /// user was typing is not lost. The message log keeps what it said.
    public var passesOtherKeysOn = false
    /// The title and message, so the message log keeps what the alert said.
    public override var messages: [String] { [title + ": " + message] }
    /// Enter, Esc or Space to close.
    public override var keyBindings: [KeyBinding] {
        [KeyBinding([.enter, .escape, .character(" ")], label: "Enter", help: "Close") { [unowned self] in self.finish(()) }]
    }
    /// Draws the OK button, centred.
    public override func drawControls(in canvas: Canvas) {
        canvas.write("[ OK ]", x: max(0, (canvas.width - 6) / 2), y: 0, style: .reverse)
    }
}

/// A yes-or-no question. Enter takes the highlighted answer; y and n answer directly, Esc
/// answers no, and a click on a button answers with it.
///
/// ```swift
/// screen.present(Confirm(title: "Delete", message: "Delete the note?") { yes in
///     if yes { notes.remove(id) }
/// })
/// ```
public final class Confirm: ModalScreen<Bool> {
    /// The label of the button that answers true.
    public var yesTitle = "Yes"
    /// The label of the button that answers false.
    public var noTitle = "No"
    /// Which button Enter presses now.
    public private(set) var highlightsYes = true

    /// y and n to answer, ←→ or Tab to move the highlight, Enter to answer with it, Esc for no.
    public override var keyBindings: [KeyBinding] {
        [
            KeyBinding(.character("y"), help: yesTitle) { [unowned self] in self.finish(true) },
            KeyBinding(.character("n"), help: noTitle) { [unowned self] in self.finish(false) },
            KeyBinding([.left, .right, .tab, .backTab], label: "←→", help: "Choose") { [unowned self] in self.highlightsYes.toggle() },
            KeyBinding(.enter, help: "Answer") { [unowned self] in self.finish(self.highlightsYes) },
            KeyBinding(.escape, help: "Cancel (same as No)") { [unowned self] in self.finish(false) },
        ]
    }

    /// Where the two buttons were drawn, in frame coordinates, for clicks.
    private var buttonFrames: (yes: Rect, no: Rect)?

    /// Draws the two buttons, the highlighted one in reverse video.
    public override func drawControls(in canvas: Canvas) {
        let yes = "[ \(yesTitle) ]", no = "[ \(noTitle) ]"
        let total = DisplayWidth.of(yes) + 2 + DisplayWidth.of(no)
        let x = max(0, (canvas.width - total) / 2)
        let yesWidth = canvas.write(yes, x: x, y: 0, style: highlightsYes ? .reverse : .plain)
        let noWidth = canvas.write(no, x: x + yesWidth + 2, y: 0, style: highlightsYes ? .plain : .reverse)
        let origin = canvas.frame
        buttonFrames = (Rect(x: origin.x + x, y: origin.y, width: yesWidth, height: 1),
                        Rect(x: origin.x + x + yesWidth + 2, y: origin.y, width: noWidth, height: 1))
    }

    /// Answers with the button clicked; every other click is swallowed, and keys go to the key
    /// bindings.
    public override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            guard mouse.kind == .press, let buttons = buttonFrames else { return true }
            if buttons.yes.contains(mouse.position) { finish(true) }
            if buttons.no.contains(mouse.position) { finish(false) }
            return true
        }
        return try super.handle(event)
    }
}

/// Asks for a line of text. The result is the text on Enter, `nil` when cancelled with Esc.
///
/// Set ``isSecure`` for a password, ``history`` for earlier answers and ``tabCompletion`` to
/// complete with Tab. The prompt takes every key but Ctrl-C while presented.
open class Prompt: ModalScreen<String?> {
    /// The text being typed, with its cursor.
    public var field: TextFieldState
    /// Shown as dots, and never saved by the restoration engine.
    public var isSecure = false
    /// Saves the half-typed text while presented, so it is asked again at launch with the
    /// same text. Needs an identifier and a restoration class (which supplies the completion);
    /// ignored for secure prompts.
    public var preservesDraft = false

    /// Earlier answers, oldest first: ↑ brings them back one by one, ↓ goes forward again.
    public var history: [String] = [] {
        didSet { historyIndex = history.count }
    }
    private var historyIndex = 0

    /// What Tab does with the text before the cursor (paths in the Open prompt); without it
    /// Tab does nothing. Several candidates left are listed under the question, as a shell does.
    public var tabCompletion: ((String) -> TabCompletion)?
    /// The question as first asked, before any list of candidates was added under it.
    private var question: String?
    /// What was typed before ↑ was first pressed, given back by ↓ past the newest answer.
    private var typedBeforeHistory = ""

    /// A prompt whose field starts with `text`; `completion` gets the text on Enter, nil on Esc.
    public init(title: String, message: String, text: String = "", restorationIdentifier: String? = nil, completion: ((String?) -> Void)? = nil) {
        field = TextFieldState(text)
        super.init(title: title, message: message, restorationIdentifier: restorationIdentifier, completion: completion)
    }

    /// Always true: every printable key is text.
    public override var acceptsTextInput: Bool { true }

    /// True when ``preservesDraft`` is on and the prompt is not secure.
    public override var preservesWhilePresented: Bool { preservesDraft && !isSecure }

    /// Saves the typed text and its cursor; a secure prompt saves nothing.
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        guard !isSecure else { return }
        try coder.encode(field.text, forKey: SavedKey.text)
        coder.encode(field.cursor, forKey: SavedKey.cursor)
    }

    /// Puts the saved text and cursor back in the field; a secure prompt reads nothing.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        guard !isSecure, let text = try coder.decodeObject(of: String.self, forKey: SavedKey.text) else { return }
        field = TextFieldState(text, cursor: try coder.decodeInteger(forKey: SavedKey.cursor))
    }

    /// Enter to answer, Esc to cancel, and, when set up, Tab to complete and ↑↓ for earlier
    /// answers; then the field's editing keys, for the help.
    public override var keyBindings: [KeyBinding] {
        [
            KeyBinding(.enter, help: "OK") { [unowned self] in self.finish(self.field.text) },
            KeyBinding(.escape, help: "Cancel") { [unowned self] in self.finish(nil) },
        ] + (tabCompletion == nil ? [] : [
            KeyBinding(.tab, help: "Complete the path") { [unowned self] in self.complete() },
        ]) + (history.isEmpty ? [] : [
            KeyBinding([.up, .down], label: "↑↓", help: "Earlier answers", showsInHintBar: false) { [unowned self] key in
                self.recall(older: key == .up)
            },
        ]) + TextFieldState.keyBindings { [unowned self] key in _ = self.field.apply(key) }
    }

    private func complete() {
        guard let tabCompletion else { return }
        let before = String(field.characters[..<field.cursor])
        let after = String(field.characters[field.cursor...])
        let result = tabCompletion(before)
        field = TextFieldState(result.text + after, cursor: result.text.count)
        let asked = question ?? message
        question = asked
        message = result.candidates.isEmpty ? asked : asked + "\n" + TabCompletion.listing(result.candidates)
    }

    private func recall(older: Bool) {
        let target = min(max(0, historyIndex + (older ? -1 : 1)), history.count)
        guard target != historyIndex else { return }
        if historyIndex == history.count { typedBeforeHistory = field.text }
        historyIndex = target
        field = TextFieldState(target == history.count ? typedBeforeHistory : history[target])
    }

    /// Gives editing keys and pasted text to the field and runs the key bindings; swallows every
    /// other key but Ctrl-C, F1 and F2, which must reach the app.
    public override func handle(_ event: Event) throws -> Bool {
        if case .key(let key) = event, key != .enter, key != .escape, field.apply(key) { return true }
        if case .paste(let text) = event {
            field.insert(pasted: text)
            return true
        }
        // A prompt swallows every other key, but those of the app: Ctrl-C quits, F1 and F2
        // open help and the messages over the prompt.
        return try super.handle(event) || event.isKeyAModalKeeps
    }

    /// Draws the field across the box, as dots when ``isSecure``.
    public override func drawControls(in canvas: Canvas) {
        let shown = isSecure ? TextFieldState(String(repeating: "•", count: field.characters.count), cursor: field.cursor) : field
        shown.draw(in: canvas, x: 0, y: 0, width: canvas.width)
    }
}

/// What Tab made of a prompt's text: the text completed as far as it is certain, and the
/// candidates still open when there are several.
public struct TabCompletion: Hashable, Sendable {
    /// The text to put in the field: what the user typed, extended as far as every candidate
    /// agrees.
    public var text: String
    /// What the text could still become when there is more than one; listed under the question.
    /// Leave it empty when the completion is unique or there is none.
    public var candidates: [String]

    /// Makes a completion result.
    ///
    /// - Parameters:
    ///   - text: The completed text before the cursor.
    ///   - candidates: The choices still open, when there are several.
    public init(text: String, candidates: [String] = []) {
        self.text = text
        self.candidates = candidates
    }

    /// Candidates listed under a question: the first few, and how many more.
    static let listedCandidates = 8

    static func listing(_ candidates: [String]) -> String {
        let shown = candidates.prefix(listedCandidates).joined(separator: "  ")
        return candidates.count > listedCandidates ? shown + "  … \(candidates.count - listedCandidates) more" : shown
    }
}
