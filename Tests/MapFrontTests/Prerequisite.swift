import Foundation
import MapFront
import TestPrerequisites

extension Prerequisite {
    /// gpsd's test fake, where GPSDReplayTests starts it, and the gpsd it runs.
    static let gpsfake = file("/usr/bin/gpsfake", named: "gpsfake", remedy: "scripts/setup gpsd installs it (Debian's gpsd-clients)")
    static let gpsd = file("/usr/sbin/gpsd", named: "gpsd", remedy: "scripts/setup gpsd installs it (Debian's gpsd)")
    /// GDAL's rasteriser, where RendererGDALTests starts it.
    static let gdalRasterize = file("/usr/bin/gdal_rasterize", named: "gdal_rasterize", remedy: "scripts/setup gdal installs it (Debian's gdal-bin)")
    /// Natural Earth at every scale, laid out as MapDataCatalog() reads it by default.
    static let naturalEarth = Prerequisite(name: "the Natural Earth map data in \(MapDataCatalog.standardDirectory)",
                                           remedy: "scripts/setup installs it (Debian's libmagics++-data)") {
        let catalog = MapDataCatalog()
        let files = MapResolution.allCases.flatMap(catalog.files(for:)) + [catalog.placesShapefile, catalog.placesTable]
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }
}
