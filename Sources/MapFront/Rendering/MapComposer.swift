import Screens
import Terminal

/// Draws one frame of the map from a loaded level: rasterises the layers the map type needs
/// into braille, turns the dots into styled cells, then puts the city labels on top.
enum MapComposer {
    struct Layers {
        var land: BrailleRaster?
        var coast: BrailleRaster?
        var borders: BrailleRaster?
    }

    static func rasterise(_ level: MapLevel, window: DotWindow, columns: Int, rows: Int, type: MapType) -> Layers {
        var layers = Layers()
        switch type {
        case .standard:
            var coast = BrailleRaster(columns: columns, rows: rows)
            LineDrawing.draw(level.coastlines, window: window, into: &coast)
            layers.coast = coast
        case .satellite, .hybrid:
            var land = BrailleRaster(columns: columns, rows: rows)
            LandMask.fill(level.land, window: window, into: &land)
            layers.land = land
        }
        if type != .satellite {
            var borders = BrailleRaster(columns: columns, rows: rows)
            LineDrawing.draw(level.boundaries, window: window, into: &borders)
            layers.borders = borders
        }
        return layers
    }

    @discardableResult
    static func draw(_ level: MapLevel, places: [Place], viewport: MapViewport, type: MapType, in canvas: Canvas,
                     keepingClear: [Rect] = []) -> [PlacedLabel] {
        let columns = canvas.width, rows = canvas.height
        guard columns > 0, rows > 0 else { return [] }
        let window = DotWindow(projection: MapProjection(viewport: viewport, dotWidth: columns * 2, dotHeight: rows * 4))
        let layers = rasterise(level, window: window, columns: columns, rows: rows, type: type)
        let palette = MapPalette(colors: canvas.capabilities.colors)
        writeCells(layers, palette: palette, columns: columns, rows: rows, in: canvas)
        guard type == .hybrid else { return [] }
        let labels = placeLabels(places, window: window, zoom: viewport.zoom, columns: columns, rows: rows, keepingClear: keepingClear)
        for label in labels {
            canvas.write(MapPalette.markerGlyph, x: label.markerColumn, y: label.row, style: palette.marker)
            canvas.write(label.place.name, x: label.textColumn, y: label.row, style: palette.label)
        }
        return labels
    }

    /// One `write` per run of cells in the same style, not one per cell.
    private static func writeCells(_ layers: Layers, palette: MapPalette, columns: Int, rows: Int, in canvas: Canvas) {
        // A run of cells in one style is gathered as UTF-8 bytes: appending scalars to a
        // String goes through generic code that costs more than the map itself on a first frame.
        var run: [UInt8] = []
        run.reserveCapacity(columns * 3)
        for row in 0..<rows {
            var runStyle: Style?
            var runStart = 0
            for column in 0..<columns {
                let (scalar, style) = cell(layers, palette: palette, index: row * columns + column)
                if style != runStyle {
                    if let runStyle, !run.isEmpty { canvas.write(String(decoding: run, as: UTF8.self), x: runStart, y: row, style: runStyle) }
                    run.removeAll(keepingCapacity: true)
                    runStyle = style
                    runStart = column
                }
                UTF8.encode(scalar) { run.append($0) }
            }
            if let runStyle, !run.isEmpty { canvas.write(String(decoding: run, as: UTF8.self), x: runStart, y: row, style: runStyle) }
            run.removeAll(keepingCapacity: true)
        }
    }

    @inline(__always)
    private static func cell(_ layers: Layers, palette: MapPalette, index: Int) -> (Unicode.Scalar, Style) {
        let borders = layers.borders?.cells[index] ?? 0
        if let land = layers.land?.cells[index] {
            if palette.colors {
                if borders != 0 { return (BrailleRaster.scalar(borders), palette.borderOver(land: land.nonzeroBitCount >= 4)) }
                switch land {
                case 0: return (" ", palette.sea)
                case 0xFF: return (" ", palette.land)
                default: return (BrailleRaster.scalar(land), palette.shore)
                }
            }
            // Without colour the dots are the land; a border shows as a line cut through them.
            let bits = land ^ borders
            return (bits == 0 ? " " : BrailleRaster.scalar(bits), .plain)
        }
        let coast = layers.coast?.cells[index] ?? 0
        let bits = coast | borders
        if bits == 0 { return (" ", palette.sea) }
        return (BrailleRaster.scalar(bits), coast != 0 ? palette.coast : palette.border)
    }

    static func placeLabels(_ places: [Place], window: DotWindow, zoom: Int, columns: Int, rows: Int,
                            keepingClear: [Rect] = []) -> [PlacedLabel] {
        var placer = LabelPlacer(columns: columns, rows: rows)
        for rect in keepingClear { placer.reserve(rect) }
        var labels: [PlacedLabel] = []
        let maximumRank = LabelPlacer.maximumRank(atZoom: zoom)
        for place in places {
            guard place.rank <= maximumRank else { break }  // sorted by rank
            let longitude = place.coordinate.longitude, latitude = place.coordinate.latitude
            let y = window.y(latitude: latitude)
            guard y >= 0, y < Double(rows * 4), let copies = window.copyOffsets(west: longitude, east: longitude) else { continue }
            for copy in copies {
                let x = window.x(longitude: longitude, offset: Double(copy) * 360)
                guard x >= 0, x < Double(columns * 2) else { continue }
                if let label = placer.place(place, column: Int(x) / 2, row: Int(y) / 4) { labels.append(label) }
            }
        }
        return labels
    }
}
