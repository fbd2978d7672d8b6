import KeyedArchive
import Restoration
import Screens
import Terminal

/// One character: who they are and where the book mentions them above, the user's notes
/// below. Pushed in code when a row of the list is opened, and brought back at launch by the
/// restoration class "CharacterDetail" from the character id it saves.
///
/// Two modes, so reading keys and typing never fight: reading (`e` or Enter starts editing the
/// notes; Esc goes back to the list) and editing (every printable key is text; Esc saves the
/// note and returns to reading). Leaving the screen while editing saves too.
public final class CharacterDetailScreen: Screen {
    public static let restorationClass = "CharacterDetail"
    public static let restorationID = "CharacterDetail"

    public let character: BookCharacter
    let context: CharactersContext
    /// The notes editor; shown (and focused) only while editing.
    public let editor: TextEditorScreen
    public private(set) var isEditing = false
    /// What the last frame said about the appearances: a wake redraws only when it changes.
    private var shownAppearances: AppearanceStatus?
    private var infoScroll = 0
    private var infoPageHeight = 5
    /// Lines of the description in the last frame, to scroll no further than its end.
    private var infoLineCount = Int.max / 2
    private var notesFrame = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(character: BookCharacter, context: CharactersContext) {
        self.character = character
        self.context = context
        editor = TextEditorScreen(title: "Notes")
        editor.placeholder = "Write your notes; Esc saves them."
        super.init(title: character.name, restorationIdentifier: Self.restorationID)
        restorationClassName = Self.restorationClass
        adopt(editor)
    }

    /// Set when a restore took the chapters this page saved: the search then waits for the
    /// first frame to be on the screen, so it does not compete with drawing it.
    private var searchWaitsForFirstFrame = false

    /// Starts the search, this character first, unless it has begun.
    private func beginSearching() { context.book.beginSearching(first: character.id) }

    public override func viewWillAppear() {
        super.viewWillAppear()
        if !searchWaitsForFirstFrame { beginSearching() }
    }

    public override func didPresentFirstFrame() {
        searchWaitsForFirstFrame = false
        beginSearching()
    }

    /// The note as saved in the store (not the draft being typed).
    public var savedNote: String { context.notes.note(for: character.id) }
    /// Set when the last save could not reach the disk: said under the notes until a save works.
    public private(set) var saveError: String?

    /// The line between the note and a text another instance saved for it at the same time.
    static let otherVersionMarker = CharacterNote.otherVersionMarker

    /// The saved note followed by the other versions, each under a marker line: what the editor
    /// starts from and what reading shows, so the user sees every version and keeps what they
    /// want by editing.
    public var savedNoteWithOtherVersions: String {
        let snapshot = context.notes.snapshot(for: character.id)
        return CharacterNote(text: snapshot.text, otherVersions: snapshot.otherVersions).withOtherVersionsInline
    }

    // MARK: editing

    /// The saved note when editing began: what the user saw, so a save can tell a text another
    /// window saved meanwhile, and keep it.
    private var editingFrom: CharacterNotes.Snapshot?

    /// Starts editing the saved note with the cursor at its end, or the given draft as it was.
    public func beginEditing(draft: TextEditorState? = nil, editedFrom start: CharacterNotes.Snapshot? = nil) {
        guard !isEditing else { return }
        editingFrom = start ?? context.notes.snapshot(for: character.id)
        if let draft {
            editor.state = draft
        } else {
            let note = savedNoteWithOtherVersions
            let lines = TextEditorState.paragraphs(of: note)
            editor.state = TextEditorState(text: note, line: lines.count - 1, column: lines.last.map { $0.count } ?? 0)
        }
        isEditing = true
        if isVisible { editor.beginAppearing() }
        setNeedsDisplay()
    }

    /// Saves the note and goes back to reading.
    public func endEditing() {
        guard isEditing else { return }
        do {
            try context.notes.save(editor.state.text, for: character.id, editedFrom: editingFrom)
            saveError = nil
        } catch let tooLong as CharacterNotes.TooLong {
            // Nothing was kept: the editor stays, with the text, until it fits.
            saveError = "Not saved: \(tooLong)."
            setNeedsDisplay()
            return
        } catch {
            // The editor stays open: its draft is kept with the screen's saved state, so the
            // text survives a quit and a relaunch, and Esc tries again.
            saveError = "Not yet on disk: \(error). The note stays open here as a draft; Esc tries again."
            setNeedsDisplay()
            return
        }
        if isVisible { editor.beginDisappearing() }
        isEditing = false
        setNeedsDisplay()
    }

