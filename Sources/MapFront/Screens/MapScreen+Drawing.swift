import Screens
import Terminal

/// The map area with its marks, then three lines under it: the pin panel (Pigeon's arrow),
/// where the map is (zoom, scale, centre), and what it is doing (type, tracking, location,
/// data).
extension MapScreen {
    static let infoRows = 3

    func drawScreen(in canvas: Canvas) {
        let infoRows = min(Self.infoRows, max(0, canvas.height - 1))
        let (mapRect, infoRect) = canvas.bounds.splitBottom(infoRows)
        let map = canvas.subcanvas(mapRect)
        mapArea = map.frame
        let glyphs = MapGlyphs(unicode: canvas.capabilities.unicode)
        let marks = marks(in: map, glyphs: glyphs)
        dataStatus = drawer.draw(state.viewport, type: preferences.mapType, in: map, keepingClear: spans(of: marks, mapWidth: map.width))
        drawMarks(marks, in: map, glyphs: glyphs)
        drawDataBanner(in: map)

        let info = canvas.subcanvas(infoRect)
        var lines = [panelLine(glyphs: glyphs), positionLine(glyphs: glyphs), notice ?? modesLine]
        if !glyphs.unicode { lines = lines.map(Self.asciiText) }
        for (row, line) in lines.prefix(info.height).enumerated() {
            info.write(" " + line, x: 0, y: row, width: info.width, style: row == 0 ? .bold : (row == 2 && notice != nil ? .bold : .plain))
        }
    }

    /// Without UTF-8 the terminal would show "?" for a degree sign and "*" for a middle dot:
    /// "48.8566 N" and "|" read better.
    static func asciiText(_ text: String) -> String {
        text.replacing("°", with: "").replacing(" · ", with: " | ")
    }

    // MARK: marks on the map

    /// A glyph the screen puts over the map, with its title when it has one.
    private struct Mark {
        var cell: Point
        var glyph: String
        var label: String?
        var style: Style
    }

    /// The screen's marks for this frame, in drawing order: the found place and the pin with
    /// their titles, then the current location on top. Worked out once a frame: the drawer
    /// keeps city labels out of their cells, then they are drawn.
    private func marks(in map: Canvas, glyphs: MapGlyphs) -> [Mark] {
        let markers = MapMarkers(viewport: state.viewport, columns: map.width, rows: map.height)
        var marks: [Mark] = []
        if let place = state.selectedPlace {
            marks += markers.cells(for: place.coordinate).map { Mark(cell: $0, glyph: glyphs.place, label: place.name, style: MapPalette.foundPlace) }
        }
        if let pin {
            marks += markers.cells(for: pin.coordinate).map { Mark(cell: $0, glyph: glyphs.pin, label: pin.displayTitle, style: MapPalette.ownMark) }
        }
        if let fix = location.currentFix, fix.coordinate.isValid {
            let showsCourse = preferences.tracking == .followWithHeading && fix.course != nil
            let glyph = showsCourse ? glyphs.arrow(fix.course ?? 0) : glyphs.location
            marks += markers.cells(for: fix.coordinate).map { Mark(cell: $0, glyph: glyph, label: nil, style: MapPalette.ownMark) }
        }
        return marks
    }

    /// The cells each mark takes, its title included.
    private func spans(of marks: [Mark], mapWidth: Int) -> [Rect] {
        marks.map { mark in
            mark.label.map { labelledSpan(label: $0, at: mark.cell, mapWidth: mapWidth) } ?? Rect(x: mark.cell.x, y: mark.cell.y, width: 1, height: 1)
        }
    }

    private func drawMarks(_ marks: [Mark], in map: Canvas, glyphs: MapGlyphs) {
        for mark in marks where mark.label != nil {
            drawLabelled(mark.glyph, label: mark.label ?? "", at: mark.cell, in: map, style: mark.style)
        }
        // A pin off screen: an arrow on the edge, the way to pan to see it (nil when on screen).
        if let pin, let pointer = MapMarkers(viewport: state.viewport, columns: map.width, rows: map.height).edgePointer(for: pin.coordinate) {
            let x = min(pointer.cell.x, max(0, map.width - 2))
            map.write(glyphs.arrow(pointer.direction) + glyphs.pin, x: x, y: pointer.cell.y, style: MapPalette.ownMark)
        }
        for mark in marks where mark.label == nil {
            map.write(mark.glyph, x: mark.cell.x, y: mark.cell.y, style: mark.style)
        }
    }

