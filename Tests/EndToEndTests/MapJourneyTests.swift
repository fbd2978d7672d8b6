import Foundation
import Testing

/// The Map tab with the real binary in tmux: move the map, remember a place, quit, relaunch —
/// the first frame is the same map with the same pin and arrow.
@Suite("Map journeys in tmux", .whenEndToEndIsAskedFor)
struct MapJourneyTests {
    static let paris = "--location 48.8566,2.3522"

    @Test("pan, zoom, remember a place, q, relaunch: the same viewport, pin and panel on the first frame")
    func rememberAPlaceAndComeBack() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp(Self.paris)
        try tmux.type("1")
        _ = try tmux.waitForText("Zoom 4/14")
        _ = try tmux.waitForText("48.8566° N, 2.3522° E")  // following the location
        try tmux.press("Right")
        try tmux.type("+")
        _ = try tmux.waitForText("Zoom 5/14")
        _ = try tmux.waitForText("Follow (paused: . resumes)")
        try tmux.type("r")
        _ = try tmux.waitForText("Remember this place")
        try tmux.press("C-u")
        try tmux.type("Café de Flore")
        try tmux.press("Enter")
        // The location (and the pin on it) is now at the left edge of the map.
        // Once nothing is loading any more (the pin's title looked up the place names), so the
        // map compared below is the finished one.
        let before = try tmux.waitFor("the pin, with the map loaded") { lines in
            let text = lines.joined(separator: "\n")
            return text.contains("⚑ Café de Flore: here · 0 m") && !text.contains("loading")
        }
        tmux.check(before[10].hasPrefix("◉ Café de Flore"), "the pin's title beside the location: \(before[10])")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")

        // The pin went to the defaults as Pigeon's dictionary.
        let defaults = try String(contentsOf: tmux.home.appendingPathComponent(".config/wonderland/defaults.plist"), encoding: .utf8)
        tmux.check(defaults.contains("<key>HPLocation</key>") && defaults.contains("<key>lat</key>") && defaults.contains("<real>48.8566</real>")
                   && defaults.contains("<key>long</key>") && defaults.contains("<string>Café de Flore</string>"), "HPLocation is {lat, long, title}")

        // A flash of the default view (zoom 4 on the location) before the restored one fails.
        let frame = try tmux.launchForFirstFrame(Self.paris, forbidding: "Zoom 4/14")
        tmux.check(frame[20] == before[20], "the panel: \(frame[20])")
        tmux.check(frame[21] == before[21] && frame[21].contains("Zoom 5/14"), "the viewport: \(frame[21])")
        // The first frame waits for the scale it shows; the cells are compared once the status
        // line says nothing is loading, so a later scale or the place names are in both.
        let settled = try tmux.waitFor("the map data loaded") { lines in !lines.joined(separator: "\n").contains("loading") && lines.joined().contains("Zoom 5/14") }
        tmux.check(Array(settled[1..<20]) == Array(before[1..<20]), "the same map, cell for cell")

