import Terminal

/// Runs the app: owns the root screen and the modals over it, turns terminal events into screen
/// calls, and draws a frame only when something changed.
///
/// Make one with a terminal and the root of the screen tree, add lifecycle observers, then call
/// ``run(exitAfterFirstFrame:)``, which returns when the user quits or a signal ends the
/// program. Tests drive it step by step instead, with ``launch()``, ``dispatch(_:)`` and
/// ``processPendingEvents()`` on a headless terminal.
///
/// Keys go to the focused screen first (the end of ``focusChain``), then to each of its
/// parents, then to ``globalBindings``: `?` for help, `M` for the messages, `q` to quit.
/// A presented modal takes every key until it is dismissed.
///
/// While nothing happens the loop sleeps in one `poll` with no timeout: it wakes for input, a
/// signal, background news (`Wakeup`), a descriptor an observer watches, or the one deadline
/// something asked for (the idle moment after input, a debounced write), never on a beat.
public final class Application {
    /// Where events come from and frames go: an `NcursesTerminal`, or a `HeadlessTerminal` in tests.
    public let terminal: Terminal
    /// The screen that fills the terminal above the hint bar, usually a container; replaced
    /// only by ``replaceRoot(with:)``.
    public private(set) var root: Screen
    /// Below this size the app shows a "terminal too small" message instead of its screens.
    public var minimumSize = Size(columns: 40, rows: 10)
    /// How long input must have settled before the app counts as idle: the moment autosave and
    /// other settled work run (`applicationDidBecomeIdle`).
    public var idleDelay = 0.5
    /// Seconds on a clock that never goes back; tests bring their own, so no test waits.
    public var clock: () -> Double = MonotonicClock.seconds
    /// Where the app is in its life; lifecycle observers hear of each change.
    public private(set) var state: ApplicationState = .notRunning
    /// Why the app ends, from the moment ``terminate(_:)`` begins (observers hearing
    /// will-terminate see it); `nil` while it runs.
    public private(set) var terminationReason: TerminationReason?
    /// The presented modals, bottom first; the last one takes the keys.
    public private(set) var modals: [Screen] = []
    /// Frames drawn so far; a test can check that an idle event drew nothing.
    public private(set) var framesRendered = 0
    /// Keys and mouse events handled so far: the user's moves, which are what change the place
    /// the app should come back to (a redraw for a GPS fix or loaded map data is not one).
    public private(set) var inputEventsHandled = 0
    /// The messages shown so far, for the messages overlay (`M`).
    public private(set) var messageLog = MessageLog()

    private var observers: [ObjectIdentifier: ApplicationLifecycleObserver] = [:]
    private var observerOrder: [ObjectIdentifier] = []
    private var needsDisplay = true
    private var needsFullRepaint = true
    /// When the idle moment after the last input comes; nil once it has been delivered.
    private var idleDue: Double?
    /// When idle work last ran: an observer's deadline that is still not in the future after it
    /// ran waits a little, so a deadline nobody clears cannot make the loop spin.
    private var lastIdle = -Double.infinity
    /// A tree put in place after the first frame, whose `didPresentFirstFrame` waits for its own.
    private var rootAwaitingFirstFrame: Screen?
    private static let shortestIdleGap = 0.05

    /// Makes an application that has not launched yet.
    ///
    /// - Parameters:
    ///   - terminal: The terminal to read events from and draw on; the application does not
    ///     restore it when done, its owner does.
    ///   - root: The screen tree to run; screens reach the application through it.
    public init(terminal: Terminal, root: Screen) {
        self.terminal = terminal
        self.root = root
        root.owner = self
    }

    /// Registers an observer for the lifecycle hooks, such as one that restores state at launch and
    /// saves it on the way out; add it before ``run(exitAfterFirstFrame:)``.
    ///
    /// The application keeps the observer alive. Observers hear each hook in the order they were
    /// added; adding one twice changes nothing.
    public func addLifecycleObserver(_ observer: ApplicationLifecycleObserver) {
        let id = ObjectIdentifier(observer)
        if observers.updateValue(observer, forKey: id) == nil { observerOrder.append(id) }
    }

    private func notify(_ call: (ApplicationLifecycleObserver) -> Void) {
        for id in observerOrder { if let observer = observers[id] { call(observer) } }
    }

    // MARK: running

