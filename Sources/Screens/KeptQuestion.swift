import KeyedArchive
import Restoration

/// A modal that asks for a line of text: a ``Prompt``, a finder with a name field.
public protocol AsksForText: Screen {
    /// The text typed so far, with its cursor.
    var field: TextFieldState { get }
}

extension Prompt: AsksForText {}

/// The question a screen has on show in a modal with a text field, kept with the screen's own
/// state so that after a relaunch it is asked again with the text as it was typed.
///
/// The answer acts on the screen that asked (search its book, centre its map), which a
/// restoration class rebuilding the modal alone could not reach; so the screen saves the
/// question with its own state and asks it again when it next appears:
///
/// ```swift
/// func askForSearch(_ typed: TextFieldState? = nil) {
///     let prompt = Prompt(title: "Search", message: "Find:", text: typed?.text ?? "") { … }
///     keptQuestion.asking(prompt, kind: "Search")
///     present(prompt)
/// }
/// override func viewDidAppear() {
///     if let question = keptQuestion.takeQuestionToAskAgain() { askForSearch(question.field) }
/// }
/// ```
public struct KeptQuestion {
    private weak var shown: (any AsksForText)?
    private var shownKind = ""
    private var toAskAgain: (kind: String, field: TextFieldState)?

    /// Nothing asked yet.
    public init() {}

    /// Notes that `question` is being asked, named by `kind` (the screen's own word for which
    /// of its questions it is), so it is saved while it is on show.
    public mutating func asking(_ question: any AsksForText, kind: String) {
        shown = question
        shownKind = kind
        toAskAgain = nil
    }

    /// The question to ask again after a restore, once: nil after, and nil when none was saved.
    public mutating func takeQuestionToAskAgain() -> (kind: String, field: TextFieldState)? {
        defer { toAskAgain = nil }
        return toAskAgain
    }

    /// Saves the question on show, its kind, text and cursor; nothing when none is on show, it
    /// is a secure prompt, or the archive is an activity for another machine without drafts.
    public func encode(with coder: KeyedArchiver) throws {
        guard RestorationPurpose.current.includesDrafts,
              let shown, shown.application?.modals.contains(where: { $0 === shown }) == true,
              (shown as? Prompt)?.isSecure != true else { return }
        try coder.encode(shownKind, forKey: SavedKey.questionKind)
        try coder.encode(shown.field.text, forKey: SavedKey.questionText)
        coder.encode(shown.field.cursor, forKey: SavedKey.questionCursor)
    }

    /// Reads back a question ``encode(with:)`` saved, for ``takeQuestionToAskAgain()``.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    public mutating func decode(with coder: KeyedUnarchiver) throws {
        guard let kind = try coder.decodeObject(of: String.self, forKey: SavedKey.questionKind),
              let text = try coder.decodeObject(of: String.self, forKey: SavedKey.questionText) else { return }
        toAskAgain = (kind, TextFieldState(text, cursor: try coder.decodeInteger(forKey: SavedKey.questionCursor)))
    }
}
