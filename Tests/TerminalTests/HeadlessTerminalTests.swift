import Testing
@testable import Terminal

@Suite("HeadlessTerminal")
struct HeadlessTerminalTests {
    @Test func queuesEventsInOrderAndNeverWaits() {
        let terminal = HeadlessTerminal(size: Size(columns: 10, rows: 3))
        #expect(terminal.nextEvent(timeout: nil) == nil)
        terminal.enqueue(.key(.up))
        terminal.resize(to: Size(columns: 20, rows: 5))
        #expect(terminal.size == Size(columns: 20, rows: 5))
        #expect(terminal.hasPendingEvents)
        #expect(terminal.nextEvent(timeout: 0) == .key(.up))
        #expect(terminal.nextEvent(timeout: 0) == .resize(Size(columns: 20, rows: 5)))
        #expect(!terminal.hasPendingEvents)
    }

    @Test func presentKeepsTheFrameAndCounts() {
        let terminal = HeadlessTerminal(size: Size(columns: 6, rows: 2))
        var frame = CellBuffer(size: terminal.size)
        frame.write("┌世┐", at: Point(x: 0, y: 0), style: Style(foreground: .green))
        terminal.present(frame, full: true)
        terminal.present(frame, full: false)
        #expect(terminal.framesPresented == 2)
        #expect(terminal.fullRepaints == 1)
        #expect(terminal.lines == ["┌世┐", ""])
        #expect(terminal.text == "┌世┐\n")
        #expect(terminal.frame[0, 0].style.foreground == .green)
    }

    @Test func asciiAndMonochromeTerminalTranslatesAtPresent() {
        let terminal = HeadlessTerminal(size: Size(columns: 6, rows: 1), capabilities: .init(colors: false, unicode: false))
        var frame = CellBuffer(size: terminal.size)
        frame.write("┌世┐", at: Point(x: 0, y: 0), style: Style(foreground: .green, bold: true))
        terminal.present(frame, full: false)
        #expect(terminal.lines == ["+??+"])
        #expect(terminal.frame.cells.allSatisfy { $0.style.foreground == nil })
        #expect(terminal.frame[0, 0].style.bold)
    }

    @Test func suspendAndRestoreAreRecorded() {
        let terminal = HeadlessTerminal()
        terminal.suspend()
        #expect(terminal.suspendCount == 1)
        #expect(!terminal.isRestored)
        terminal.restore()
        terminal.restore()
        #expect(terminal.isRestored)
    }
}