    /// Launches the app without running the loop: observers hear did-finish-launching, the root
    /// screen appears, the first frame is drawn, and observers hear did-present-first-frame.
    ///
    /// ``run(exitAfterFirstFrame:)`` calls it; tests call it directly before dispatching events.
    public func launch() {
        state = .inactive
        notify { $0.applicationDidFinishLaunching(self) }
        root.beginAppearing()
        state = .active
        prepareForFirstFrame(root)
        for modal in modals { prepareForFirstFrame(modal) }
        render()
        didPresentFirstFrame(root)
        for modal in modals { didPresentFirstFrame(modal) }
        notify { $0.applicationDidPresentFirstFrame(self) }
    }

    /// Puts `newRoot` in place of the tree on show, as a launch would have: the modals over the
    /// old tree are dismissed, the old tree disappears, and the new one appears and gets its
    /// first-frame calls (`prepareForFirstFrame` now, `didPresentFirstFrame` once its first frame
    /// is out). Before the launch's first frame the new tree simply stands in for the old one.
    /// Restore the new tree's state before calling this; save the old one's first.
    public func replaceRoot(with newRoot: Screen) {
        guard newRoot !== root else { return }
        for modal in modals.reversed() { dismissModal(modal) }
        let shown = root.isVisible
        root.beginDisappearing()
        root.owner = nil
        root = newRoot
        newRoot.owner = self
        needsDisplay = true
        needsFullRepaint = true
        guard shown else { return }
        newRoot.beginAppearing()
        prepareForFirstFrame(newRoot)
        rootAwaitingFirstFrame = newRoot
    }

    private func prepareForFirstFrame(_ screen: Screen) {
        screen.prepareForFirstFrame()
        for child in screen.visibleChildren { prepareForFirstFrame(child) }
    }

    private func didPresentFirstFrame(_ screen: Screen) {
        screen.didPresentFirstFrame()
        for child in screen.children { didPresentFirstFrame(child) }
    }

    /// Launches and runs until the user quits or a signal ends the app.
    ///
    /// Suspending (Ctrl-Z), resuming, resizing and SIGTERM arrive as events and reach the lifecycle
    /// observers. Give the terminal back (`restore()`) once this returns or throws, before printing.
    ///
    /// - Parameter exitAfterFirstFrame: Ends after the first frame, for start-up benchmarks and
    ///   smoke tests.
    /// - Returns: Why the app ended.
    /// - Throws: An error thrown by a screen's event handling; it ends the loop and reaches the
    ///   caller, which restores the terminal before printing it.
    @discardableResult
    public func run(exitAfterFirstFrame: Bool = false) throws -> TerminationReason {
        launch()
        if exitAfterFirstFrame { terminate(.quit) }
        var lastFrame = clock()
        let frameInterval = 0.016
        while terminationReason == nil {
            if let due = nextDeadline, clock() >= due { becomeIdle() }
            // Drain what is waiting before drawing, but draw at least once per frame interval
            // so a flood of events (a resize storm) cannot starve the screen. With nothing to
            // draw, sleep until an event or the next deadline; with no deadline, for as long
            // as nothing happens.
            let timeout: Double? = needsDisplay ? 0 : nextDeadline.map { max(0, $0 - clock()) }
            if let event = terminal.nextEvent(timeout: timeout, watching: wakeDescriptors) {
                try dispatch(event)
                if !(needsDisplay && clock() - lastFrame > frameInterval) { continue }
            }
            if needsDisplay && terminationReason == nil {
                render()
                lastFrame = clock()
            }
        }
        return terminationReason ?? .quit
    }

    /// When the loop must wake though no event comes: the idle moment after input, or the
    /// earliest deadline an observer has. Nil when nothing is due: the loop then sleeps until
    /// an event arrives.
    public var nextDeadline: Double? {
        var earliest = idleDue
        for id in observerOrder {
            guard var due = observers[id]?.nextIdleDeadline(self) else { continue }
            due = max(due, lastIdle + Self.shortestIdleGap)
            earliest = min(earliest ?? due, due)
        }
        return earliest
    }

    /// What observers watch for news, for the loop's one `poll`.
    public var wakeDescriptors: [Int32] {
        observerOrder.flatMap { observers[$0]?.wakeDescriptors(self) ?? [] }
    }