    /// A glyph and, beside it, its label: to the right, or to the left near the right edge.
    private func drawLabelled(_ glyph: String, label: String, at cell: Point, in map: Canvas, style: Style) {
        map.write(glyph, x: cell.x, y: cell.y, style: style)
        let span = labelledSpan(label: label, at: cell, mapWidth: map.width)
        let text = Self.shownLabel(label, mapWidth: map.width)
        guard span.width > 1 else { return }
        // The gap is a real space, so the label reads as words and not as part of the raster.
        if span.x == cell.x {
            map.write(" " + text, x: cell.x + 1, y: cell.y, style: style)
        } else {
            map.write(text + " ", x: span.x, y: cell.y, style: style)
        }
    }

    private static func shownLabel(_ label: String, mapWidth: Int) -> String {
        DisplayWidth.truncate(label, to: max(0, min(24, mapWidth - 2)))
    }

    /// The cells a glyph and its label take: the glyph's cell, and the label to its right (or
    /// left, near the right edge) with a space between; the glyph alone when neither fits.
    private func labelledSpan(label: String, at cell: Point, mapWidth: Int) -> Rect {
        let width = DisplayWidth.of(Self.shownLabel(label, mapWidth: mapWidth))
        guard width > 0 else { return Rect(x: cell.x, y: cell.y, width: 1, height: 1) }
        if cell.x + 2 + width <= mapWidth { return Rect(x: cell.x, y: cell.y, width: 2 + width, height: 1) }
        if cell.x - 1 - width >= 0 { return Rect(x: cell.x - 1 - width, y: cell.y, width: 2 + width, height: 1) }
        return Rect(x: cell.x, y: cell.y, width: 1, height: 1)
    }

    /// Missing or damaged data is said in the map itself, where the eye goes; the rest of the
    /// screen keeps working.
    private func drawDataBanner(in map: Canvas) {
        let message: String
        switch dataStatus {
        case .missing(let text), .damaged(let text): message = text
        case .ready, .loading: return
        }
        let lines = DisplayWidth.wrap(message, to: max(1, map.width - 4)).prefix(max(1, map.height / 2))
        for (row, line) in lines.enumerated() {
            map.write("  " + line, x: 0, y: row, width: map.width, style: .reverse)
        }
    }

    // MARK: the lines under the map

    /// Pigeon's arrow: bearing and distance from here to the pin.
    public func panelLine(glyphs: MapGlyphs = MapGlyphs(unicode: true)) -> String {
        guard let pin else { return "No pin yet: r remembers this place" }
        let name = glyphs.pin + " " + pin.displayTitle
        guard let guide = pinGuide else {
            return name + " at \(pin.coordinate) · no current location to measure from"
        }
        let direction = glyphs.unicode ? guide.text(units: preferences.units)
            : guide.text(units: preferences.units).replacing(String(guide.arrow), with: glyphs.arrow(guide.bearing))
        let offScreen = MapMarkers(viewport: state.viewport, columns: mapArea.width, rows: mapArea.height).cells(for: pin.coordinate).isEmpty
        return name + ": " + direction + (offScreen ? " · off screen, p goes there" : "")
    }

    /// "Zoom 4/14  ├────┤ 500 km  48.8566° N, 2.3522° E"
    public func positionLine(glyphs: MapGlyphs = MapGlyphs(unicode: true)) -> String {
        let zoom = "Zoom \(state.viewport.zoom)/\(MapViewport.zoomLevels.upperBound)"
        let scale = ScaleBar(viewport: state.viewport, units: preferences.units, maximumCells: max(1, min(12, mapArea.width / 6)))
            .map { $0.bar + " " + $0.label } ?? "no scale at the pole"
        return zoom + "  " + scale + "  " + state.viewport.center.description
    }

    /// "Standard · Follow (paused: . resumes) · location: --location · loading 10m"
    public var modesLine: String {
        var parts = [preferences.mapType.name, trackingText, location.statusText]
        // First, so it shows at any width: the map is held until the button comes up.
        if drag != nil { parts.insert("Dragging", at: 0) }
        switch dataStatus {
        case .ready: break
        case .loading(let text): parts.append(text)
        case .missing: parts.append("no map data")
        case .damaged: parts.append("map data damaged")
        }
        return parts.joined(separator: " · ")
    }

    public var trackingText: String {
        let mode = preferences.tracking
        guard mode != .none else { return "Tracking off" }
        guard let fix = location.currentFix else { return mode.name + " (no location yet)" }
        if state.trackingPaused { return mode.name + " (paused: . resumes)" }
        guard mode == .followWithHeading else { return mode.name }
        return mode.name + ", course " + (fix.course.map { "\(Int($0.rounded()) % 360)°" } ?? "unknown")
    }
}
