import KeyedArchive
import Terminal

/// A screen that pages through wrapped text. Its place is kept as a position in the text (the
/// UTF-8 offset of what is on the top line), not as a line number, so the same sentence stays
/// on top when the width changes and lines wrap differently.
///
/// By default it pages through `text`, wrapped whole. A subclass that lays out its own text
/// (a book too big to hold as a string) gives its lines through `pagedLines()` and draws its
/// own page; the motion, the keys and the place stay here.
open class PagerScreen: Screen {
    /// The text paged through when no subclass lays out its own; setting it goes back to the
    /// top and redraws.
    public var text: String {
        didSet {
            wrapped = nil
            anchor = 0
            setNeedsDisplay()
        }
    }
    /// The place: the page shown is the one whose top line holds this offset.
    public var anchor = 0
    /// The geometry of the last frame (keys before the first frame use these).
    public private(set) var textWidth = 72
    /// Rows of text a page shows, from the last frame.
    public private(set) var pageHeight = 20
    /// How a page moves; scrolling unless the subclass turns pages.
    public var paging = Paging.scrolling
    /// The keys for a page on and a page back, beside PgDn/PgUp.
    public var pageKeys: (next: [Key], previous: [Key]) = ([.pageDown, .character(" ")], [.pageUp, .character("b")])
    /// The line and end keys, with their help.
    public var motionKeys = MotionKeys(lineHelp: "Scroll a line")
    private var wrapped: WrappedString?

    /// A pager over `text`, wrapped to the width it is drawn at.
    public init(title: String, text: String, restorationIdentifier: String? = nil) {
        self.text = text
        super.init(title: title, restorationIdentifier: restorationIdentifier)
    }

    /// The lines paged through, laid out at `textWidth`: `text` wrapped, unless a subclass
    /// lays out its own; nil when there is nothing to page through.
    open func pagedLines() -> (any PagedLines)? { wrappedText() }

    /// Takes the width and height of the text area of the frame being drawn.
    public func adoptPageSize(width: Int, height: Int) {
        textWidth = max(1, width)
        pageHeight = max(1, height)
    }

    /// Shows the page at `offset`; a subclass saves the place here.
    open func move(to offset: Int) {
        anchor = offset
        setNeedsDisplay()
    }

    /// The page is already at the end `motion` goes to; a subclass may say so.
    open func cannotMove(_ motion: Motion) {}

    /// Moves as `motion` asks, by the `paging` rule.
    public func go(_ motion: Motion) {
        guard let lines = pagedLines(), lines.position(of: anchor) != nil else { return }
        if let target = paging.target(of: motion, from: anchor, height: pageHeight, in: lines) {
            move(to: target)
        } else {
            cannotMove(motion)
        }
    }

    /// Moves the view `delta` rows down (up when negative), kept within the text.
    public func scroll(by delta: Int) { go(.lines(delta)) }

    /// Page on, page back, then the line and end keys.
    public var pagerBindings: [KeyBinding] {
        [
            KeyBinding(pageKeys.next, label: "Space", help: "Next page") { [unowned self] in self.go(.pages(1)) },
            KeyBinding(pageKeys.previous, label: "b", help: "Previous page") { [unowned self] in self.go(.pages(-1)) },
        ] + motionKeys.bindings { [unowned self] in self.go($0) }
    }

    /// The pager's keys (``pagerBindings``); a subclass adds its own to these.
    open override var keyBindings: [KeyBinding] { pagerBindings }

    /// Turns the mouse wheel into a few lines of motion (never a page, even where keys turn
    /// pages), and hands every other event to ``Screen/handle(_:)``.
    open override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            guard let motion = Motion(wheel: mouse, rowsShown: pageHeight) else { return false }
            go(motion)
            return true
        }
        return try super.handle(event)
    }

    // MARK: text held as a string

    private func wrappedText() -> WrappedString? {
        if let wrapped, wrapped.width == textWidth { return wrapped }
        wrapped = WrappedString(text, width: textWidth)
        return wrapped
    }

    /// The place as a UTF-8 offset into `text`, snapped to the character boundary at or before
    /// it: what is saved and restored.
    public var anchorOffset: Int {
        get { anchor }
        set {
            let clamped = min(max(0, newValue), text.utf8.count)
            let raw = text.utf8.index(text.startIndex, offsetBy: clamped)
            // Snap to the character boundary at or before the offset (runs once, on restore).
            var boundary = text.startIndex
            for index in text.indices {
                if index > raw { break }
                boundary = index
            }
            anchor = text.utf8.distance(from: text.startIndex, to: boundary)
            setNeedsDisplay()
        }
    }

    /// Saves the place: ``anchorOffset``.
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        coder.encode(anchorOffset, forKey: SavedKey.anchorOffset)
    }

    /// Restores the place, snapped to a character boundary inside the text.
    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        anchorOffset = try coder.decodeInteger(forKey: SavedKey.anchorOffset)
    }

    /// How far down the text the page's last line is (nil until `text` is first drawn).
    open override var statusText: String? {
        guard let wrapped, wrapped.width == textWidth, wrapped.count > 0, let top = wrapped.position(of: anchor) else { return nil }
        let last = min(wrapped.count, top.index + pageHeight)
        return "\(last * 100 / wrapped.count)%"
    }

    /// Draws the page of ``text`` at the place, with a margin each side, and takes the
    /// canvas's size as the page's for the next keys.
    open override func draw(in canvas: Canvas) {
        let margin = canvas.width >= 60 ? 2 : 1
        adoptPageSize(width: canvas.width - 2 * margin, height: canvas.height)
        guard let lines = wrappedText() else { return }
        for (row, position) in paging.page(at: anchor, height: pageHeight, in: lines).enumerated() {
            canvas.write(String(lines.line(at: position)), x: margin, y: row)
        }
    }
}
