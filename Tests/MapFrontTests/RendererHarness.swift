import Screens
import ScreensTesting
import Terminal
@testable import MapFront

/// Draws the map through a real Application on a headless terminal, as the Map tab will:
/// a screen whose draw calls the renderer with the whole of its canvas.
final class RendererHarnessScreen: Screen {
    let renderer: MapDrawing
    var viewport: MapViewport
    var type: MapType
    private(set) var status: MapDataStatus?

    init(renderer: MapDrawing, viewport: MapViewport, type: MapType) {
        self.renderer = renderer
        self.viewport = viewport
        self.type = type
        super.init(title: "Map")
    }

    override func draw(in canvas: Canvas) { status = renderer.draw(viewport, type: type, in: canvas) }
}

final class RendererHarness: Pilot {
    let screen: RendererHarnessScreen

    init(renderer: MapDrawing, viewport: MapViewport, type: MapType, columns: Int = 40, rows: Int = 12, colors: Bool = false) {
        screen = RendererHarnessScreen(renderer: renderer, viewport: viewport, type: type)
        super.init(screen, columns: columns, rows: rows, capabilities: .init(colors: colors, unicode: true),
                   minimumSize: Size(columns: 1, rows: 2))
    }

    func render(_ viewport: MapViewport? = nil, type: MapType? = nil) {
        if let viewport { screen.viewport = viewport }
        if let type { screen.type = type }
        app.render()
    }

    /// The map rows (the hint bar's row dropped).
    var mapLines: [String] { Array(terminal.lines.dropLast()) }
    var status: MapDataStatus? { screen.status }
}
