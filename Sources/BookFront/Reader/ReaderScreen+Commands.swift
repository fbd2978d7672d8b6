import FoundationEssentials
import Platform
import Screens
import Terminal

extension ReaderScreen {
    /// The book's own keys, after the pager's.
    var readerBindings: [KeyBinding] {
        [
            KeyBinding(.character("]"), help: "Next chapter", showsInHintBar: false) { [unowned self] in self.nextChapter() },
            KeyBinding(.character("["), help: "Previous chapter", showsInHintBar: false) { [unowned self] in self.previousChapter() },
            KeyBinding(.character("t"), help: "Contents") { [unowned self] in self.showContents() },
            KeyBinding(.character("/"), help: "Search") { [unowned self] in self.askForSearch() },
            KeyBinding(.character("n"), help: "Next match", showsInHintBar: false) { [unowned self] in self.findNext(backward: false) },
            KeyBinding(.character("N"), help: "Previous match", showsInHintBar: false) { [unowned self] in self.findNext(backward: true) },
            KeyBinding(.character("a"), help: "Add a bookmark", showsInHintBar: false) { [unowned self] in self.addBookmark() },
            KeyBinding(.character("B"), help: "Bookmarks") { [unowned self] in self.showBookmarks() },
            KeyBinding(.character("o"), help: "Open a file") { [unowned self] in self.askForFile() },
        ]
    }

    /// A key or a turn of the wheel clears the last message.
    func clearMessage(before event: Event) {
        switch event {
        case .key: break
        case .mouse(let mouse) where Motion(wheel: mouse) != nil: break
        default: return
        }
        if message != nil { message = nil; setNeedsDisplay() }
    }

    func sayCannotMove(_ motion: Motion) {
        switch motion {
        case .lines(let n), .pages(let n): message = n < 0 ? "Beginning of the book." : "End of the book."
        case .first: message = "Beginning of the book."
        case .last: message = "End of the book."
        }
    }

    // MARK: chapters

    public func nextChapter() {
        guard let document, let top = topLineOffset else { return }
        let topEnd = pageLines().first?.line.range.upperBound ?? top
        guard let next = document.chapters.first(where: { $0.offset >= topEnd }) else { message = "This is the last chapter."; return }
        move(to: next.offset)
    }

    public func previousChapter() {
        guard let document, let top = topLineOffset else { return }
        guard let previous = document.chapters.last(where: { $0.offset < top }) else { message = "This is the first chapter."; return }
        move(to: previous.offset)
    }

    public func showContents() {
        guard let document else { return }
        guard !document.chapters.isEmpty else { message = "This book has no chapters."; return }
        let items = document.chapters.enumerated().map { ListItem(id: String($0.offset), title: $0.element.title,
                                                                  detail: "\(Int(Double($0.element.offset) * 100 / Double(max(1, document.text.count))))%") }
        let current = topLineOffset.flatMap { document.chapterIndex(containing: $0) }.map(String.init)
        present(ReaderListModal(title: "Contents", items: items, selectedID: current) { [weak self] id in
            guard let self, let id, let index = Int(id), document.chapters.indices.contains(index) else { return }
            self.move(to: document.chapters[index].offset)
        })
    }

    // MARK: search

    /// What the reader's kept question is, when it is the search or the Open prompt.
    static let searchQuestion = "Search"
    static let openQuestion = "Open"

    /// Asks what to search for: empty, for a new search (↑ brings back the earlier ones), or,
    /// after a relaunch, with what was typed.
    public func askForSearch(typed: TextFieldState? = nil) {
        guard document != nil else { return }
        let prompt = Prompt(title: "Search", message: "Find in the book (letters match either case):") { [weak self] text in
            guard let self, let text, !text.trimmingSpaces().isEmpty else { return }
            self.search(for: text)
        }
        prompt.history = searchHistory
        if let typed { prompt.field = typed }
        keptQuestion.asking(prompt, kind: Self.searchQuestion)
        present(prompt)
    }

    /// Starts a search at the top of the page.
    public func search(for query: String) {
        searchQuery = query
        searchHistory.removeAll { $0 == query }
        searchHistory.append(query)
        if searchHistory.count > Self.searchHistoryLimit { searchHistory.removeFirst() }
        currentMatch = nil
        let start = (topLineOffset ?? anchor) - 1
        find(query, from: start, backward: false)
    }

