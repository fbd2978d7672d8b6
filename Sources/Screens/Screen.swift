import KeyedArchive
import Restoration
import Terminal

/// A view-controller-like object: it owns a piece of state, draws it into the region it is
/// given, and handles events, passing what it does not handle to its parent.
///
/// Subclass it and override ``draw(in:)`` and ``keyBindings`` (or ``handle(_:)`` for text and
/// the mouse); call ``setNeedsDisplay()`` after changing what is drawn. Containers such as
/// ``NavigationStack`` and ``TabScreen`` hold other screens; an ``Application`` runs the tree.
///
/// Lifecycle, as in UIKit: ``viewDidLoad()`` once before the first appearance, then
/// ``viewWillAppear()`` / ``viewDidAppear()`` and ``viewWillDisappear()`` /
/// ``viewDidDisappear()`` each time a container shows or hides it.
///
/// A screen with a ``restorationIdentifier`` is saved with its ancestors: override
/// ``encodeRestorableState(with:)`` and ``decodeRestorableState(with:)`` for its own state.
open class Screen: Restorable {
    /// The name containers show: a tab's label, a step in a navigation path.
    open var title: String
    /// The name the restoration engine saves this screen under; nil means it is not preserved.
    public var restorationIdentifier: String?
    /// Identifiers this screen was saved under before a rename; archives naming it by one
    /// still restore it (see the naming rule in CONTRIBUTING.md).
    public var formerRestorationIdentifiers: [String] = []
    /// The registered restoration class that rebuilds this screen at launch, for screens the
    /// app creates in code (a pushed detail screen) rather than at start-up.
    public var restorationClassName: String?
    /// The container showing this screen, set by ``adopt(_:)``; `nil` for the root and for modals.
    public private(set) weak var parent: Screen?
    /// True once `viewDidLoad` has run.
    public private(set) var isViewLoaded = false
    /// True between `viewWillAppear` and `viewWillDisappear`: the screen is on the terminal.
    public private(set) var isVisible = false
    /// Where the screen was last drawn, in frame coordinates (mouse events are routed by it).
    public internal(set) var frame = Rect(x: 0, y: 0, width: 0, height: 0)

    /// A screen titled `title`; with a `restorationIdentifier` it is saved and restored with its parents.
    public init(title: String, restorationIdentifier: String? = nil) {
        self.title = title
        self.restorationIdentifier = restorationIdentifier
    }

    // MARK: containment

    /// Every child screen, shown or not (the restoration engine walks these).
    open var children: [Screen] { [] }
    /// The children on screen now: the selected tab, the top of a navigation stack.
    open var visibleChildren: [Screen] { [] }
    /// The child that receives key events first.
    open var focusedChild: Screen? { visibleChildren.last }

    /// Makes this screen `child`'s ``parent``: a container calls it for each screen it takes, so
    /// events, ``application`` and ``setNeedsDisplay()`` reach up through it.
    public func adopt(_ child: Screen) { child.parent = self }
    /// Clears `child`'s ``parent`` if it is this screen: a container calls it for each screen it
    /// lets go of (a popped screen).
    public func disown(_ child: Screen) { if child.parent === self { child.parent = nil } }

    /// The application this screen belongs to, found through its ancestors.
    public var application: Application? {
        var screen: Screen? = self
        while let current = screen {
            if let app = current.owner { return app }
            screen = current.parent
        }
        return nil
    }
    /// Set on the root screen and on presented modals; other screens reach the app through them.
    weak var owner: Application?

    // MARK: lifecycle

    /// Called once, before the screen first appears: build what the first frame needs.
    open func viewDidLoad() {}
    /// Called each time the screen is about to be shown.
    open func viewWillAppear() {}
    /// Called each time the screen has been shown.
    open func viewDidAppear() {}
    /// Called each time the screen is about to be hidden.
    open func viewWillDisappear() {}
    /// Called each time the screen has been hidden.
    open func viewDidDisappear() {}

    /// Called on the main thread after background work posted `Wakeup.post()`, on every screen
    /// in the tree, shown or not. Take the news from wherever the worker left it; return true
    /// if what the screen shows changed.
    open func handleWake() -> Bool { false }

    /// Called once, on the screens the first frame shows, after restoration and before that
    /// frame is drawn: load now what the frame needs (the map's data at the restored zoom), so
    /// the first frame is the complete one rather than a placeholder. Later frames never wait.
    open func prepareForFirstFrame() {}

    /// Called once, on every screen of the launch's tree, shown or not, straight after the
    /// first frame reached the terminal: start here what can wait for the frame (a search
    /// whose answer was restored), so it does not compete with drawing it.
    open func didPresentFirstFrame() {}


