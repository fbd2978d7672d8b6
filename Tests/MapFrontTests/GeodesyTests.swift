import Testing
@testable import MapFront

@Suite("Geodesy: distance, bearing, arrows and units")
struct GeodesyTests {
    let paris = GeoPoint(latitude: 48.8566, longitude: 2.3522)
    let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)
    let northPole = GeoPoint(latitude: 90, longitude: 0)
    let southPole = GeoPoint(latitude: -90, longitude: 0)
    /// A quarter of the way round the sphere, metres.
    var quarter: Double { .pi * Geodesy.earthRadius / 2 }

    @Test func parisToLondonIs343AndAHalfKilometres() {
        let metres = Geodesy.distance(from: paris, to: london)
        #expect(abs(metres - 343_556) < 50)
        #expect(abs(Geodesy.distance(from: london, to: paris) - metres) < 1e-6)
        #expect(DistanceUnits.kilometres.format(metres: metres) == "344 km")
    }

    @Test func longKnownDistances() {
        // New York to Tokyo; Sydney to Auckland (across the Tasman).
        let newYork = GeoPoint(latitude: 40.7128, longitude: -74.0060), tokyo = GeoPoint(latitude: 35.6762, longitude: 139.6503)
        #expect(abs(Geodesy.distance(from: newYork, to: tokyo) - 10_851_748) < 100)
        let sydney = GeoPoint(latitude: -33.8688, longitude: 151.2093), auckland = GeoPoint(latitude: -36.8485, longitude: 174.7633)
        #expect(abs(Geodesy.distance(from: sydney, to: auckland) - 2_155_901) < 100)
    }

    @Test func antipodesAreHalfwayRound() {
        let halfway = Double.pi * Geodesy.earthRadius
        #expect(abs(Geodesy.distance(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0, longitude: 180)) - halfway) < 0.01)
        #expect(abs(Geodesy.distance(from: paris, to: GeoPoint(latitude: -48.8566, longitude: 2.3522 - 180)) - halfway) < 0.01)
        #expect(abs(Geodesy.distance(from: northPole, to: southPole) - halfway) < 0.01)
    }

    @Test func polesAreAQuarterFromTheEquatorWhateverTheLongitude() {
        for longitude in stride(from: -180.0, through: 180, by: 45) {
            let equator = GeoPoint(latitude: 0, longitude: longitude)
            #expect(abs(Geodesy.distance(from: equator, to: northPole) - quarter) < 0.01)
            #expect(abs(Geodesy.distance(from: GeoPoint(latitude: 90, longitude: longitude), to: northPole)) < 0.01)
        }
    }

    @Test func theAntimeridianIsNoWall() {
        let west = GeoPoint(latitude: 0, longitude: 179.5), east = GeoPoint(latitude: 0, longitude: -179.5)
        #expect(abs(Geodesy.distance(from: west, to: east) - 111_195.08) < 0.1)
        #expect(abs(Geodesy.initialBearing(from: west, to: east) - 90) < 1e-9)
        #expect(abs(Geodesy.initialBearing(from: east, to: west) - 270) < 1e-9)
        // Fiji to Samoa, across the line.
        let suva = GeoPoint(latitude: -18.1416, longitude: 178.4419), apia = GeoPoint(latitude: -13.8333, longitude: -171.7667)
        #expect(Geodesy.distance(from: suva, to: apia) < 1_200_000)
        #expect(Geodesy.compassPoint(forBearing: Geodesy.initialBearing(from: suva, to: apia)) == "NE")
    }

    @Test func knownBearings() {
        #expect(abs(Geodesy.initialBearing(from: paris, to: london) - 330.02) < 0.01)
        #expect(abs(Geodesy.initialBearing(from: london, to: paris) - 148.12) < 0.01)
        let origin = GeoPoint(latitude: 0, longitude: 0)
        let cases: [(GeoPoint, Double)] = [
            (GeoPoint(latitude: 1, longitude: 0), 0), (GeoPoint(latitude: 0, longitude: 1), 90),
            (GeoPoint(latitude: -1, longitude: 0), 180), (GeoPoint(latitude: 0, longitude: -1), 270),
        ]
        for (target, bearing) in cases {
            #expect(abs(Geodesy.initialBearing(from: origin, to: target) - bearing) < 1e-9)
        }
    }

    @Test func atAPoleEveryWayIsSouthOrNorth() {
        for longitude in [-180.0, -90, 0, 45, 180] {
            let target = GeoPoint(latitude: 10, longitude: longitude)
            #expect(Geodesy.initialBearing(from: northPole, to: target) == 180)
            #expect(Geodesy.initialBearing(from: GeoPoint(latitude: 90, longitude: longitude), to: target) == 180)
            #expect(Geodesy.initialBearing(from: southPole, to: target) == 0)
        }
    }

    @Test func headingForTheNorthPoleIsNorthNot360() {
        for start in [paris, london, GeoPoint(latitude: -60, longitude: -179.9), GeoPoint(latitude: 0, longitude: 180)] {
            let bearing = Geodesy.initialBearing(from: start, to: northPole)
            #expect(bearing >= 0 && bearing < 1e-9, "\(start): \(bearing)")
            #expect(Geodesy.arrow(forBearing: bearing) == "↑")
            #expect(abs(Geodesy.initialBearing(from: start, to: southPole) - 180) < 1e-9)
        }
    }

    @Test func bearingsAreAlwaysInZeroTo360() {
        for latitude in stride(from: -80.0, through: 80, by: 20) {
            for longitude in stride(from: -180.0, through: 180, by: 30) {
                let bearing = Geodesy.initialBearing(from: paris, to: GeoPoint(latitude: latitude, longitude: longitude))
                #expect(bearing >= 0 && bearing < 360)
            }
        }
    }

    @Test func arrowsAndCompassPointsSplitTheCircleIntoEights() {
        let cases: [(Double, Character, String)] = [
            (0, "↑", "N"), (22.4, "↑", "N"), (22.5, "↗", "NE"), (90, "→", "E"), (135, "↘", "SE"),
            (180, "↓", "S"), (225, "↙", "SW"), (270, "←", "W"), (315, "↖", "NW"), (337.5, "↑", "N"),
            (359.9, "↑", "N"), (-90, "←", "W"), (-1, "↑", "N"), (810, "→", "E"), (-720, "↑", "N"),
        ]
        for (bearing, arrow, point) in cases {
            #expect(Geodesy.arrow(forBearing: bearing) == arrow, "\(bearing)")
            #expect(Geodesy.compassPoint(forBearing: bearing) == point, "\(bearing)")
        }
        #expect(Geodesy.arrow(forBearing: .nan) == "·")
        #expect(Geodesy.compassPoint(forBearing: .infinity) == "?")
    }

    @Test func distancesReadWellInKilometres() {
        let cases: [(Double, String)] = [
            (0, "0 m"), (850.4, "850 m"), (999.4, "999 m"), (999.6, "1.0 km"), (12_400, "12.4 km"),
            (99_940, "99.9 km"), (99_960, "100 km"), (1_234_000, "1,234 km"), (20_015_114, "20,015 km"),
        ]
        for (metres, text) in cases {
            #expect(DistanceUnits.kilometres.format(metres: metres) == text, "\(metres)")
        }
    }

    @Test func distancesReadWellInMiles() {
        let cases: [(Double, String)] = [
            (100, "328 ft"), (160, "525 ft"), (500, "0.3 mi"), (20_000, "12.4 mi"), (343_556, "213 mi"),
            (20_015_114, "12,437 mi"),
        ]
        for (metres, text) in cases {
            #expect(DistanceUnits.miles.format(metres: metres) == text, "\(metres)")
        }
    }

    @Test func noDistanceIsAQuestionMark() {
        for units in [DistanceUnits.kilometres, .miles] {
            #expect(units.format(metres: .nan) == "?")
            #expect(units.format(metres: .infinity) == "?")
            #expect(units.format(metres: -1) == "?")
        }
    }
}
