import Cloud
@testable import CloudPostgres
import Testing

@Suite("Reconnecting: the back-off")
struct PostgresBackoffTests {
    @Test("doubles from the first wait up to the cap, each within ±20 %")
    func doublesUpToTheCap() {
        let options = PostgresBackend.Options(initialBackoff: 0.25, maximumBackoff: 8)
        var generator = SeededRandomNumberGenerator(seed: 42)
        let expected: [Double] = [0.25, 0.5, 1, 2, 4, 8, 8, 8]
        for (index, base) in expected.enumerated() {
            let wait = PostgresBackend.backoff(afterFailures: index + 1, options: options, using: &generator)
            #expect(wait >= base * 0.8 && wait <= base * 1.2, "failure \(index + 1): \(wait) s, expected about \(base) s")
        }
        // A very long outage neither overflows nor passes the cap.
        let late = PostgresBackend.backoff(afterFailures: 10_000, options: options, using: &generator)
        #expect(late >= 6.4 && late <= 9.6)
    }

    @Test("two devices that failed together come back at different moments")
    func jitterSpreadsDevices() {
        let options = PostgresBackend.Options()
        var first = SeededRandomNumberGenerator(seed: 1)
        var second = SeededRandomNumberGenerator(seed: 2)
        let waits = (1 ... 6).map { failures in
            (PostgresBackend.backoff(afterFailures: failures, options: options, using: &first),
             PostgresBackend.backoff(afterFailures: failures, options: options, using: &second))
        }
        #expect(waits.contains { $0.0 != $0.1 })
    }
}
