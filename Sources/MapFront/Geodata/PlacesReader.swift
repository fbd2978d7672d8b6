/// Natural Earth's populated places (.shp points with their .dbf rows) as `Place`s.
public enum PlacesReader {
    public static func read(shapefile: String, table: String) throws(GeodataError) -> [Place] {
        try places(ShapefileReader.read(path: shapefile), DBFTable.read(path: table))
    }

    /// Sorted for labelling: most prominent first (lowest SCALERANK, then largest POP_MAX).
    public static func places(_ shapes: ShapefileContents, _ table: DBFTable) throws(GeodataError) -> [Place] {
        guard shapes.kind == .point else { throw GeodataError(file: table.file, reason: "its shapefile holds \(shapes.kind)s, not points") }
        guard shapes.recordCount == table.recordCount else {
            throw GeodataError(file: table.file, reason: "has \(table.recordCount) rows but its shapefile has \(shapes.recordCount) points: one of them is truncated or they do not belong together")
        }
        guard let name = table.field(named: "NAME") else { throw GeodataError(file: table.file, reason: "has no NAME column") }
        let ascii = table.field(named: "NAMEASCII")
        let country = table.field(named: "ADM0NAME")
        let population = table.field(named: "POP_MAX")
        let rank = table.field(named: "SCALERANK")
        let latitude = table.field(named: "LATITUDE"), longitude = table.field(named: "LONGITUDE")

        var places: [Place] = []
        places.reserveCapacity(table.recordCount)
        for record in 0..<table.recordCount where !table.isDeleted(record) {
            guard let placeName = table.string(record, name) else { continue }
            let parts = shapes.recordParts[record]
            let coordinate: GeoPoint
            if let part = parts.first, shapes.points(ofPart: part).count == 1 {
                let index = shapes.partStarts[part]
                coordinate = GeoPoint(latitude: shapes.ys[index], longitude: shapes.xs[index])
            } else if let latitude, let longitude, let lat = table.double(record, latitude), let lon = table.double(record, longitude),
                      GeoPoint(latitude: lat, longitude: lon).isValid {
                coordinate = GeoPoint(latitude: lat, longitude: lon)
            } else {
                continue
            }
            let asciiName = ascii.flatMap { table.string(record, $0) }
            places.append(Place(name: placeName, asciiName: asciiName == placeName ? nil : asciiName,
                                country: country.flatMap { table.string(record, $0) } ?? "",
                                coordinate: coordinate.normalized,
                                population: population.flatMap { table.int(record, $0) } ?? 0,
                                rank: rank.flatMap { table.int(record, $0) } ?? 10))
        }
        places.sort { ($0.rank, -$0.population, $0.name) < ($1.rank, -$1.population, $1.name) }
        return places
    }
}
