import Testing
import Defaults
import PropertyList

@Suite struct PreferenceObservationTests {
    @Test func cancelRunsOnce() {
        var cancelled = 0
        let token = PreferenceObservation { cancelled += 1 }
        token.cancel()
        token.cancel()
        #expect(cancelled == 1)
    }
}