    /// Runs `viewDidLoad` if it has not run yet.
    public func loadViewIfNeeded() {
        guard !isViewLoaded else { return }
        isViewLoaded = true
        viewDidLoad()
    }

    /// Runs the appearance callbacks for this screen and the children it shows.
    public func beginAppearing() {
        guard !isVisible else { return }
        loadViewIfNeeded()
        viewWillAppear()
        isVisible = true
        for child in visibleChildren { child.beginAppearing() }
        viewDidAppear()
    }

    /// Runs the disappearance callbacks for this screen and the children it shows.
    public func beginDisappearing() {
        guard isVisible else { return }
        viewWillDisappear()
        for child in visibleChildren { child.beginDisappearing() }
        isVisible = false
        viewDidDisappear()
    }

    // MARK: restoration (the engine calls these; see Restorable)

    /// Every child with an identifier is considered; the engine skips the others.
    open var restorableChildren: [any Restorable] { children }
    /// Saves the screen's own state (a selection, a half-typed text) under keys of its choice.
    open func encodeRestorableState(with coder: KeyedArchiver) throws {}
    /// Reads back what `encodeRestorableState` saved. The archive may be damaged or old: check
    /// what is read and keep the screen usable whatever it holds.
    open func decodeRestorableState(with coder: KeyedUnarchiver) throws {}
    /// Given the children the engine found or rebuilt, in their saved order: a container
    /// puts them back (a navigation stack pushes them).
    open func restoreChildren(_ children: [any Restorable]) {}
    /// Called on every restored screen once the whole tree is restored.
    open func applicationFinishedRestoringState() {}
    /// Whether this screen, while presented as a modal, is saved and presented again at launch.
    /// Off by default: an alert or a confirmation belongs to a moment that has passed. A screen
    /// that turns it on needs an identifier and a restoration class.
    open var preservesWhilePresented: Bool { false }

    // MARK: drawing and events

    /// Draws the screen into `canvas`. Containers draw their children through `render`.
    open func draw(in canvas: Canvas) {}

    /// Draws `self` into `canvas`, remembering where, for mouse routing.
    public func render(in canvas: Canvas) {
        frame = canvas.frame
        draw(in: canvas)
    }

    /// Keys this screen answers to, with their help. The default `handle` runs them.
    open var keyBindings: [KeyBinding] { [] }

    /// True while a text field of this screen has focus: printable keys are text then, so
    /// single-letter commands such as `q` are not taken.
    open var acceptsTextInput: Bool { false }

    /// The root screen sees each key before the focused screen does, while no modal is up:
    /// for something the whole app offers for a moment (continuing another machine's place).
    /// `typing` is true while a text field has focus, when a printable key is text. Return true
    /// when the key was used; false lets it go on to the focused screen as usual.
    open func handleBeforeFocus(_ key: Key, typing: Bool) throws -> Bool { false }

    /// The screen is leaving the app for good (its tree is being replaced): save what the user
    /// typed and has not saved. Returns why that could not be done, and the tree is then kept.
    open func keepUnsavedWork() -> String? { nil }

    /// ``keepUnsavedWork()`` on this screen and everything below it, shown or not; the
    /// problems, if any.
    public func keepUnsavedWorkInTree() -> [String] {
        var problems: [String] = []
        if let problem = keepUnsavedWork() { problems.append(problem) }
        for child in children { problems += child.keepUnsavedWorkInTree() }
        return problems
    }

    /// A short status shown at the right of the hint bar (a filter being typed, a position).
    open var statusText: String? { nil }

    /// What the screen is telling the user now: a notice, an error under the page, a sync
    /// problem. Drawn by the screen as it likes (often cut to one line); the application keeps
    /// every new one in its message log, where `M` shows it whole.
    open var messages: [String] { [] }

    /// Handles an event that reached this screen: a key, a paste, a click or the wheel.
    ///
    /// The default runs the first of ``keyBindings`` whose keys hold the key pressed. Override it
    /// for text input or the mouse, and call `super` for the events left over.
    ///
    /// - Returns: `true` when the event was used; `false` lets the parent, then the application,
    ///   try it.
    /// - Throws: Whatever a binding's action throws; it ends the run loop and reaches the caller
    ///   of ``Application/run(exitAfterFirstFrame:)``.
    open func handle(_ event: Event) throws -> Bool {
        guard case .key(let key) = event else { return false }
        for binding in keyBindings where binding.keys.contains(key) {
            try binding.action(key)
            return true
        }
        return false
    }

    /// Asks for a new frame: the app redraws once, at the end of the current tick.
    public func setNeedsDisplay() { application?.setNeedsDisplay() }

    // MARK: modals

    /// Presents a modal over the whole app; it takes every event until dismissed.
    public func present(_ modal: Screen) {
        application?.presentModal(modal)
    }
}
