import Foundation
import Screens
import Terminal

/// A `MapDrawing` with no geodata: lines of latitude and longitude on the braille raster and
/// the edges of the world at the poles, so panning and zooming can be seen and tested. It is
/// what the Map tab draws when no renderer of Natural Earth data is wired in, and it says so.
public final class GraticuleDrawer: MapDrawing {
    public var status: MapDataStatus

    public init(status: MapDataStatus = .missing("No map data in this build yet: a graticule only.")) {
        self.status = status
    }

    public func draw(_ viewport: MapViewport, type: MapType, in canvas: Canvas) -> MapDataStatus {
        let columns = canvas.width, rows = canvas.height
        guard columns > 0, rows > 0 else { return status }
        var raster = [UInt8](repeating: 0, count: columns * rows)
        let width = columns * 2, height = rows * 4
        let projection = MapProjection(viewport: viewport, dotWidth: width, dotHeight: height)
        let degrees = projection.degreesPerDot
        let bounds = projection.bounds
        let spacing = Self.spacing(degreesPerDot: degrees)

        func set(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            raster[(y / 4) * columns + x / 2] |= Self.bit(x % 2, y % 4)
        }
        /// The dot row of a latitude, if it is on screen.
        func row(_ latitude: Double) -> Int? {
            let y = Int(((bounds.north - latitude) / degrees).rounded(.down))
            return (0..<height).contains(y) ? y : nil
        }
        let northRow = max(0, Int(((bounds.north - 90) / degrees).rounded(.up)))
        let southRow = min(height - 1, Int(((bounds.north + 90) / degrees).rounded(.down)))

        // Meridians, dotted, between the poles.
        var k = (bounds.west / spacing).rounded(.up)
        while k * spacing <= bounds.east {
            let x = Int(((k * spacing - bounds.west) / degrees).rounded(.down))
            if northRow <= southRow { for y in stride(from: northRow, through: southRow, by: 2) { set(x, y) } }
            k += 1
        }
        // Parallels, dotted; the poles solid, as the edges of the world.
        k = (max(-90, bounds.south) / spacing).rounded(.up)
        while k * spacing <= min(90, bounds.north) {
            let latitude = k * spacing
            if let y = row(latitude) {
                let solid = abs(latitude) == 90
                for x in stride(from: 0, to: width, by: solid ? 1 : 2) { set(x, y) }
            }
            k += 1
        }
        for y in 0..<rows {
            var line = ""
            line.reserveCapacity(columns * 3)
            for x in 0..<columns {
                line.unicodeScalars.append(Unicode.Scalar(0x2800 + UInt32(raster[y * columns + x]))!)
            }
            canvas.write(line, x: 0, y: y, style: .dim)
        }
        return status
    }

    public func places() -> [Place] { [] }
    public func takeLoadedData() -> Bool { false }

    /// Lines at least about 20 dots apart, on round degrees.
    static func spacing(degreesPerDot: Double) -> Double {
        let steps: [Double] = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001]
        return steps.last { $0 / degreesPerDot >= 20 } ?? 30
    }

    /// The bit of a braille dot: columns 0–1, rows 0–3 (U+2800 block order).
    static func bit(_ x: Int, _ y: Int) -> UInt8 {
        let left: [UInt8] = [0x01, 0x02, 0x04, 0x40], right: [UInt8] = [0x08, 0x10, 0x20, 0x80]
        return x == 0 ? left[y] : right[y]
    }
}
