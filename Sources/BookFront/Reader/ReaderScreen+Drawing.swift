import FoundationEssentials
import Screens
import Terminal

extension ReaderScreen {
    func drawReader(in canvas: Canvas) {
        openInitialBookIfNeeded()
        adopt(canvasWidth: canvas.width, canvasHeight: canvas.height)
        guard let document else {
            drawWithoutBook(in: canvas)
            return
        }
        let chapter = topLineOffset.flatMap { document.chapterIndex(containing: $0) }.map { document.chapters[$0].title }
        let heading = " " + document.title + (chapter.map { " — " + $0 } ?? "")
        canvas.write(DisplayWidth.truncate(heading, to: canvas.width - 1), x: 0, y: 0, style: .bold)

        let left = max(1, (canvas.width - textWidth) / 2)
        let base = environment.pageStyle
        if base != .plain { canvas.fill(Rect(x: 0, y: 1, width: canvas.width, height: max(0, canvas.height - 2)), style: base) }
        let justifies = environment.justifiesText
        let lines = pageLines()
        let pageRange = (lines.first?.line.start ?? 0)..<(lines.last?.line.range.upperBound ?? 0)
        let matches = searchQuery.map { BookSearch.matches(of: $0, in: document.text, within: pageRange) } ?? []
        let emphasis = document.emphasis.filter { $0.range.overlaps(pageRange) }
        let chapterStarts = Set(document.chapters.map(\.offset).filter { pageRange.contains($0) })
        for (row, entry) in lines.enumerated() {
            let isHeading = chapterStarts.contains { entry.line.range.contains($0) || $0 == entry.line.start }
            drawLine(entry.line, text: document.text, in: canvas, x: left, y: row + 1, heading: isHeading,
                     matches: matches, emphasis: emphasis, base: base, justifyTo: justifies && !isHeading ? textWidth : nil)
        }
        drawProgress(in: canvas)
        requestWorkAfterFrame()
    }

    private func drawLine(_ line: LaidOutLine, text: BookText, in canvas: Canvas, x: Int, y: Int, heading: Bool,
                          matches: [Range<Int>], emphasis: [TextEmphasis], base: Style, justifyTo width: Int?) {
        var column = x
        var run = "", runStyle = base
        var pieces = LineRenderer.pieces(of: line, in: text)
        if let width, !line.endsParagraph { pieces = LineRenderer.justified(pieces, to: width) }
        func flush() {
            guard !run.isEmpty else { return }
            column += canvas.write(run, x: column, y: y, style: runStyle)
            run = ""
        }
        // Bold black is grey where bold means bright (xterm, 3.2:1 on its white): on a page of
        // black text, headings and strong words are underlined instead.
        let boldReads = base.foreground != .black
        for piece in pieces {
            var style = base
            var strong = heading
            for mark in emphasis where mark.range.contains(piece.offset) {
                switch mark.kind {
                case .emphasis: style.underline = true
                case .strong, .heading: strong = true
                }
            }
            if boldReads { style.bold = strong } else if strong { style.underline = true }
            if matches.contains(where: { $0.contains(piece.offset) }) {
                // No bold on reverse video: the Linux console brightens the black it swapped in.
                style.reverse = true
                style.bold = false
                if let current = currentMatch, current.contains(piece.offset) { style.underline = true }
            }
            if style != runStyle { flush(); runStyle = style }
            run += piece.text
        }
        flush()
    }

    private func drawProgress(in canvas: Canvas) {
        var right = "\(percent)%"
        if environment.showsPageNumbers {
            if let page = pageNumber { right += "  page \(page.current) of \(page.total)" } else { right += "  counting pages…" }
        }
        let y = canvas.height - 1
        let rightWidth = DisplayWidth.of(right)
        canvas.write(right, x: max(0, canvas.width - rightWidth - 1), y: y)
        if let message {
            canvas.write(DisplayWidth.truncate(" " + message, to: max(0, canvas.width - rightWidth - 3)), x: 0, y: y)
        }
    }

    private func drawWithoutBook(in canvas: Canvas) {
        let path = BookLibrary.defaultBookPath(dataFolderPath: environment.dataFolderPath)
        let text = """
            Alice's Adventures in Wonderland is not on this machine yet: the app does not ship the \
            book's text. Open a copy with wonderland --book PATH, or put Project Gutenberg's plain \
            text of it at \(path).

            Or press o to open any .txt, .md or .epub file.
            """
        let width = max(10, min(canvas.width - 4, 72))
        canvas.write(" Book", x: 0, y: 0, style: .bold)
        var lines = DisplayWidth.wrap(text, to: width)
        let room = max(0, canvas.height - 2)
        if lines.count > room, room > 0 {  // a short terminal: say that more was cut
            lines = Array(lines.prefix(room))
            lines[room - 1] = DisplayWidth.truncate(lines[room - 1] + " …", to: width)
        }
        for (row, line) in lines.enumerated() { canvas.write(line, x: 2, y: row + 1) }
        if let message { canvas.write(DisplayWidth.truncate(" " + message, to: canvas.width - 1), x: 0, y: canvas.height - 1) }
    }
}
