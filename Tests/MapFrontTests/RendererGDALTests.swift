import Foundation
import Testing
@testable import MapFront

/// Our land fill against GDAL's rasteriser on the same shapefile and box, dot by dot (the
/// benchmark does this over many viewports and times both; this keeps the check in the tests).
/// Needs gdal_rasterize: `scripts/setup gdal` installs gdal-bin.
@Suite(.requires(.gdalRasterize, .naturalEarth)) struct RendererGDALTests {
    @Test(arguments: [(GeoPoint(latitude: 48.85, longitude: 2.35), 2), (GeoPoint(latitude: -2, longitude: 118), 4), (GeoPoint(latitude: 78, longitude: 16), 4)])
    func landMaskAgreesWithGDAL(centre: GeoPoint, zoom: Int) throws {
        let gdal = "/usr/bin/gdal_rasterize"
        try #require(FileManager.default.isExecutableFile(atPath: gdal), "gdal_rasterize is missing: run scripts/setup gdal (Debian gdal-bin)")
        let renderer = ShapefileMapRenderer(notify: {})
        let resolution = MapResolution.forZoom(zoom)
        renderer.preload(resolution)
        renderer.finishLoading()
        let viewport = MapViewport(center: centre, zoom: zoom)
        let columns = 100, rows = 30
        let mask = try #require(renderer.landMask(for: viewport, columns: columns, rows: rows, resolution: resolution))
        let box = MapProjection(viewport: viewport, dotWidth: columns * 2, dotHeight: rows * 4).bounds

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-gdal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("land.bin")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdal)
        process.arguments = ["-q", "-burn", "1", "-init", "0", "-ot", "Byte", "-of", "ENVI", "-te", "\(box.west)", "\(box.south)", "\(box.east)", "\(box.north)",
                             "-ts", "\(mask.dotWidth)", "\(mask.dotHeight)", MapDataCatalog().land(resolution), output.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let theirs = Array(try Data(contentsOf: output))
        try #require(theirs.count == mask.dotWidth * mask.dotHeight)

        var disagree = 0, land = 0
        for y in 0..<mask.dotHeight {
            for x in 0..<mask.dotWidth {
                if mask.isSet(x: x, y: y) != (theirs[y * mask.dotWidth + x] != 0) { disagree += 1 }
                if theirs[y * mask.dotWidth + x] != 0 { land += 1 }
            }
        }
        #expect(land > 1_000, "the box holds land, so agreement is not just empty sea")
        #expect(Double(disagree) / Double(theirs.count) <= 0.02, "\(disagree) of \(theirs.count) dots disagree")
    }
}
