/// A populated place from Natural Earth (ne_*_populated_places), for labels and for search.
public struct Place: Hashable, Sendable {
    public var name: String
    /// Natural Earth's NAMEASCII, when it differs: "Sao Paulo" for "São Paulo".
    public var asciiName: String?
    public var country: String
    public var coordinate: GeoPoint
    public var population: Int
    /// Natural Earth's SCALERANK: 0 is the most prominent; labels prefer low ranks.
    public var rank: Int

    public init(name: String, asciiName: String? = nil, country: String, coordinate: GeoPoint, population: Int, rank: Int) {
        self.name = name
        self.asciiName = asciiName
        self.country = country
        self.coordinate = coordinate
        self.population = population
        self.rank = rank
    }
}
