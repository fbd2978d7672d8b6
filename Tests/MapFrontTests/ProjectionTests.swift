import Testing
@testable import MapFront

@Suite struct ProjectionTests {
    @Test func centreLandsMidScreenAndBack() {
        let projection = MapProjection(viewport: MapViewport(center: GeoPoint(latitude: 48.85, longitude: 2.35), zoom: 6), dotWidth: 400, dotHeight: 240)
        let dot = projection.dot(for: GeoPoint(latitude: 48.85, longitude: 2.35))
        #expect(dot.x == 200 && dot.y == 120)
        let back = projection.point(atDotX: 250, y: 100)
        let again = projection.dot(for: back)
        #expect(abs(again.x - 250) < 1e-9 && abs(again.y - 100) < 1e-9)
    }

    @Test func pointsAcrossTheAntimeridianTakeTheNearestCopy() {
        let projection = MapProjection(viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 179), zoom: 4), dotWidth: 400, dotHeight: 240)
        let east = projection.dot(for: GeoPoint(latitude: 0, longitude: -179))
        #expect(east.x > 200, "-179° is 2° east of 179°, so right of centre")
        #expect(abs(east.x - (200 + 2 / projection.degreesPerDot)) < 1e-6)
    }

    @Test func longitudesWrapAndLatitudesClamp() {
        #expect(GeoPoint.wrapLongitude(190) == -170)
        #expect(GeoPoint.wrapLongitude(-180) == -180)
        #expect(GeoPoint.wrapLongitude(540) == -180)
        #expect(GeoPoint(latitude: 95, longitude: 0).normalized.latitude == 90)
        #expect(MapViewport(center: .init(latitude: 0, longitude: 0), zoom: 99).zoom == MapViewport.zoomLevels.upperBound)
    }
}
