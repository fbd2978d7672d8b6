import Defaults
import Foundation
import PropertyList
import Settings
import Testing
@testable import MapFront

@Suite("Location text, gpsd addresses and choosing the source")
struct LocationSourceTests {
    @Test(arguments: [
        ("48.8566,2.3522", 48.8566, 2.3522),
        (" -33.8568 , 151.2153 ", -33.8568, 151.2153),
        ("+90,-180", 90, -180),
        ("-90,180", -90, 180),
        ("0,0", 0, 0),
        (".5,-.25", 0.5, -0.25),
    ])
    func goodLocationText(text: String, latitude: Double, longitude: Double) throws {
        #expect(try LocationText.parse(text).get() == GeoPoint(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: [
        ("", "is empty"),
        ("48.8566", "expected LAT,LON in decimal degrees, like 48.8566,2.3522"),
        ("48.8566,2.3522,10", "expected LAT,LON in decimal degrees, like 48.8566,2.3522"),
        ("48.8566 2.3522", "expected LAT,LON in decimal degrees, like 48.8566,2.3522"),
        ("paris,france", "latitude “paris” is not a decimal number"),
        ("48.8566,", "longitude “” is not a decimal number"),
        ("nan,0", "latitude “nan” is not a decimal number"),
        ("1e1,0", "latitude “1e1” is not a decimal number"),
        ("0x10,0", "latitude “0x10” is not a decimal number"),
        ("48°51′N,2°21′E", "latitude “48°51′N” is not a decimal number"),
        ("91,0", "latitude 91 is outside -90…90"),
        ("0,180.5", "longitude 180.5 is outside -180…180"),
        ("٤٨,٢", "latitude “٤٨” is not a decimal number"),
    ])
    func badLocationTextSaysWhatIsWrong(text: String, reason: String) {
        #expect(throws: LocationInputError(reason)) { try LocationText.parse(text).get() }
    }

    @Test func gpsdAddresses() throws {
        #expect(try GPSDAddress.parse("localhost:2947").get() == .standard)
        #expect(try GPSDAddress.parse("gps.local").get() == GPSDAddress(host: "gps.local", port: 2947))
        #expect(try GPSDAddress.parse("[::1]:3000").get() == GPSDAddress(host: "::1", port: 3000))
        #expect(try GPSDAddress.parse("[::1]").get().description == "[::1]:2947")
        #expect(try GPSDAddress.parse("10.0.0.2:29470").get().description == "10.0.0.2:29470")
        let bad: [(String, String)] = [
            ("", "is empty"), (":2947", "has no host"), ("host:", "port “” is not a number from 1 to 65535"),
            ("host:70000", "port “70000” is not a number from 1 to 65535"), ("host:0", "port “0” is not a number from 1 to 65535"),
            ("::1", "an IPv6 address needs brackets: [::1]:2947"), ("[::1", "has “[” without “]”"),
            ("[::1]x", "expected “:PORT” after “]”"), ("a b:1", "“a b” is not a host name"),
        ]
        for (text, reason) in bad {
            #expect(throws: LocationInputError(reason), "\(text)") { try GPSDAddress.parse(text).get() }
        }
    }

    @Test func theCommandLineWins() {
        let store = InMemoryPreferenceStore(values: [LocationSourceFactory.manualLocationKey: .string("10,20")])
        let choice = LocationSourceFactory.choose(commandLine: "48.8566,2.3522", store: store, environment: [:])
        #expect(choice == LocationChoice(origin: .commandLine(GeoPoint(latitude: 48.8566, longitude: 2.3522)), problems: []))
    }

    @Test func thenTheSettingThenGPSD() {
        let store = InMemoryPreferenceStore(values: [LocationSourceFactory.manualLocationKey: .string(" 10,20 ")])
        #expect(LocationSourceFactory.choose(commandLine: nil, store: store, environment: [:]).origin
            == .setting(GeoPoint(latitude: 10, longitude: 20)))
        let empty = InMemoryPreferenceStore(values: [LocationSourceFactory.manualLocationKey: .string("")])
        #expect(LocationSourceFactory.choose(commandLine: nil, store: empty, environment: [:])
            == LocationChoice(origin: .gpsd(.standard), problems: []))
    }

    @Test func badTextIsReportedAndPassedOver() {
        let store = InMemoryPreferenceStore(values: [LocationSourceFactory.manualLocationKey: .string("somewhere")])
        let choice = LocationSourceFactory.choose(commandLine: "91,0", store: store, environment: ["WONDERLAND_GPSD": "gps:x"])
        #expect(choice.origin == .gpsd(.standard))
        #expect(choice.problems == [
            "--location “91,0”: latitude 91 is outside -90…90",
            "Manual Location “somewhere”: expected LAT,LON in decimal degrees, like 48.8566,2.3522",
            "WONDERLAND_GPSD “gps:x”: port “x” is not a number from 1 to 65535",
        ])
    }

    @Test func theEnvironmentOverridesTheAddressSetting() {
        let store = InMemoryPreferenceStore(values: [LocationSourceFactory.gpsdAddressKey: .string("gps.local:3000")])
        #expect(LocationSourceFactory.choose(commandLine: nil, store: store, environment: ["WONDERLAND_GPSD": "127.0.0.1:29470"]).origin
            == .gpsd(GPSDAddress(host: "127.0.0.1", port: 29470)))
        #expect(LocationSourceFactory.choose(commandLine: nil, store: store, environment: [:]).origin
            == .gpsd(GPSDAddress(host: "gps.local", port: 3000)))
        // A bad variable falls back to the setting, not past it.
        let choice = LocationSourceFactory.choose(commandLine: nil, store: store, environment: ["WONDERLAND_GPSD": "::1"])
        #expect(choice.origin == .gpsd(GPSDAddress(host: "gps.local", port: 3000)))
        #expect(choice.problems.count == 1)
    }

    @Test func aFixedLocationNeverMoves() {
        let source = LocationSourceFactory.makeSource(for: .commandLine(GeoPoint(latitude: 90, longitude: 180)))
        source.start()
        #expect(source.currentFix == LocationFix(coordinate: GeoPoint(latitude: 90, longitude: 180)))
        #expect(source.statusText == "location: set by --location")
        #expect(source.refresh() == false)
        source.stop()
    }

    @Test func currentLocationShowsProblemsInItsStatus() {
        let current = CurrentLocation(commandLine: "abc", store: InMemoryPreferenceStore(values: [LocationSourceFactory.manualLocationKey: .string("1,2")]),
                                      environment: [:])
        #expect(current.currentFix?.coordinate == GeoPoint(latitude: 1, longitude: 2))
        #expect(current.statusText == "--location “abc”: expected LAT,LON in decimal degrees, like 48.8566,2.3522 · location: set in Settings (Manual Location)")
        #expect(current.problems.count == 1)
    }

    @Test func currentLocationFollowsTheSettingWhileRunning() throws {
        let store = InMemoryPreferenceStore()
        let server = try FakeGPSDServer()
        let current = CurrentLocation(commandLine: nil, store: store, environment: ["WONDERLAND_GPSD": "127.0.0.1:\(server.port)"],
                                      gpsd: GPSDConfiguration())
        current.start()
        defer { current.stop() }
        #expect(current.choice.origin == .gpsd(server.address))
        _ = try server.accept()
        store.set(.string("51.5074,-0.1278"), forKey: LocationSourceFactory.manualLocationKey)
        #expect(current.refresh())
        #expect(current.currentFix?.coordinate == GeoPoint(latitude: 51.5074, longitude: -0.1278))
        #expect(current.statusText == "location: set in Settings (Manual Location)")
        store.set(.string("oops"), forKey: LocationSourceFactory.manualLocationKey)
        #expect(current.refresh())
        #expect(current.choice.origin == .gpsd(server.address))
        #expect(current.statusText.hasPrefix("Manual Location “oops”: expected LAT,LON in decimal degrees, like 48.8566,2.3522"))
        // Some other key changing leaves the source alone.
        let before = ObjectIdentifier(current.source)
        store.set(.integer(2), forKey: MapDefaultsKey.mapType)
        #expect(ObjectIdentifier(current.source) == before)
    }

    @Test func theSettingsBundleOffersBothKeysAsTextFields() {
        for key in LocationSourceFactory.settingKeys {
            guard case .textField(let field)? = SettingsBundle.embedded.specifier(forKey: key) else {
                Issue.record("\(key) is not a text field in Settings.bundle")
                continue
            }
            #expect(!field.isSecure)
        }
        #expect(SettingsBundle.embedded.registrationDefaults[LocationSourceFactory.manualLocationKey] == .string(""))
    }
}