    public override var messages: [String] { saveError.map { [$0] } ?? [] }
    public override var children: [Screen] { [editor] }
    public override var visibleChildren: [Screen] { isEditing ? [editor] : [] }
    /// The editor is this screen's own part: its draft is saved in this screen's state.
    public override var restorableChildren: [any Restorable] { [] }

    /// The draft is saved as the note, as leaving the editor does; a save that fails keeps the
    /// editor, and the tree, in place.
    public override func keepUnsavedWork() -> String? {
        endEditing()
        return isEditing ? "the note on \(character.name) could not be saved: \(saveError ?? "unknown reason")" : nil
    }

    /// The byte count of the draft being typed; nil while reading.
    public var draftBytes: Int? { isEditing ? editor.state.text.utf8.count : nil }

    public override func viewWillDisappear() {
        // Switching tabs or going back leaves the editor: the note is saved then, too.
        endEditing()
    }

    // MARK: restoration

    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(character.id, forKey: SavedKey.characterID)
        // An activity for another machine carries the draft only when the user let drafts travel.
        let savesDraft = isEditing && RestorationPurpose.current.includesDrafts
        coder.encode(savesDraft, forKey: SavedKey.isEditing)
        coder.encode(infoScroll, forKey: SavedKey.infoScroll)
        if savesDraft {
            try coder.encode(editor.state.text, forKey: SavedKey.text)
            coder.encode(editor.state.line, forKey: SavedKey.line)
            coder.encode(editor.state.column, forKey: SavedKey.column)
            if let editingFrom {
                try coder.encode(editingFrom.text, forKey: SavedKey.editedFromText)
                try coder.encode(editingFrom.otherVersions, forKey: SavedKey.editedFromOtherVersions)
            }
            editor.encodeView(with: coder)
        }
        try context.book.remembered(for: character.id)?.encode(with: coder)
    }

    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        // Without its saved chapters the page's first frame needs the search: it starts now,
        // on the other core, while the rest of the launch builds its screens.
        searchWaitsForFirstFrame = adoptSavedAppearances(from: coder)
        if !searchWaitsForFirstFrame { beginSearching() }
        infoScroll = max(0, try coder.decodeInteger(forKey: SavedKey.infoScroll))
        guard try coder.decodeBool(forKey: SavedKey.isEditing) else { return }
        let text = try coder.decodeObject(of: String.self, forKey: SavedKey.text) ?? ""
        // An archive from before the start was kept: the note as saved now stands in for it.
        let start = try coder.decodeObject(of: String.self, forKey: SavedKey.editedFromText).map {
            CharacterNotes.Snapshot(text: $0, otherVersions: try coder.decodeObject(of: [String].self, forKey: SavedKey.editedFromOtherVersions) ?? [])
        }
        beginEditing(draft: TextEditorState(text: text, line: try coder.decodeInteger(forKey: SavedKey.line),
                                            column: try coder.decodeInteger(forKey: SavedKey.column)), editedFrom: start)
        try editor.decodeView(with: coder)
    }

    /// The chapters this page showed when it was saved stand in for the search on the first
    /// frame, if the book file is the one they were found in (`CharacterBook.adopt`); anything
    /// missing or malformed is ignored and the search answers as before.
    private func adoptSavedAppearances(from coder: KeyedUnarchiver) -> Bool {
        guard let saved = RememberedAppearances(decoding: coder) else { return false }
        return context.book.adopt(saved, for: character.id)
    }

    /// Reads the saved character id: what the restoration class needs to rebuild the screen.
    public static func savedCharacterID(from coder: KeyedUnarchiver) throws -> String? {
        try coder.decodeObject(of: String.self, forKey: SavedKey.characterID)
    }

    // MARK: background news

    /// A launch restored onto this screen searches this character's chapters first, briefly,
    /// so the first frame says where the character appears rather than "searching".
    public override func prepareForFirstFrame() {
        context.book.waitForSearch(for: character.id, upTo: context.book.firstFrameWait)
    }

    public override func handleWake() -> Bool {
        let now = context.book.status(for: character.id)
        defer { shownAppearances = now }
        return shownAppearances != nil && now != shownAppearances
    }

    // MARK: keys

    public override var keyBindings: [KeyBinding] {
        if isEditing {
            return [KeyBinding(.escape, help: "Save notes (and stop editing)") { [unowned self] in self.endEditing() }]
        }
        return [
            KeyBinding([.character("e"), .enter], label: "e", help: "Edit notes: your own, on \(character.name)") { [unowned self] in self.beginEditing() },
        ] + MotionKeys(lineHelp: "Scroll the description", linesInHintBar: false).bindings { [unowned self] in
            self.scrollInfo(by: $0.delta(pageSize: self.infoPageHeight, count: self.infoLineCount))
        }
    }

    private func scrollInfo(by delta: Int) {
        infoScroll = min(max(0, infoScroll + delta), max(0, infoLineCount - infoPageHeight))
        setNeedsDisplay()
    }

    public override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event, mouse.kind == .press, !isEditing, notesFrame.contains(mouse.position) {
            beginEditing()
            return true
        }
        if case .mouse(let mouse) = event, !isEditing, let motion = Motion(wheel: mouse, rowsShown: infoPageHeight + 1) {
            scrollInfo(by: motion.delta(pageSize: infoPageHeight, count: infoLineCount))
            return true
        }
        return try super.handle(event)
    }

    // MARK: drawing

    public override func draw(in canvas: Canvas) {
        let appearances = context.book.status(for: character.id)
        shownAppearances = appearances
        let textWidth = max(1, canvas.width - 2)
        let info = CharacterInfoText.lines(for: character, appearances: appearances, width: textWidth)
        // The notes get at least a third of the height; the description scrolls in the rest.
        let notesMinimum = min(max(3, canvas.height / 3), max(0, canvas.height - 1))
        let infoHeight = max(0, min(info.count, canvas.height - 1 - notesMinimum))
        infoPageHeight = max(1, infoHeight - 1)
        infoLineCount = info.count
        infoScroll = min(infoScroll, max(0, info.count - infoHeight))
        for row in 0..<infoHeight {
            let line = info[infoScroll + row]
            canvas.write(DisplayWidth.truncate(line.text, to: textWidth), x: 1, y: row, style: style(of: line.kind))
        }
        guard infoHeight < canvas.height else { return }
        drawNotesHeader(in: canvas.subcanvas(Rect(x: 0, y: infoHeight, width: canvas.width, height: 1)), moreAbove: infoScroll > 0,
                        moreBelow: infoScroll + infoHeight < info.count)
        let notes = canvas.subcanvas(Rect(x: 0, y: infoHeight + 1, width: canvas.width, height: canvas.height - infoHeight - 1))
        notesFrame = notes.frame
        if isEditing, let saveError, notes.height > 1 {
            // Why the note is still open goes above it: the draft stays in view below.
            let reason = DisplayWidth.wrap(saveError, to: max(1, notes.width - 2)).prefix(min(3, notes.height - 1))
            for (row, line) in reason.enumerated() { notes.write(line, x: 1, y: row, style: Style(bold: true)) }
            editor.render(in: notes.subcanvas(Rect(x: 0, y: reason.count, width: notes.width, height: notes.height - reason.count)))
        } else if isEditing {
            editor.render(in: notes)
        } else {
            drawSavedNote(in: notes)
        }
    }

    private func style(of kind: CharacterInfoText.Line.Kind) -> Style {
        switch kind {
        case .heading: Style(bold: true)
        case .body: .plain
        case .note: .plain
        }
    }

    private func drawNotesHeader(in canvas: Canvas, moreAbove: Bool, moreBelow: Bool) {
        let arrows = (moreAbove ? "↑" : "") + (moreBelow ? "↓" : "")
        let scroll = arrows.isEmpty ? "" : " \(arrows) more "
        let label = isEditing ? "─ Notes (editing; Esc saves) " : "─ Notes (e to edit) "
        canvas.write(label + String(repeating: "─", count: max(0, canvas.width - DisplayWidth.of(label) - DisplayWidth.of(scroll))) + scroll,
                     x: 0, y: 0, style: Style(bold: isEditing))
    }

    private func drawSavedNote(in canvas: Canvas) {
        var rows: [(text: String, style: Style)] = []
        if let saveError { rows += DisplayWidth.wrap(saveError, to: max(1, canvas.width - 2)).map { ($0, Style(bold: true)) } }
        let note = savedNoteWithOtherVersions
        if note.isEmpty { rows.append(("No notes yet. Press e to write some.", .plain)) }
        // Split by bytes, as the editor splits: a long note is not walked cluster by cluster.
        for paragraph in note.isEmpty ? [] : TextEditorState.paragraphs(of: note) {
            // Only a screenful is shown: a long note is not wrapped past it at every frame.
            guard rows.count < canvas.height else { break }
            let style = paragraph == Self.otherVersionMarker ? Style(underline: true) : .plain
            // The editor's rule, not the reader's: the note read wraps where it wraps edited, so
            // nothing moves on e or Esc (text without spaces, CJK and long words included).
            rows += TextEditorScreen.rows(ofParagraph: String(paragraph), width: max(1, canvas.width - 2)).map { ($0, style) }
        }
        for (row, line) in rows.prefix(canvas.height).enumerated() {
            canvas.write(line.text, x: 1, y: row, style: line.style)
        }
    }
}
