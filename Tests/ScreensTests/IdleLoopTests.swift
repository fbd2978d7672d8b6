import Testing
import Screens
import Terminal

/// A clock the test moves by hand.
private final class FakeClock {
    var now = 1_000.0
}

/// A terminal that plays a script: each `nextEvent` takes the next step and records how long the
/// loop asked to wait and what it asked to watch. A nil step is a wait that ran out, which moves
/// the fake clock by the whole timeout; when the script ends, the app is asked to quit.
private final class ScriptedTerminal: Terminal {
    let size = Size(columns: 40, rows: 12)
    let capabilities = TerminalCapabilities(colors: false, unicode: true)
    var steps: [Event?]
    let clock: FakeClock
    private(set) var waits: [Double?] = []
    private(set) var watched: [[Int32]] = []
    private(set) var frames = 0

    init(_ steps: [Event?], clock: FakeClock) {
        self.steps = steps
        self.clock = clock
    }

    func present(_ frame: CellBuffer, full: Bool) { frames += 1 }
    func nextEvent(timeout: Double?) -> Event? { nextEvent(timeout: timeout, watching: []) }

    func nextEvent(timeout: Double?, watching descriptors: [Int32]) -> Event? {
        waits.append(timeout)
        watched.append(descriptors)
        guard !steps.isEmpty else { return .terminate(.quit) }
        let step = steps.removeFirst()
        if step == nil, let timeout { clock.now += timeout }
        return step
    }

    func suspend() {}
    func restore() {}
}

/// An observer with a deadline and a descriptor of its own, as the defaults store has.
private final class DeadlineObserver: ApplicationLifecycleObserver {
    var deadline: Double?
    var descriptors: [Int32] = []
    var idles = 0
    var wakes = 0

    func nextIdleDeadline(_ application: Application) -> Double? { deadline }
    func wakeDescriptors(_ application: Application) -> [Int32] { descriptors }
    func applicationDidBecomeIdle(_ application: Application) {
        idles += 1
        deadline = nil  // its work is done
    }
    func applicationDidWake(_ application: Application) { wakes += 1 }
}

@Suite("The run loop sleeps while nothing happens")
struct IdleLoopTests {
    private func makeApp(_ steps: [Event?]) -> (Application, ScriptedTerminal, FakeClock) {
        let clock = FakeClock()
        let terminal = ScriptedTerminal(steps, clock: clock)
        let app = Application(terminal: terminal, root: RecordingScreen("Quiet"))
        app.clock = { clock.now }
        return (app, terminal, clock)
    }

    @Test func withNothingDueTheLoopWaitsWithNoTimeout() throws {
        let (app, terminal, _) = makeApp([])
        try app.run()
        #expect(terminal.waits == [nil], "after the first frame the loop sleeps until an event, with no timer")
        #expect(app.nextDeadline == nil)
    }

    @Test func inputArmsOneIdleDeadlineAndItIsGoneOnceIdleWorkRan() throws {
        let observer = DeadlineObserver()
        let (app, terminal, _) = makeApp([.key(.character("x")), nil])
        app.addLifecycleObserver(observer)
        try app.run()
        // After the key: one wait for the idle moment; after it came: no timer at all.
        #expect(terminal.waits == [nil, app.idleDelay, nil])
        #expect(observer.idles == 1)
        #expect(app.nextDeadline == nil)
    }

    @Test func aWakeFromBackgroundWorkArmsNoTimer() throws {
        let observer = DeadlineObserver()
        let (app, terminal, _) = makeApp([.wake, .wake])
        app.addLifecycleObserver(observer)
        try app.run()
        #expect(observer.wakes == 2)
        #expect(terminal.waits == [nil, nil, nil], "news is not input: no idle moment is owed for it")
        #expect(observer.idles == 0)
    }

    @Test func anObserversDeadlineIsWaitedForOnceThenForgotten() throws {
        let observer = DeadlineObserver()
        let (app, terminal, clock) = makeApp([nil])
        observer.deadline = clock.now + 0.25
        app.addLifecycleObserver(observer)
        try app.run()
        #expect(terminal.waits == [0.25, nil], "the loop sleeps exactly until the deadline, then with no timer")
        #expect(observer.idles == 1)
    }

    @Test func aDeadlineNobodyClearsCannotMakeTheLoopSpin() {
        let observer = DeadlineObserver()
        let (app, _, clock) = makeApp([])
        app.addLifecycleObserver(observer)
        observer.deadline = clock.now - 10
        app.becomeIdle()
        observer.deadline = clock.now - 10  // still overdue after its idle work ran
        #expect(app.nextDeadline! > clock.now, "an overdue deadline waits a moment after the last idle work")
    }

    @Test func observersDescriptorsAreWatchedInTheLoopsPoll() throws {
        let observer = DeadlineObserver()
        observer.descriptors = [42]
        let (app, terminal, _) = makeApp([])
        app.addLifecycleObserver(observer)
        try app.run()
        #expect(terminal.watched == [[42]])
    }

    @Test func idleWorkIsOwedOnlyAfterInput() {
        let (app, _, clock) = makeApp([])
        app.launch()
        #expect(app.nextDeadline == nil)
        try? app.dispatch(.key(.character("x")))
        #expect(app.nextDeadline == clock.now + app.idleDelay)
        clock.now += app.idleDelay
        app.becomeIdle()
        #expect(app.nextDeadline == nil)
    }
}
