import Defaults
import FoundationEssentials
import KeyedArchive
import Platform
import Screens
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// The Book tab's reader: a pager that turns the pages of a book laid out around the page
/// shown (a big book is mapped, never read into a string). Its place, the pager's `anchor`, is
/// the byte offset of the text at the top of the page — never a page number — so a relaunch at
/// another width shows the page whose top line holds the same sentence. What is the book's own
/// is here: chapters, bookmarks, search, opening files, the page count, the saved place.
public final class ReaderScreen: PagerScreen {
    public static let restorationID = "Book"
    let environment: ReaderEnvironment
    let storage: ReaderStorage
    public private(set) var document: BookDocument?
    /// When and where the user last chose `anchor` (here, or on a device this reader followed):
    /// saved with it everywhere, so an older copy never replaces it.
    public internal(set) var anchorStamp = EditStamp.zero
    /// A place decoded from the restoration archive, applied when the book is opened.
    var savedPlace: SavedPlace?
    var didOpenInitialBook = false
    /// The search or Open prompt while it is on show: saved with the reader, so a relaunch asks
    /// again with the text as it was typed.
    var keptQuestion = KeptQuestion()

    var layout: TextLayout?
    var lineCount: LineCount?
    /// The page count at this width is neither in the book's index nor made yet: it is made
    /// after the frame, on its own thread.
    var pageCountPending = false
    /// A frame left work for after it (a page count to start, an index to write) and asked
    /// for a wake-up to do it.
    var workAfterFrameRequested = false
    /// The top line's number for the last anchor asked about (a draw asks several times).
    var lineNumberCache: (anchor: Int, width: Int, totalLines: Int, line: Int)?
    /// Counts pages in the background; `cancel()` stops a count nobody will read.
    public let counter: BackgroundLineCounter

    public internal(set) var searchQuery: String?
    /// This session's searches, oldest first, each once: the search prompt's ↑ history.
    public internal(set) var searchHistory: [String] = []
    static let searchHistoryLimit = 50
    public internal(set) var currentMatch: Range<Int>?
    /// One line of news under the page ("no match", "bookmark added"), cleared by the next key.
    public internal(set) var message: String?
    private var observation: PreferenceObservation?

    struct SavedPlace {
        var path: String?
        var bookID: String?
        var place: ReadingPlace
    }

    public init(environment: ReaderEnvironment) {
        self.environment = environment
        storage = ReaderStorage(store: environment.store)
        counter = BackgroundLineCounter(notify: environment.wake)
        super.init(title: "Book", text: "", restorationIdentifier: Self.restorationID)
        paging = .turningPages
        pageKeys = ([.character(" "), .pageDown, .right, .character("l")], [.character("b"), .pageUp, .left, .character("h")])
        motionKeys = MotionKeys(lineHelp: "Scroll a line", linesInHintBar: false, endsHelp: "Beginning / end of the book")
        observation = environment.store.addChangeObserver { [weak self] changed in
            guard let self else { return }
            if changed.contains(ReaderStorage.positionsKey) { self.followSavedPosition() }
            guard !changed.isDisjoint(with: ReaderEnvironment.settingKeys) else { return }
            self.setNeedsDisplay()
        }
    }

    deinit { counter.cancel() }

