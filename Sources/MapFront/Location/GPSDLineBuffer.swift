/// Turns the bytes of a TCP stream into gpsd's newline-ended lines, whatever the reads' sizes.
/// A line longer than the limit is dropped as it streams (never held in memory) and reported
/// once, so a peer that never sends a newline cannot grow the buffer.
public struct GPSDLineBuffer: Sendable {
    public enum Item: Equatable, Sendable {
        case line([UInt8])
        case tooLong
    }

    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(maximumLineLength: Int = GPSDReport.maximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
        var items: [Item] = []
        for byte in bytes {
            if byte == 0x0A {
                if discarding {
                    discarding = false
                } else {
                    if pending.last == 0x0D { pending.removeLast() }
                    if !pending.isEmpty { items.append(.line(pending)) }
                }
                pending.removeAll(keepingCapacity: true)
            } else if !discarding {
                pending.append(byte)
                if pending.count > maximumLineLength {
                    pending.removeAll(keepingCapacity: false)
                    discarding = true
                    items.append(.tooLong)
                }
            }
        }
        return items
    }

    /// Forgets a partial line: after a reconnect the new stream starts afresh.
    public mutating func reset() {
        pending.removeAll(keepingCapacity: false)
        discarding = false
    }
}
