import Screens
import Terminal

/// `/` on the map: type a name, pick from the best matches, Enter centres the map there.
/// Ends with the chosen place, or nil on Esc.
public final class PlaceSearchScreen: ModalScreen<Place?> {
    public private(set) var field = TextFieldState()
    public private(set) var results: [PlaceSearch.Match] = []
    public private(set) var selectedRow = 0
    private var search: PlaceSearch
    private var dataStatus: MapDataStatus
    /// Asked again whenever background loading finishes: the finder may open before the place
    /// names have loaded, and must not keep an empty list once they have.
    private let source: () -> (search: PlaceSearch, status: MapDataStatus)
    private var visibleRows = 8
    /// What the last search found, so a letter typed onto it looks only among those places.
    private var lastFound: PlaceSearch.Found?

    public init(source: @escaping () -> (search: PlaceSearch, status: MapDataStatus), completion: ((Place?) -> Void)? = nil) {
        self.source = source
        (search, dataStatus) = source()
        super.init(title: "Find a place", message: "", completion: completion)
    }

    public convenience init(search: PlaceSearch, dataStatus: MapDataStatus, completion: ((Place?) -> Void)? = nil) {
        self.init(source: { (search, dataStatus) }, completion: completion)
    }

    public override func handleWake() -> Bool {
        let (newSearch, newStatus) = source()
        guard newSearch.count != search.count || newStatus != dataStatus else { return false }
        search = newSearch
        dataStatus = newStatus
        lastFound = nil
        if !field.isEmpty { results = search.matches(for: field.characters, narrowing: &lastFound) }
        selectedRow = min(selectedRow, max(0, results.count - 1))
        return true
    }

    public override var acceptsTextInput: Bool { true }

    /// Puts back a name typed before a relaunch, and finds its matches.
    public func resume(_ typed: TextFieldState) {
        field = typed
        findMatches()
    }

    public var selectedPlace: Place? { results.indices.contains(selectedRow) ? results[selectedRow].place : nil }

    public override var keyBindings: [KeyBinding] {
        [
            KeyBinding(.enter, help: "Centre the map on the selected place") { [unowned self] in
                if let place = self.selectedPlace { self.finish(place) }
            },
            KeyBinding(.escape, help: "Cancel") { [unowned self] in self.finish(nil) },
        ] + MotionKeys(lineHelp: "Choose a match", letters: false, ends: false).bindings { [unowned self] in self.move($0) }
            + TextFieldState.keyBindings { [unowned self] key in
                if self.field.apply(key) { self.findMatches() }
            }
    }

    /// Letters, Home/End and ^A/^E belong to the name being typed; the arrows, PgUp/PgDn and
    /// the wheel choose among the matches.
    private func move(_ motion: Motion) {
        guard !results.isEmpty else { return }
        selectedRow = min(results.count - 1, max(0, selectedRow + motion.delta(pageSize: visibleRows, count: results.count)))
    }

    public override func handle(_ event: Event) throws -> Bool {
        if case .key(let key) = event, key != .enter, key != .escape, key != .up, key != .down, field.apply(key) {
            if !Self.cursorKeys.contains(key) { findMatches() }  // a move of the cursor changes no match
            return true
        }
        if case .mouse(let mouse) = event {
            if let motion = Motion(wheel: mouse, rowsShown: visibleRows) { move(motion) }
            return true
        }
        if case .paste(let text) = event {
            field.insert(pasted: text)
            findMatches()
            return true
        }
        // Like a prompt, it swallows other keys; only the app's (Ctrl-C, F1, F2) get through.
        return try super.handle(event) || event.isKeyAModalKeeps
    }

    /// Searches once per change of the name, among what the last search found when the name
    /// grew; the field's characters are read as they are, never joined into a string.
    private func findMatches() {
        results = search.matches(for: field.characters, narrowing: &lastFound)
        selectedRow = 0
    }

    /// The field's keys that only move its cursor.
    private static let cursorKeys: Set<Key> = Set([.left, .right, .home, .end, .control("a"), .control("e"), .control("b"), .control("f")]
                                                  + Key.wordLeftKeys + Key.wordRightKeys)

    /// What the list says when it has no rows.
    var emptyMessage: String {
        if search.count == 0 {
            switch dataStatus {
            case .loading(let text): return "No places loaded yet (\(text))."
            case .missing(let text), .damaged(let text): return "No places: \(text)"
            case .ready: return "No places in the map data."
            }
        }
        // The name as far as a box could show it: a pasted page is not copied out on each frame.
        let shown = field.characters.count > 64 ? String(field.characters.prefix(64)) + "…" : field.text
        return field.isEmpty ? "Type a name: accents and case do not matter." : "No place matches “\(shown)”."
    }

    public override func draw(in canvas: Canvas) {
        let width = min(canvas.width, 64)
        let height = min(canvas.height, 14)
        let box = canvas.subcanvas(canvas.bounds.centered(width: width, height: height))
        box.fill()
        box.drawBox(style: .bold)
        box.write(" " + DisplayWidth.truncate(title, to: max(0, width - 6)) + " ", x: 2, y: 0, style: .bold)
        let inner = max(0, width - 4)
        box.write("Name:", x: 2, y: 1)
        field.draw(in: box, x: 8, y: 1, width: max(0, inner - 6))
        visibleRows = max(0, height - 4)
        guard !results.isEmpty else {
            box.write(DisplayWidth.truncate(emptyMessage, to: inner), x: 2, y: 3)
            return
        }
        let top = max(0, min(selectedRow - visibleRows + 1, results.count - visibleRows))
        for row in 0..<min(visibleRows, results.count - top) {
            let place = results[top + row].place
            let selected = top + row == selectedRow
            let line = box.subcanvas(Rect(x: 2, y: 3 + row, width: inner, height: 1))
            let style = selected ? Style(reverse: true) : Style.plain
            line.fill(style: style)
            let name = (selected ? "▸ " : "  ") + place.name + (place.country.isEmpty ? "" : ", " + place.country)
            let population = place.population > 0 ? Self.grouped(place.population) : ""
            let used = line.write(DisplayWidth.truncate(name, to: max(1, inner - DisplayWidth.of(population) - 1)), x: 0, y: 0, style: style)
            if used + DisplayWidth.of(population) < inner {
                line.write(population, x: inner - DisplayWidth.of(population), y: 0, style: style)
            }
        }
    }

    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}

extension PlaceSearchScreen: AsksForText {}