    // Overrides live here (Swift does not allow them in extensions); the work is in the
    // extensions by topic: drawing, commands, restoration.
    public override func draw(in canvas: Canvas) { drawReader(in: canvas) }
    /// Without a book there is nothing to page through: only opening a file.
    public override var keyBindings: [KeyBinding] {
        document == nil ? readerBindings.filter { $0.keys.contains(.character("o")) } : pagerBindings + readerBindings
    }
    public override var messages: [String] { message.map { [$0] } ?? [] }
    public override func handle(_ event: Event) throws -> Bool {
        clearMessage(before: event)
        return try super.handle(event)
    }
    public override func pagedLines() -> (any PagedLines)? { currentLayout() }
    /// A move the user asked for: the place is saved.
    public override func move(to offset: Int) {
        anchor = clamp(offset)
        savePosition()
        setNeedsDisplay()
    }
    public override func cannotMove(_ motion: Motion) { sayCannotMove(motion) }
    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try encodePlace(with: coder)
        try keptQuestion.encode(with: coder)
    }
    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        try decodePlace(with: coder)
        try? keptQuestion.decode(with: coder)  // a damaged draft costs the draft only
    }

    // MARK: opening books

    public override func viewWillAppear() {
        openInitialBookIfNeeded()
    }

    /// The path of the book shown, or of the one the reader will open when it first appears
    /// (`--book`, else the one it was reading at the last quit).
    public var bookPath: String? {
        if let document { return document.path }
        guard !didOpenInitialBook else { return nil }
        return environment.bookPath.map { Self.absolutePath($0, home: environment.homeFolder) } ?? savedPlace?.path
    }

    /// A prompt on show when the app was last saved is asked again, with its text: the book is
    /// open by now, so the search has something to search.
    public override func viewDidAppear() {
        guard let question = keptQuestion.takeQuestionToAskAgain() else { return }
        switch question.kind {
        case Self.searchQuestion: askForSearch(typed: question.field)
        case Self.openQuestion: askForFile(typed: question.field)
        default: break
        }
    }

    /// The book for the first appearance: `--book`, else the one restored, else the default.
    func openInitialBookIfNeeded() {
        guard !didOpenInitialBook else { return }
        didOpenInitialBook = true
        let place = savedPlace
        savedPlace = nil
        if let given = environment.bookPath {
            let path = Self.absolutePath(given, home: environment.homeFolder)
            do {
                let book = try environment.load(path)
                open(book, restoring: place?.bookID == book.id ? place?.place : nil, announce: true)
                return
            } catch {
                showError(error, opening: path)
            }
        }
        if let place, let path = place.path {
            do {
                let book = try environment.load(path)
                if book.id == place.bookID {
                    open(book, restoring: place.place, announce: false)
                } else {
                    open(book, restoring: nil, announce: false)
                    message = "The book at \(path) changed since you last read it."
                }
                return
            } catch {
                message = "Could not reopen \(path): \(error)"
            }
        }
        let path = BookLibrary.installedDefaultBookPath(dataFolderPath: environment.dataFolderPath, environment: ProcessEnvironment.current())
        if access(path, F_OK) == 0 {
            do { open(try environment.load(path), restoring: nil, announce: false) } catch { showError(error, opening: path) }
        }
    }

    /// Shows `book` at `offset` (a move the user asked for), or at its saved reading position,
    /// or at its start.
    public func open(_ book: BookDocument, at offset: Int?, announce: Bool) {
        show(book)
        if let offset {
            move(to: offset)
        } else {
            let saved = storage.positions.place(forBook: book.id)
            anchor = clamp(saved?.offset ?? 0)
            anchorStamp = saved?.stamp ?? .zero
        }
        finishOpening(book, announce: announce)
    }

    /// Shows `book` at the newer of the place restored from the archive and the one in the
    /// defaults; a restored place that is newer is saved with its own stamp, never a new one,
    /// so it cannot pass for newer than a place another device has since read to.
    func open(_ book: BookDocument, restoring restored: ReadingPlace?, announce: Bool) {
        show(book)
        let standing = restored.map { storage.positions.adopt($0, forBook: book.id) } ?? storage.positions.place(forBook: book.id)
        anchor = clamp(standing?.offset ?? 0)
        anchorStamp = standing?.stamp ?? .zero
        finishOpening(book, announce: announce)
    }

    private func show(_ book: BookDocument) {
        document = book
        layout = nil
        lineCount = nil
        pageCountPending = false
        counter.cancel()
        currentMatch = nil
    }

    private func finishOpening(_ book: BookDocument, announce: Bool) {
        if !book.notes.isEmpty {
            if announce, application != nil {
                present(Alert(title: "About this book", message: book.notes.joined(separator: "\n")))
            } else {
                message = book.notes.joined(separator: " ")
            }
        }
        setNeedsDisplay()
    }

    /// Opens a file by path; on failure the book that was open stays open.
    public func openFile(path: String) {
        let trimmed = path.trimmingSpaces()
        guard !trimmed.isEmpty else { return }
        let expanded = Self.absolutePath(trimmed, home: environment.homeFolder)
        do {
            open(try environment.load(expanded), at: nil, announce: true)
        } catch {
            showError(error, opening: expanded)
        }
    }

    /// `~` expanded and a relative path made absolute, so the path saved for the next launch
    /// still names the file when the app is started from another folder.
    /// `~` is `home` ($HOME), as in a shell, not the password file's home directory, which
    /// is another folder under `sudo -E`, in a container or with HOME set for a test.
    public static func absolutePath(_ path: String, home: String?) -> String {
        let expanded = UserFolders(environment: ["HOME": home ?? ""]).expandingTilde(path, otherUsers: true)
        guard !expanded.hasPrefix("/") else { return expanded }
        return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")).standardizedFileURL.path
    }

    func showError(_ error: Error, opening path: String) {
        let text = (error as? BookLoadError)?.description ?? "\(path): \(error)"
        message = "Could not open \(path)"
        if application != nil {
            present(Alert(title: "Cannot open this book", message: text + (document.map { "\n\nStill reading \($0.title)." } ?? "")))
        }
    }

    func clamp(_ offset: Int) -> Int {
        guard let document, document.text.count > 0 else { return 0 }
        return min(max(0, offset), document.text.count - 1)
    }

    /// The user moved: the place is saved with a new stamp.
    func savePosition() {
        guard let document else { return }
        // The stamp is the reader's before the store tells its observers (this reader among
        // them), so its own move is not taken for news from elsewhere.
        let place = storage.positions.newPlace(at: anchor, inBook: document.id)
        anchorStamp = place.stamp
        storage.positions.adopt(place, forBook: document.id)
    }

    /// The open book's position changed in the defaults without a move here: another device
    /// read on (synced store) or another instance saved. The positions' owner says which place
    /// stands; the reader goes there and says so.
    func followSavedPosition() {
        guard let document else { return }
        let standing = storage.positions.settle(shown: ReadingPlace(offset: anchor, stamp: anchorStamp), forBook: document.id)
        anchorStamp = standing.stamp
        let target = clamp(standing.offset)
        guard target != anchor else { return }
        anchor = target
        currentMatch = nil
        message = "Moved to where you were reading elsewhere."
        setNeedsDisplay()
    }

    // MARK: layout

    /// The layout at the current width, made on demand. The page count at a new width comes
    /// from the book's index, else it is made after the frame.
    func currentLayout() -> TextLayout? {
        guard let document else { return nil }
        if let layout, layout.width == textWidth { return layout }
        let fresh = TextLayout(text: document.text, width: textWidth)
        layout = fresh
        if lineCount?.width != textWidth {
            lineCount = document.index?.lineCount(width: textWidth)
            lineNumberCache = nil
            pageCountPending = lineCount == nil
            counter.cancel()
        }
        return fresh
    }

    /// Asks for a wake-up once a frame is drawn that left work for after it, so the first frame
    /// of a book waits for nothing but its own page: no timer, the wake-up is the loop's next
    /// event after the frame.
    func requestWorkAfterFrame() {
        guard !workAfterFrameRequested, pageCountPending || document?.index?.hasUnsavedChanges == true else { return }
        workAfterFrameRequested = true
        environment.wake()
    }

    private func startWorkAfterFrame() {
        guard workAfterFrameRequested else { return }
        workAfterFrameRequested = false
        guard let document else { return }
        if pageCountPending {
            pageCountPending = false
            counter.start(document: document, width: textWidth)
        }
        // A cache: a failed write costs only a slower opening next time.
        try? document.index?.save()
    }

    /// A page count from the index that does not fit the text (its checkpoint is no block
    /// start): forgotten, and made again after the frame.
    private func dropPageCount() {
        lineCount = nil
        lineNumberCache = nil
        document?.index?.forgetLineCount(width: textWidth)
        pageCountPending = true
    }

    /// Updates the geometry from the region the reader draws in.
    func adopt(canvasWidth: Int, canvasHeight: Int) {
        let margin = canvasWidth >= 60 ? 2 : 1
        adoptPageSize(width: max(10, min(canvasWidth - 2 * margin, environment.textWidth)), height: canvasHeight - 2)
    }

    /// The lines of the page now shown.
    public func pageLines() -> [(position: TextLayout.Position, line: LaidOutLine)] {
        guard let layout = currentLayout(), let top = layout.position(of: anchor) else { return [] }
        return layout.lines(from: top, count: pageHeight)
    }

    /// Where the top line starts (the saved place snapped to its line at this width).
    public var topLineOffset: Int? { pageLines().first?.line.start }

    public override func handleWake() -> Bool {
        startWorkAfterFrame()
        guard let result = counter.takeResult(), let document, result.bookID == document.id, result.count.width == textWidth else { return false }
        lineCount = result.count
        lineNumberCache = nil
        document.index?.remember(result.count)
        try? document.index?.save()
        return true
    }

    /// "page X of Y" for this width and height; nil while the pages are being counted.
    public var pageNumber: (current: Int, total: Int)? {
        guard let lineCount, lineCount.width == textWidth, let layout = currentLayout() else { return nil }
        let total = max(1, (lineCount.totalLines + pageHeight - 1) / pageHeight)
        let lines = pageLines()
        if let last = lines.last, layout.next(last.position) == nil { return (total, total) }
        let line: Int
        if let cached = lineNumberCache, cached.anchor == anchor, cached.width == textWidth, cached.totalLines == lineCount.totalLines {
            line = cached.line
        } else {
            guard let checked = lineCount.checkedLineNumber(of: anchor, in: layout) else {
                dropPageCount()
                return nil
            }
            line = checked
            lineNumberCache = (anchor, textWidth, lineCount.totalLines, line)
        }
        let current = line / pageHeight + 1
        return (min(current, total), total)
    }

    public var percent: Int {
        guard let document, document.text.count > 0 else { return 0 }
        if let layout = currentLayout(), let last = pageLines().last, layout.next(last.position) == nil { return 100 }
        return Int(Double(topLineOffset ?? anchor) * 100 / Double(document.text.count))
    }
}
