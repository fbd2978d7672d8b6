import Testing
@testable import Terminal

@Suite("CellBuffer")
struct CellBufferTests {
    private func buffer(_ columns: Int, _ rows: Int = 1) -> CellBuffer { CellBuffer(size: Size(columns: columns, rows: rows)) }

    @Test func plainTextFillsOneCellPerCharacter() {
        var b = buffer(8, 2)
        #expect(b.write("Alice", at: Point(x: 1, y: 1)) == 5)
        #expect(b.lines == ["", " Alice"])
        #expect(b.text(row: 1) == " Alice  ")
        #expect(b[1, 1].text == "A")
        #expect(b[5, 1].text == "e")
    }

    @Test func wideCharacterTakesTwoCellsWithAContinuation() {
        var b = buffer(6)
        #expect(b.write("a世b", at: Point(x: 0, y: 0)) == 4)
        #expect(b[1, 0] == Cell("世"))
        #expect(b[2, 0].isContinuation)
        #expect(b[2, 0].text == "")
        #expect(b[3, 0].text == "b")
        #expect(b.lines == ["a世b"])
        #expect(b.text(row: 0) == "a世b  ")
    }

    @Test func wideCharacterThatDoesNotFitAtTheEdgeBecomesASpace() {
        var b = buffer(4)
        b.write("xxxx", at: Point(x: 0, y: 0))
        b.write("abc世", at: Point(x: 0, y: 0))
        #expect(b.text(row: 0) == "abc ")
        #expect(!b.cells.contains { $0.isContinuation })

        var clipped = buffer(8)
        clipped.write("12世", at: Point(x: 1, y: 0), clip: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(clipped.text(row: 0) == " 12     ")
        #expect(!clipped.cells.contains { $0.isContinuation })
    }

    @Test func overwritingTheRightHalfOfAWideCharacterBlanksItsLeftHalf() {
        var b = buffer(6)
        b.write("世界", at: Point(x: 0, y: 0))
        b.write("x", at: Point(x: 1, y: 0))
        #expect(b.text(row: 0) == " x界  ")
        #expect(!b[1, 0].isContinuation)
    }

    @Test func overwritingTheLeftHalfOfAWideCharacterBlanksItsRightHalf() {
        var b = buffer(6)
        b.write("世界", at: Point(x: 0, y: 0))
        b.write("y", at: Point(x: 2, y: 0))
        #expect(b.text(row: 0) == "世y   ")
        #expect(!b[3, 0].isContinuation)
    }

    @Test func wideOverWideShiftedByOneLeavesNoHalfCharacters() {
        var b = buffer(6)
        b.write("世界", at: Point(x: 0, y: 0))
        b.write("中", at: Point(x: 1, y: 0))
        #expect(b.text(row: 0) == " 中   ")
        #expect(b.cells.map(\.isContinuation) == [false, false, true, false, false, false])
    }

    @Test func combiningMarksAttachToThePreviousCell() {
        var b = buffer(6)
        b.write("cafe\u{301}", at: Point(x: 0, y: 0))  // one grapheme "é": one cell
        #expect(b[3, 0].text == "e\u{301}")
        #expect(b[4, 0].text == " ")

        var split = buffer(6)
        split.write("a", at: Point(x: 0, y: 0))
        #expect(split.write("\u{301}b", at: Point(x: 1, y: 0)) == 1)  // a lone mark, then b
        #expect(split[0, 0].text == "a\u{301}")
        #expect(split[1, 0].text == "b")

        var wide = buffer(6)
        wide.write("世", at: Point(x: 0, y: 0))
        wide.write("\u{308}", at: Point(x: 2, y: 0))  // skips the continuation cell
        #expect(wide[0, 0].text == "世\u{308}")
        #expect(wide[1, 0].isContinuation)
    }

    @Test func controlCharactersBecomeControlPictures() {
        var b = buffer(12)
        #expect(b.write("a\u{7}b\u{1B}[2Jc\td", at: Point(x: 0, y: 0)) == 10)
        #expect(b.lines == ["a␇b␛[2Jc␉d"])
        var crlf = buffer(4)
        crlf.write("x\r\ny", at: Point(x: 0, y: 0))
        #expect(crlf.lines == ["x␤y"])
        #expect(!b.cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 } })
    }

    @Test func writesAreClippedToTheClipRect() {
        var b = buffer(8, 3)
        let clip = Rect(x: 2, y: 1, width: 3, height: 1)
        b.write("abcdef", at: Point(x: 2, y: 1), clip: clip)
        b.write("above", at: Point(x: 2, y: 0), clip: clip)
        b.write("zzz", at: Point(x: 0, y: 1), clip: clip)  // starts left of the clip
        #expect(b.lines == ["", "  zbc", ""])
        #expect(b.write("off", at: Point(x: 0, y: 5)) == 0)
        #expect(b.write("off", at: Point(x: 0, y: -1)) == 0)
        b.write("0123456789", at: Point(x: 5, y: 2))
        #expect(b.lines[2] == "     012")
    }

    @Test func wideCharacterStraddlingTheLeftClipEdgeIsNotDrawn() {
        var b = buffer(6)
        b.write("世ab", at: Point(x: 1, y: 0), clip: Rect(x: 2, y: 0, width: 4, height: 1))
        #expect(b.text(row: 0) == "   ab ")
        #expect(!b.cells.contains { $0.isContinuation })
    }

    @Test func stylesAreKeptPerCell() {
        var b = buffer(6)
        b.write("ab", at: Point(x: 0, y: 0), style: .bold)
        b.write("世", at: Point(x: 2, y: 0), style: Style(foreground: .red))
        #expect(b[0, 0].style == .bold)
        #expect(b[2, 0].style.foreground == .red)
        #expect(b[3, 0].style.foreground == .red)
        #expect(b[4, 0].style == .plain)
        b.restyle(Rect(x: 0, y: 0, width: 2, height: 1)) { $0.reverse = true }
        #expect(b[0, 0].style == Style(bold: true, reverse: true))
        #expect(b[0, 0].text == "a")
        #expect(b[2, 0].style.reverse == false)
    }

    @Test func fillCoversTheRectOnly() {
        var b = buffer(5, 3)
        b.fill(Rect(x: 1, y: 1, width: 3, height: 5), with: "#")
        #expect(b.lines == ["", " ###", " ###"])
        b.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: "世")
        #expect(b.text(row: 0) == "世世 ")
    }