    public func findNext(backward: Bool) {
        guard let query = searchQuery else { message = "Search first with /."; return }
        find(query, from: currentMatch?.lowerBound ?? (topLineOffset ?? anchor), backward: backward)
    }

    private func find(_ query: String, from offset: Int, backward: Bool) {
        guard let document else { return }
        guard let hit = BookSearch.find(query, in: document.text, from: offset, backward: backward) else {
            currentMatch = nil
            message = "No match for “\(query)”."
            setNeedsDisplay()
            return
        }
        currentMatch = hit.range
        if hit.wrapped { message = backward ? "Search went round to the end." : "Search went round to the beginning." }
        let lines = pageLines()
        let shown = (lines.first?.line.start ?? 0)..<(lines.last?.line.range.upperBound ?? 0)
        if !shown.contains(hit.range.lowerBound) { move(to: hit.range.lowerBound) } else { setNeedsDisplay() }
    }

    // MARK: bookmarks

    public func addBookmark() {
        guard let document, let top = topLineOffset else { return }
        do {
            var marks = try storage.bookmarks(forBook: document.id)
            guard !marks.contains(where: { $0.offset == top }) else { message = "This page is already bookmarked."; return }
            marks.append(Bookmark(offset: top, title: pageSummary()))
            try storage.setBookmarks(marks, forBook: document.id)
            message = "Bookmark added."
        } catch {
            message = "Bookmarks could not be saved: \(error)"
        }
        setNeedsDisplay()
    }

    /// The first words of the page, for a bookmark's title.
    func pageSummary() -> String {
        guard let document else { return "" }
        let text = pageLines().prefix(3).map { LineRenderer.string(of: $0.line, in: document.text) }.joined(separator: " ")
        let words = text.split(separator: " ").prefix(8).joined(separator: " ")
        return DisplayWidth.truncate(words, to: 48)
    }

    func bookmarkItems() throws -> [ListItem] {
        guard let document else { return [] }
        return try storage.bookmarks(forBook: document.id).map { mark in
            let chapter = document.chapterIndex(containing: mark.offset).map { document.chapters[$0].title }
            return ListItem(id: String(mark.offset), title: mark.title, detail: chapter ?? "\(mark.offset * 100 / max(1, document.text.count))%")
        }
    }

    public func showBookmarks() {
        guard document != nil else { return }
        let items: [ListItem]
        do { items = try bookmarkItems() } catch {
            present(Alert(title: "Bookmarks", message: "The bookmarks of this book could not be read: \(error)"))
            return
        }
        let list = ReaderListModal(title: "Bookmarks", items: items) { [weak self] id in
            guard let self, let id, let offset = Int(id) else { return }
            self.move(to: offset)
        }
        list.emptyMessage = "No bookmarks yet: press a on a page to add one."
        list.rowActions = [(keys: [.character("d"), .delete], label: "d", help: "Delete the bookmark", action: { [weak self, unowned list] item in
            self?.confirmDeletion(of: item, in: list)
        })]
        present(list)
    }

    private func confirmDeletion(of item: ListItem, in list: ReaderListModal) {
        present(Confirm(title: "Delete bookmark", message: "Delete “\(item.title)”?") { [weak self, weak list] yes in
            guard yes, let self, let document = self.document, let offset = Int(item.id) else { return }
            do {
                let kept = try self.storage.bookmarks(forBook: document.id).filter { $0.offset != offset }
                try self.storage.setBookmarks(kept, forBook: document.id)
                list?.items = try self.bookmarkItems()
            } catch {
                self.message = "Bookmarks could not be saved: \(error)"
            }
        })
    }

    // MARK: files

    /// Asks for the path of a book: the open book's, or, after a relaunch, what was typed.
    public func askForFile(typed: TextFieldState? = nil) {
        let prompt = Prompt(title: "Open a book", message: "Path of a .txt, .md or .epub file (Tab completes):", text: document?.path ?? "") { [weak self] path in
            guard let self, let path else { return }
            self.openFile(path: path)
        }
        let paths = PathCompletion(home: environment.homeFolder)
        prompt.tabCompletion = { paths.complete($0) }
        if let typed { prompt.field = typed }
        keptQuestion.asking(prompt, kind: Self.openQuestion)
        present(prompt)
    }
}
