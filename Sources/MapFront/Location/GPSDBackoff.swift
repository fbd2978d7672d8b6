/// How long to wait before the next try at gpsd: doubling from `initial` up to `maximum`, and
/// back to `initial` once a connection has worked (sent a report), so a gpsd that restarts is
/// found again within a second while an absent one costs one attempt every half minute.
public struct GPSDBackoff: Hashable, Sendable {
    public let initial: Double
    public let maximum: Double
    private var next: Double

    public init(initial: Double = 1, maximum: Double = 30) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        next = initial
    }

    /// The delay after a failed or lost connection; each call doubles the next one.
    public mutating func delayAfterFailure() -> Double {
        let delay = next
        next = min(maximum, next * 2)
        return delay
    }

    public mutating func reset() { next = initial }
}