    @Test func linesTrimTrailingSpacesOnly() {
        var b = buffer(10, 2)
        b.write("  a  b", at: Point(x: 0, y: 0))
        #expect(b.lines == ["  a  b", ""])
        #expect(b.text(row: 1) == String(repeating: " ", count: 10))
    }

    @Test func thePlainCellShortcutCutsAsReadingEveryClusterDoes() {
        // The shortcut for plain cells (ASCII, box drawing, braille) must cut clusters where
        // Swift does: next to combining and spacing marks, joiners, variation selectors, emoji
        // modifiers, controls, CR LF.
        let pieces = ["a", " ", "⣿", "⠁", "─", "█", "\u{301}", "\u{20DD}", "\u{200D}", "\u{FE0F}", "\r\n", "\t", "\u{7F}",
                      "\u{0903}", "\u{1F3FD}", "世", "👍🏽", "é", "\u{2028}", "\u{202E}", "x"]
        var seed: UInt64 = 7
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        for _ in 0..<500 {
            let text = (0..<Int(next() % 14)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            let start = Int(next() % 4) - 1
            let clip = Rect(x: 1, y: 0, width: 9, height: 1)
            var fast = buffer(12), slow = buffer(12)
            let fastWidth = fast.write(text, at: Point(x: start, y: 0), style: .plain, clip: clip, takingPlainCellsAsBytes: true)
            let slowWidth = slow.write(text, at: Point(x: start, y: 0), style: .plain, clip: clip, takingPlainCellsAsBytes: false)
            #expect(fast == slow, "\(text.debugDescription) at \(start)")
            #expect(fastWidth == slowWidth, "\(text.debugDescription) at \(start)")
        }
    }
}

@Suite("Geometry")
struct GeometryTests {
    @Test func splitsAndInsets() {
        let r = Rect(x: 2, y: 3, width: 10, height: 6)
        #expect(r.splitTop(1).top == Rect(x: 2, y: 3, width: 10, height: 1))
        #expect(r.splitTop(1).rest == Rect(x: 2, y: 4, width: 10, height: 5))
        #expect(r.splitBottom(2).bottom == Rect(x: 2, y: 7, width: 10, height: 2))
        #expect(r.splitBottom(9).rest.isEmpty)
        #expect(r.insetBy(dx: 1, dy: 1) == Rect(x: 3, y: 4, width: 8, height: 4))
        #expect(r.insetBy(dx: 6, dy: 0).width == 0)
        #expect(r.centered(width: 4, height: 2) == Rect(x: 5, y: 5, width: 4, height: 2))
        #expect(r.centered(width: 40, height: 2) == Rect(x: 2, y: 5, width: 10, height: 2))
        #expect(r.intersection(Rect(x: 0, y: 0, width: 4, height: 4)) == Rect(x: 2, y: 3, width: 2, height: 1))
        #expect(r.intersection(Rect(x: 50, y: 0, width: 4, height: 4)).isEmpty)
        #expect(r.contains(Point(x: 2, y: 3)) && !r.contains(Point(x: 12, y: 3)) && !r.contains(Point(x: 2, y: 9)))
        #expect(Size(columns: 80, rows: 24).description == "80×24")
    }
}