    /// Handles every event the terminal has queued now, then draws once if needed: a test's step.
    ///
    /// Nothing waits and nothing sleeps, so with a headless terminal a test can send events and
    /// read the screen straight after.
    ///
    /// - Throws: An error thrown by a screen's event handling.
    public func processPendingEvents() throws {
        while terminationReason == nil, let event = terminal.nextEvent(timeout: 0) {
            try dispatch(event)
        }
        if needsDisplay && terminationReason == nil { render() }
    }

    /// What the run loop does when a deadline comes with nothing else to do; tests call it
    /// directly.
    public func becomeIdle() {
        idleDue = nil
        lastIdle = clock()
        notify { $0.applicationDidBecomeIdle(self) }
    }

    /// Asks for a new frame: the app redraws once, at the end of the current tick, however often
    /// this is called. ``Screen/setNeedsDisplay()`` reaches it.
    public func setNeedsDisplay() { needsDisplay = true }

    /// Ends the app in order: observers hear will-terminate first, while everything still exists,
    /// then the run loop returns `reason`. Later calls change nothing.
    public func terminate(_ reason: TerminationReason) {
        guard terminationReason == nil else { return }
        // Set first: what an observer does on the way out may ask whether the app is ending.
        terminationReason = reason
        notify { $0.applicationWillTerminate(self, reason: reason) }
        state = .notRunning
    }

    // MARK: events

    /// Handles one event as the run loop would: a key, click or paste goes to the screens, a resize
    /// redraws in full, a suspend goes to the background and back, a terminate signal ends the app,
    /// and a wake lets every screen take its news.
    ///
    /// - Throws: An error thrown by a screen's event handling.
    public func dispatch(_ event: Event) throws {
        switch event {
        case .resize:
            needsDisplay = true
            needsFullRepaint = true
        case .suspend:
            enterBackground()
            terminal.suspend()
            enterForeground()
        case .resume:
            // A stop we did not ask for (SIGSTOP) or the SIGCONT after our own suspend.
            if state == .background { enterForeground() }
            needsDisplay = true
            needsFullRepaint = true
        case .terminate(let reason):
            terminate(reason)
        case .key, .mouse, .paste:
            inputEventsHandled += 1
            idleDue = clock() + idleDelay
            try dispatchInput(event)
        case .wake:
            deliverWake()
        }
    }

    /// Every screen, shown or hidden, and every modal gets to take the news background work
    /// left for it; one redraw covers all of them.
    private func deliverWake() {
        var changed = false
        func visit(_ screen: Screen) {
            if screen.handleWake() { changed = true }
            for child in screen.children { visit(child) }
        }
        visit(root)
        for modal in modals { visit(modal) }
        notify { $0.applicationDidWake(self) }
        if changed { needsDisplay = true }
    }

    private func enterBackground() {
        guard state == .active || state == .inactive else { return }
        state = .background
        notify { $0.applicationDidEnterBackground(self) }
    }

    private func enterForeground() {
        guard state == .background else { return }
        notify { $0.applicationWillEnterForeground(self) }
        state = .active
        needsDisplay = true
        needsFullRepaint = true
    }

    private func dispatchInput(_ event: Event) throws {
        if isTooSmall {
            if case .key(let key) = event, key == .character("q") || key == .control("c") { terminate(key == .character("q") ? .quit : .interrupt) }
            return
        }
        if case .key(let key) = event, presentsHelpFirst(for: key) { return }
        if let modal = modals.last {
            // A modal takes every key; only Ctrl-C, and help and the messages above, get past
            // it. A key it ignores draws nothing. A container presented as a modal (the settings
            // sheet) passes keys to its focused screen first, as the root does. An alert that
            // came unasked closes at a key it ignores and passes it on (`passesOtherKeysOn`).
            let target: Screen
            if case .mouse(let mouse) = event { target = hitTest(modal, at: mouse.position) } else { target = Self.focusChain(from: modal).last ?? modal }
            if try route(event, from: target) {
                needsDisplay = true
            } else if let alert = modal as? Alert, alert.passesOtherKeysOn, case .key = event {
                dismissModal(alert)
                try dispatchInput(event)
            } else if event == .key(.control("c")) {
                terminate(.interrupt)
            }
            return
        }
        if case .key(let key) = event, try root.handleBeforeFocus(key, typing: acceptsTextInput) {
            needsDisplay = true
            return
        }
        let target: Screen
        if case .mouse(let mouse) = event {
            target = hitTest(root, at: mouse.position)
        } else {
            target = focusChain.last ?? root
        }
        if try route(event, from: target) {
            needsDisplay = true
            return
        }
        if case .key(let key) = event { try handleGlobal(key) }
    }

