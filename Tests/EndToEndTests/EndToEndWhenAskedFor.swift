import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// The end-to-end suites drive the real binary in tmux, start servers and take minutes, so
    /// plain `swift test` leaves them out. They run when asked for: scripts/test and scripts/e2e
    /// set WONDERLAND_BIN to the binary they built; WONDERLAND_E2E=1 asks for them with the
    /// binary beside the test bundle.
    static var whenEndToEndIsAskedFor: Self {
        let environment = ProcessInfo.processInfo.environment
        let asked = !(environment["WONDERLAND_BIN"] ?? "").isEmpty || environment["WONDERLAND_E2E"] == "1"
        return .enabled(if: asked, "end-to-end: run them with scripts/e2e (or WONDERLAND_E2E=1 swift test)")
    }
}