        // p puts the pin in the middle.
        try tmux.type("p")
        let atPin = try tmux.waitForText("Zoom 5/14  ├──────┤ 50 km  48.8566° N, 2.3522° E")
        tmux.check(atPin[10].contains("◉ Café de Flore") && !atPin[10].hasPrefix("◉"), "the pin's title beside it: \(atPin[10])")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }

    @Test("the mouse: a drag pans with the pointer, the wheel zooms where the pointer is")
    func mouseDragAndWheel() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp("--location 0,0")
        _ = try tmux.waitForText("Zoom 4/14  ├────────┤ 200 km  0.0° N, 0.0° E")
        // Press on the map, move 4 cells right and 2 down, release (X10 mouse bytes; 32 is
        // the left button, 64 a move with it held, 35 the release).
        // Each step waits for the app to show it took the last one, as a hand is slower than a
        // busy machine (curses merges mouse events it reads together).
        try mouse(tmux, 32, x: 40, y: 10)
        _ = try tmux.waitForText("Dragging · Standard")
        try mouse(tmux, 64, x: 44, y: 12)
        // 8 dots each way at zoom 4 (0.0879° a dot): the map moved with the pointer, so the
        // centre is now 0.7031° north and west.
        _ = try tmux.waitForText("Zoom 4/14  ├────────┤ 200 km  0.7031° N, 0.7031° W")
        try mouse(tmux, 35, x: 44, y: 12)
        _ = try tmux.waitForText("Standard · Follow (paused: . resumes)")
        // The wheel (96) over the map zooms in and keeps that spot under the pointer.
        try mouse(tmux, 96, x: 40, y: 10)
        _ = try tmux.waitForText("Zoom 5/14")
        try tmux.type(".")
        _ = try tmux.waitForText("Zoom 5/14  ├────────┤ 100 km  0.0° N, 0.0° E")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }

    private func mouse(_ tmux: TmuxSession, _ button: Int, x: Int, y: Int) throws {
        _ = try tmux.tmux(["send-keys", "-t", "0", "-H"] + [27, 91, 77, button, 33 + x, 33 + y].map { String(format: "%02x", $0) })
    }

    @Test("a bad --location says why in one line and ends with status 2, before the screen is taken")
    func badLocationArgument() throws {
        let tmux = try TmuxSession(columns: 100, rows: 24)
        try tmux.run("clear; \(tmux.binary) --location nowhere; echo \"exit=$?\"")
        let screen = try tmux.waitForText("exit=2")
        tmux.check(screen.contains { $0.hasPrefix("wonderland: --location “nowhere”: expected LAT,LON") })
        tmux.check(!screen.joined().contains("1 Map"), "the app's screen never showed")
    }
}

/// The map index with the real binary in tmux: the first launch at a scale writes it to the
/// cache folder, later launches draw the same map from it, and one damaged by anything else is
/// moved aside and the map drawn from the shapefiles as before.
@Suite("Map index journeys in tmux", .whenEndToEndIsAskedFor)
struct MapIndexJourneyTests {
    static let london = "--location 51.5,0.0"

    /// The map's rows once nothing is loading, at zoom 4 (1:50m) on London.
    func settledMap(_ tmux: TmuxSession) throws -> [String] {
        let lines = try tmux.waitFor("the 1:50m map, loaded") { lines in
            let text = lines.joined(separator: "\n")
            return text.contains("Zoom 4/14") && !text.contains("loading")
        }
        return Array(lines[1..<20])
    }

    /// Waits, up to `timeout`, for a file the app writes after its frame.
    func waitForFile(_ url: URL, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: url.path) {
            guard Date() < deadline else { throw E2EError("\(url.lastPathComponent) was never written") }
            usleep(20_000)
        }
    }

    @Test("written on the first launch, read on the next, a damaged one moved aside: the same map each time")
    func theIndexIsWrittenReadAndReplacedWhenDamaged() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let folder = tmux.home.appendingPathComponent(".cache/wonderland/map")
        let index = folder.appendingPathComponent("ne_50m.mapindex")
        try tmux.launchApp(Self.london)
        let fromShapefiles = try settledMap(tmux)
        tmux.check(fromShapefiles.contains { $0.contains { ("\u{2801}"..."\u{28FF}").contains($0) } }, "land on the map")
        try waitForFile(index)
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")

        try tmux.launchApp(Self.london)
        tmux.check(try settledMap(tmux) == fromShapefiles, "the same map from the index")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")

        // Damaged by something else: cut after its header.
        let bytes = try Data(contentsOf: index)
        try bytes.prefix(400).write(to: index)
        try tmux.launchApp(Self.london)
        tmux.check(try settledMap(tmux) == fromShapefiles, "the same map from the shapefiles")
        try waitForFile(index)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        tmux.check(names.contains { $0.hasPrefix("ne_50m.mapindex.corrupt-") }, "the damaged index kept aside: \(names)")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
        tmux.check(try Data(contentsOf: index).count == bytes.count, "a whole index written again")
    }
}
