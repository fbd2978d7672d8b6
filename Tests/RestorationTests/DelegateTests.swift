import Foundation
import KeyedArchive
import Restoration
import Testing

final class RecordingDelegate: RestorationDelegate {
    var restore = true
    var appState = "app-level"
    var decoded: String?
    var offeredHeader: RestorationHeader?

    func shouldRestoreApplicationState(_ header: RestorationHeader) -> Bool {
        offeredHeader = header
        return restore
    }
    func willEncodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(appState, forKey: "lastSearch")
        coder.encode(99, forKey: "WLFormatVersion")  // reserved: the engine's value wins
    }
    func didDecodeRestorableState(with coder: KeyedUnarchiver) throws {
        decoded = try coder.decodeObject(of: String.self, forKey: "lastSearch")
    }
}

@Suite("Restoration delegate")
struct DelegateTests {
    @Test func appLevelStateRoundTripsBesideTheTree() throws {
        let delegate = RecordingDelegate()
        let data = try preserve(FakeScreen("Root", value: "r"), delegate: delegate)
        let reader = RecordingDelegate()
        let fresh = FakeScreen("Root")
        _ = try RestorationEngine().restore(from: data, root: fresh, delegate: reader)
        #expect(reader.decoded == "app-level")
        #expect(reader.offeredHeader?.formatVersion == RestorationEngine.formatVersion)
        #expect(fresh.value == "r")
        let summary = try RestorationEngine().describe(data)
        #expect(summary.appValues.map(\.key) == ["lastSearch"])
    }

    @Test func declinedRestoreTouchesNothing() throws {
        let data = try preserve(FakeScreen("Root", value: "r"))
        let delegate = RecordingDelegate()
        delegate.restore = false
        let fresh = FakeScreen("Root")
        let error = try #require(throws: RestorationError.self) { try RestorationEngine().restore(from: data, root: fresh, delegate: delegate) }
        #expect(error.kind == .declinedByApp)
        #expect(fresh.value == "" && fresh.decodeCount == 0)
    }
}
