import ScreensTesting
import Terminal
import Testing

/// The contrast arithmetic and the palettes' readings of a style, checked against figures
/// worked by hand and against the field report that started them.
@Suite("Terminal palettes and contrast")
struct TerminalPaletteTests {
    private func near(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) < 0.01 }

    @Test func contrastFollowsWCAG() {
        #expect(near(RGB(0x000000).contrast(with: RGB(0xFFFFFF)), 21))
        #expect(near(RGB(0x777777).contrast(with: RGB(0xFFFFFF)), 4.48), "WCAG's own example of a grey just under 4.5")
        #expect(RGB(0xCD0000).contrast(with: RGB(0xFFFFFF)) == RGB(0xFFFFFF).contrast(with: RGB(0xCD0000)))
        #expect(near(RGB(0x767676).relativeLuminance, 0.1812))
    }

    @Test func everyPaletteHasSixteenColoursAndItsOwnDefaults() {
        #expect(TerminalPalette.common.count == 7)
        for palette in TerminalPalette.common {
            #expect(palette.colors.count == 16)
            #expect(palette.defaultForeground != palette.defaultBackground, "\(palette.name)")
        }
    }

    @Test("the field report: bold black on white is grey on light grey in xterm")
    func boldBlackInXterm() {
        let shown = TerminalPalette.xterm.shownColors(of: Style(foreground: .black, background: .white, bold: true))
        let bright = shown.first { $0.reading == "bold as bright" }
        #expect(bright?.foreground == RGB(0x7F7F7F) && bright?.background == RGB(0xE5E5E5))
        #expect(near(bright?.contrast ?? 0, 3.18))
        #expect(shown.contains { $0.reading == "as set" && $0.foreground == RGB(0x000000) })
    }

    @Test("the field report: white on blue in alacritty's palette")
    func whiteOnBlueInAlacritty() {
        let shown = TerminalPalette.alacritty.shownColors(of: Style(foreground: .white, background: .blue))
        #expect(shown.count == 1)
        #expect(near(shown[0].contrast, 1.59))
    }

    @Test("the Linux console: bold on reverse video lights the swapped-in black")
    func boldReverseOnTheConsole() {
        let shown = TerminalPalette.linuxConsole.shownColors(of: Style(bold: true, reverse: true))
        #expect(shown.contains { $0.foreground == RGB(0x000000) && $0.background == RGB(0xAAAAAA) })
        #expect(shown.contains { $0.foreground == RGB(0x555555) && $0.background == RGB(0xAAAAAA) && $0.reading == "reverse, then bold as bright" })
    }

    @Test("the Linux console draws faint text in colour 8 and underlined text in cyan")
    func consoleAttributeColours() {
        #expect(TerminalPalette.linuxConsole.shownColors(of: .dim).map(\.foreground) == [RGB(0x555555)])
        #expect(TerminalPalette.linuxConsole.shownColors(of: .underline).map(\.foreground) == [RGB(0x00AAAA)])
        // Elsewhere faint text fades half way into the background.
        #expect(TerminalPalette.xterm.shownColors(of: .dim).map(\.foreground) == [RGB(0x808080)])
    }

    @Test("reverse video with bold on a colour: brightened before the swap or after it")
    func boldBeforeOrAfterReverse() {
        let shown = TerminalPalette.xterm.shownColors(of: Style(foreground: .red, background: .black, bold: true, reverse: true))
        #expect(Set(shown.map(\.background)) == [RGB(0xCD0000), RGB(0xFF0000)])
        #expect(shown.contains { $0.foreground == RGB(0x7F7F7F) }, "the black swapped to the front, brightened")
    }

    @Test("the terminal's own text colours are held to the palette's own ratio")
    func defaultTextIsTheUsersChoice() {
        var drawn = DrawnStyles()
        var frame = CellBuffer(size: Size(columns: 10, rows: 1))
        frame.write("Alice", at: Point(x: 0, y: 0))
        drawn.collect(frame)
        #expect(drawn.contrastProblems().isEmpty)
        let solarized = TerminalPalette.solarizedLight.shownColors(of: .plain)
        #expect(near(solarized[0].contrast, 4.13), "Solarized light's own text is under 4.5")
    }

    @Test("braille is a picture: held to 3:1, not 4.5:1")
    func brailleIsGraphics() {
        var drawn = DrawnStyles()
        var frame = CellBuffer(size: Size(columns: 10, rows: 1))
        frame.write("⣿⣿", at: Point(x: 0, y: 0), style: Style(foreground: .green, background: .blue))
        frame.write("ok", at: Point(x: 4, y: 0), style: Style(foreground: .white, background: .blue))
        drawn.collect(frame)
        #expect(drawn.graphics.count == 1 && drawn.text.count == 1)
        let problems = drawn.contrastProblems()
        #expect(problems.contains { $0.hasPrefix("Solarized dark: braille green text, on blue") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("alacritty: text white text, on blue") }, "\(problems)")
    }
}