    /// Offers the event to `screen`, then to each ancestor in turn.
    private func route(_ event: Event, from screen: Screen) throws -> Bool {
        var current: Screen? = screen
        while let candidate = current {
            if try candidate.handle(event) { return true }
            current = candidate.parent
        }
        return false
    }

    private func hitTest(_ screen: Screen, at point: Point) -> Screen {
        for child in screen.visibleChildren.reversed() where child.frame.contains(point) {
            return hitTest(child, at: point)
        }
        return screen
    }

    /// Root first, down to the screen that gets keys first.
    public var focusChain: [Screen] { Self.focusChain(from: root) }

    static func focusChain(from top: Screen) -> [Screen] {
        var chain = [top]
        while let next = chain.last?.focusedChild { chain.append(next) }
        return chain
    }

    private var acceptsTextInput: Bool {
        if let modal = modals.last { return Self.focusChain(from: modal).contains { $0.acceptsTextInput } }
        return focusChain.contains { $0.acceptsTextInput }
    }

    // MARK: global keys

    /// Keys that work everywhere unless a screen took them first.
    public var globalBindings: [KeyBinding] {
        // While a text field has focus `?` and `q` are text: the bar offers F1 and ^C instead.
        let typing = acceptsTextInput
        var bindings = [helpBinding, messagesBinding]
        if !typing {
            bindings.append(KeyBinding(.character("q"), help: "Quit") { [unowned self] in self.terminate(.quit) })
        }
        bindings.append(interruptBinding(showsInHintBar: typing))
        return bindings
    }

    /// Ctrl-C, which quits from under any modal too.
    private func interruptBinding(showsInHintBar: Bool) -> KeyBinding {
        KeyBinding(.control("c"), help: "Quit (from anywhere)", showsInHintBar: showsInHintBar) { [unowned self] in self.terminate(.interrupt) }
    }

    private func handleGlobal(_ key: Key) throws {
        for binding in globalBindings where binding.keys.contains(key) {
            try binding.action(key)
            needsDisplay = true
            return
        }
    }

    /// What the hint bar keeps at its right end (and help lists last): help and quit; under a
    /// modal the keys that still work there, help shown, the messages and Ctrl-C listed only;
    /// nothing under the help and the messages themselves, which F1 and F2 close.
    private var pinnedBindings: [KeyBinding] {
        guard let modal = modals.last else { return globalBindings }
        if modal is ScrollingOverlay { return [] }
        return [helpBinding, messagesBinding, interruptBinding(showsInHintBar: false)]
    }

    /// Help and the messages come before the screens see the key wherever no screen on show
    /// binds it: prompts, lists and overlays swallow the keys they do not use, and a key a
    /// field does not use (F1) must not vanish into one. Under a modal `?` and `M` count too,
    /// unless they are text; in the tree a screen may still take them in its own way, so only
    /// F1 and F2 come first there.
    private func presentsHelpFirst(for key: Key) -> Bool {
        guard modals.last != nil || key == .function(1) || key == .function(2) else { return false }
        guard !screenBindings.contains(where: { $0.keys.contains(key) }) else { return false }
        if asksForHelp(key) {
            presentHelp()
        } else if asksForMessages(key) {
            presentMessages()
        } else {
            return false
        }
        needsDisplay = true
        return true
    }

    /// `M` (F2 while typing): the last messages, whole.
    private var messagesBinding: KeyBinding {
        let typing = acceptsTextInput
        return KeyBinding(typing ? [.function(2)] : [.character("M"), .function(2)], label: typing ? "F2" : "M",
                          help: "Messages: the last notices and errors, in full", showsInHintBar: false) { [unowned self] in
            self.presentMessages()
        }
    }

    /// `?` (F1 while typing): help for the keys of what has focus.
    private var helpBinding: KeyBinding {
        KeyBinding([.character("?"), .function(1)], label: acceptsTextInput ? "F1" : "?", help: "Help: every key of this screen") { [unowned self] in self.presentHelp() }
    }

    /// The bindings a person can use now: the focused screen's first, then its ancestors'.
    /// Under a modal only its own, and help.
    public var activeBindings: [KeyBinding] {
        screenBindings + pinnedBindings
    }

