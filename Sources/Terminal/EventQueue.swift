/// Events decoded and not yet handed out, first in first out. A flood of typed bytes read at
/// once is thousands of events: taking one costs the same however many wait behind it.
struct EventQueue {
    private var events: [Event] = []
    private var head = 0

    var isEmpty: Bool { head == events.count }
    var count: Int { events.count - head }

    mutating func append(contentsOf more: some Sequence<Event>) {
        events.append(contentsOf: more)
    }

    mutating func popFirst() -> Event? {
        guard head < events.count else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: events.count <= 1024)
            head = 0
        }
        return event
    }
}
