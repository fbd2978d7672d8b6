/// Start-up work begun on a thread of its own as soon as it is known to be needed, for a
/// result wanted a little later: whatever the main thread does meanwhile runs on the other
/// core. Whoever comes first does the work: the thread, or the first reader of `value` when
/// the thread has not begun yet (or could not be started), so a reader never waits for a
/// thread still being scheduled.
public final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private let condition = Condition()
    private var work: (@Sendable () -> Value)?
    private var result: Value?

    public init(name: String, _ work: @escaping @Sendable () -> Value) {
        self.work = work
        _ = startThread(name: name) { [self] in
            if let work = claim() { publish(work()) }
        }
    }

    /// The result, worked out here if nobody has begun it, else waited for.
    public var value: Value {
        if let work = claim() {
            let value = work()
            publish(value)
            return value
        }
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }

    private func claim() -> (@Sendable () -> Value)? {
        condition.withLock {
            defer { work = nil }
            return work
        }
    }

    private func publish(_ value: Value) {
        condition.withLock {
            result = value
            condition.broadcast()
        }
    }
}