    /// The top modal's bindings, or the focus chain's, focused screen first.
    /// A screen taking text gets printable keys first, so its ancestors' letter and digit keys
    /// (`1-3` for tabs, `,` for settings) cannot be reached while it does: they are left out.
    private var screenBindings: [KeyBinding] {
        var bindings: [KeyBinding] = []
        var typing = false
        for screen in (modals.last.map { Self.focusChain(from: $0) } ?? focusChain).reversed() {
            bindings += typing ? screen.keyBindings.filter { !$0.keys.allSatisfy(\.isText) } : screen.keyBindings
            typing = typing || screen.acceptsTextInput
        }
        return bindings
    }

    private func presentHelp() {
        let chain = modals.last.map { Self.focusChain(from: $0) } ?? focusChain
        presentModal(HelpOverlay(bindings: activeBindings, title: chain.last?.title ?? "Help"))
    }

    /// F1 always; `?` unless it is text for a field.
    private func asksForHelp(_ key: Key) -> Bool {
        key == .function(1) || (key == .character("?") && !acceptsTextInput)
    }

    /// F2 always; `M` unless it is text for a field.
    private func asksForMessages(_ key: Key) -> Bool {
        key == .function(2) || (key == .character("M") && !acceptsTextInput)
    }

    private func presentMessages() {
        presentModal(MessagesOverlay(entries: messageLog.entries))
    }

    /// Keeps what the screens on show say now (see `Screen.messages`); what a screen said
    /// before is not kept twice.
    private func collectMessages() {
        func visit(_ screen: Screen) {
            let messages = screen.messages
            if !messages.isEmpty {
                // Named by the screen's identity without `String(describing:)`, whose dynamic
                // casts scan every conformance in the binary on the first frame.
                let source = String(UInt(bitPattern: ObjectIdentifier(screen)), radix: 16)
                for (index, text) in messages.enumerated() { messageLog.note(text, from: source + "#" + String(index)) }
            }
            for child in screen.visibleChildren { visit(child) }
        }
        visit(root)
        for modal in modals { visit(modal) }
    }

    /// Keeps a message the hint bar had to cut, so it can be read whole.
    private func noteCutStatus(_ text: String) {
        messageLog.note(text, from: "status")
    }

    // MARK: modals

    /// The presented modals the restoration engine saves: those whose policy allows it.
    public var restorableModals: [Screen] { modals.filter { $0.preservesWhilePresented } }

    /// Shows `modal` over everything, above any other modal; it takes every key (Ctrl-C still
    /// quits) until ``dismissModal(_:)``. ``Screen/present(_:)`` reaches it from any screen.
    public func presentModal(_ modal: Screen) {
        modal.owner = self
        modals.append(modal)
        modal.beginAppearing()
        needsDisplay = true
    }

    /// Takes `modal` off the screen, wherever it is among the presented modals; does nothing when
    /// it is not presented.
    public func dismissModal(_ modal: Screen) {
        guard let index = modals.lastIndex(where: { $0 === modal }) else { return }
        modals.remove(at: index)
        modal.beginDisappearing()
        needsDisplay = true
    }

    // MARK: drawing

    private var isTooSmall: Bool {
        terminal.size.columns < minimumSize.columns || terminal.size.rows < minimumSize.rows
    }

    /// Draws one whole frame and hands it to the terminal.
    public func render() {
        let size = terminal.size
        let target = FrameTarget(size: size)
        let canvas = Canvas(target: target, frame: Rect(size: size), capabilities: terminal.capabilities)
        if isTooSmall {
            TooSmallMessage.draw(in: canvas, minimum: minimumSize)
        } else {
            let (content, bar) = canvas.bounds.splitBottom(1)
            root.render(in: canvas.subcanvas(content))
            if !modals.isEmpty { target.buffer.cursor = nil }
            for modal in modals { modal.render(in: canvas.subcanvas(content)) }
            let status = (modals.last.map { Self.focusChain(from: $0) } ?? focusChain).last?.statusText
            if !HintBar.draw(in: canvas.subcanvas(bar), bindings: screenBindings, pinned: pinnedBindings, status: status), let status {
                noteCutStatus(status)
            }
            collectMessages()
        }
        terminal.present(target.buffer, full: needsFullRepaint)
        framesRendered += 1
        needsDisplay = false
        needsFullRepaint = false
        if let replaced = rootAwaitingFirstFrame, replaced === root {
            rootAwaitingFirstFrame = nil
            didPresentFirstFrame(replaced)
        }
    }
}
