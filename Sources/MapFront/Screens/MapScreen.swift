import Defaults
import FoundationEssentials
import KeyedArchive
import Screens
import Terminal

/// The Map tab: Pigeon's world map, its remembered place and the arrow to it.
///
/// The screen owns the view (a `MapViewState`), reads its settings from the store on every
/// change, and draws the world through a `MapDrawing` and the current location through a
/// `LocationSource`, both given to it, so tests can hand it fakes and the app the real ones.
public final class MapScreen: Screen {
    public static let restorationID = "Map"
    /// The zoom a search result is shown at, unless the map is already closer: about a
    /// region's width on an 80-column terminal.
    public static let placeZoom = 6
    /// The zoom used the first time the map follows a location (no saved view yet).
    public static let locationZoom = 4
    /// A place further than this from the pin is not offered as its title.
    static let nearbyPlaceDistance = 50_000.0

    public let drawer: MapDrawing
    public let location: LocationSource
    public let store: PreferenceStore

    public internal(set) var state: MapViewState
    public internal(set) var preferences: MapPreferences
    public internal(set) var pin: MapPin?
    /// What the drawer said about its data in the last frame.
    public internal(set) var dataStatus: MapDataStatus = .ready
    /// A one-off message (where a pin was put, why a key did nothing), gone at the next key.
    public internal(set) var notice: String?

    /// The map area in the last frame, in frame coordinates: mouse positions and the size of
    /// a pan step are measured against it.
    var mapArea = Rect(x: 0, y: 0, width: 80, height: 20)
    var drag: (start: Point, viewport: MapViewport)?
    private var observation: PreferenceObservation?
    private var cachedSearch: (count: Int, search: PlaceSearch)?
    /// The place finder while it is open: saved with the map, so a relaunch opens it again
    /// with the name as it was typed.
    var keptSearch = KeptQuestion()

    public init(drawer: MapDrawing, location: LocationSource, store: PreferenceStore, restorationIdentifier: String = MapScreen.restorationID) {
        self.drawer = drawer
        self.location = location
        self.store = store
        preferences = MapPreferences(store: store)
        pin = MapPin.load(from: store)
        state = MapViewState()
        super.init(title: "Map", restorationIdentifier: restorationIdentifier)
        if let fix = location.currentFix, preferences.tracking != .none {
            state.viewport = MapViewport(exactly: fix.coordinate, zoom: Self.locationZoom)
        }
        observation = store.addChangeObserver { [weak self] keys in
            guard let self, !keys.isDisjoint(with: MapPreferences.watchedKeys) else { return }
            self.storeDidChange(keys)
        }
    }

    /// Starts reading, in the background, the data a first frame of this viewport will show, so
    /// it is read while the rest of the app launches. The app calls it when it knows the map
    /// comes first (a new user); a restored map calls it itself once its viewport is decoded.
    public func beginLoadingForFirstFrame() {
        drawer.beginLoading(state.viewport, type: preferences.mapType)
    }

    deinit { location.stop() }

    public override func viewDidLoad() {
        location.start()
    }

    public override func viewWillAppear() {
        followLocationIfTracking()
    }

    public override func viewDidAppear() {
        if let question = keptSearch.takeQuestionToAskAgain() { presentSearch(typed: question.field) }
    }

    // MARK: drawing and restoration (the work is in the +Drawing and +Restoration files)

    public override func draw(in canvas: Canvas) { drawScreen(in: canvas) }
    public override func prepareForFirstFrame() { drawer.loadNow(state.viewport, type: preferences.mapType) }
    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try encodeState(with: coder)
        try keptSearch.encode(with: coder)
    }
    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        decodeState(with: coder)
        try? keptSearch.decode(with: coder)  // a damaged draft costs the draft only
        // The tab bar is decoded before its tabs, so it already knows whether the map is shown.
        if (parent as? TabScreen).map({ $0.selectedTab === self }) ?? true { beginLoadingForFirstFrame() }
    }

    // MARK: news from elsewhere

    /// Settings changed here, in the settings sheet, in `wonderland settings` or by sync: the
    /// map follows at once, as Pigeon's restoreAnnotation does for a pin changed elsewhere.
    private func storeDidChange(_ keys: Set<String>) {
        let before = preferences
        preferences = MapPreferences(store: store)
        if keys.contains(MapDefaultsKey.savedLocation) { pin = MapPin.load(from: store) }
        if keys.contains(MapDefaultsKey.followHeading) && before.tracking != preferences.tracking {
            state.trackingPaused = false
            followLocationIfTracking()
        }
        setNeedsDisplay()
    }

    /// A fix from the location source, map data finished loading in the background, or both.
    public override func handleWake() -> Bool {
        let moved = location.refresh()
        let loaded = drawer.takeLoadedData()
        if moved { followLocationIfTracking() }
        return moved || loaded
    }

    /// Keeps the current location centred while following (and not paused by a hand pan).
    @discardableResult
    func followLocationIfTracking() -> Bool {
        guard preferences.tracking != .none, !state.trackingPaused, let fix = location.currentFix, fix.coordinate.isValid else { return false }
        let center = fix.coordinate
        guard state.viewport.center != center else { return false }
        state.center(on: center)
        return true
    }

    public var isFollowing: Bool {
        preferences.tracking != .none && !state.trackingPaused && location.currentFix != nil
    }

    // MARK: moving the map

    /// Moves by a quarter of the visible map, so a step feels the same at every zoom and size.
    func panStep(columns: Int, rows: Int) {
        pan(dotsX: Double(columns * max(1, mapArea.width / 4) * 2), dotsY: Double(rows * max(1, mapArea.height / 4) * 4))
    }

    func pan(dotsX: Double, dotsY: Double) {
        state.pan(dotsX: dotsX, dotsY: dotsY)
        pauseTracking()
    }

    /// A hand move ends following until asked again; the setting stays as it is.
    func pauseTracking() {
        if preferences.tracking != .none { state.trackingPaused = true }
    }

    /// Zooms around the centre with keys; around the pointer with the wheel over the map,
    /// unless the map is following, when the location must stay in the middle.
    func zoom(by steps: Int, around position: Point? = nil) {
        guard let position, mapArea.contains(position), !isFollowing else {
            state.zoom(by: steps)
            return
        }
        let dx = Double(position.x - mapArea.x) * 2 + 1 - Double(mapArea.width)
        let dy = Double(position.y - mapArea.y) * 4 + 2 - Double(mapArea.height * 2)
        state.zoom(by: steps, keepingDotOffsetX: dx, y: dy)
    }

    public func centerOnLocation() {
        state.trackingPaused = false
        guard let fix = location.currentFix else {
            notice = "No current location yet (\(location.statusText))."
            return
        }
        state.center(on: fix.coordinate)
    }

    public func centerOnPin() {
        guard let pin else { return }
        state.center(on: pin.coordinate)
        pauseTracking()
    }

    public func cycleMapType() {
        let wanted = preferences.mapType.next
        var saveError: Error?
        do { try MapPreferences.write(wanted, to: store) } catch { saveError = error }
        preferences = MapPreferences(store: store)
        if preferences.mapType != wanted { notice = Self.overriddenNotice(MapDefaultsKey.mapType) }
        if let saveError { notice = Self.notSavedNotice(saveError) }
    }

    public func cycleTracking() {
        let wanted = preferences.tracking.next
        var saveError: Error?
        do { try MapPreferences.write(wanted, to: store) } catch { saveError = error }
        preferences = MapPreferences(store: store)
        state.trackingPaused = false
        if preferences.tracking != wanted { notice = Self.overriddenNotice(MapDefaultsKey.followHeading) }
        if let saveError { notice = Self.notSavedNotice(saveError) }
        followLocationIfTracking()
    }

    /// A `-Key value` on the command line outranks what the app saves, as in NSUserDefaults.
    static func overriddenNotice(_ key: String) -> String {
        "Saved, but -\(key) on the command line decides for this run."
    }

    public func selectPlace(_ place: Place) {
        state.selectedPlace = SelectedPlace(name: place.name, coordinate: place.coordinate)
        state.viewport = MapViewport(exactly: place.coordinate, zoom: max(state.viewport.zoom, Self.placeZoom))
        pauseTracking()
    }

    /// The search over the drawer's places, folded once per set of places.
    var placeSearch: PlaceSearch {
        let places = drawer.places()
        if let cached = cachedSearch, cached.count == places.count { return cached.search }
        let search = PlaceSearch(places: places)
        cachedSearch = (places.count, search)
        return search
    }

    // MARK: keys and mouse

    public override var keyBindings: [KeyBinding] {
        var bindings = [
            KeyBinding([.left, .right, .up, .down], label: "←↑↓→", help: "Pan (a quarter of the view; pauses following)") { [unowned self] key in
                switch key {
                case .left: self.panStep(columns: -1, rows: 0)
                case .right: self.panStep(columns: 1, rows: 0)
                case .up: self.panStep(columns: 0, rows: -1)
                default: self.panStep(columns: 0, rows: 1)
                }
            },
            KeyBinding([.character("h"), .character("j"), .character("k"), .character("l")], label: "hjkl", help: "Pan (vi keys)", showsInHintBar: false) { [unowned self] key in
                switch key {
                case .character("h"): self.panStep(columns: -1, rows: 0)
                case .character("l"): self.panStep(columns: 1, rows: 0)
                case .character("k"): self.panStep(columns: 0, rows: -1)
                default: self.panStep(columns: 0, rows: 1)
                }
            },
            KeyBinding([.character("+"), .character("="), .character("-")], label: "+/-", help: "Zoom (in and out around the centre; = is +)") { [unowned self] key in
                self.zoom(by: key == .character("-") ? -1 : 1)
            },
            KeyBinding(.character("/"), help: "Find a place (by name; accents do not matter)") { [unowned self] in self.presentSearch() },
            KeyBinding(.character("r"), help: "Remember this place (a pin where you are, titled)") { [unowned self] in
                self.presentRememberPrompt()
            },
        ]
        if pin != nil {
            bindings += [
                KeyBinding(.character("p"), help: "Go to pin") { [unowned self] in self.centerOnPin() },
                KeyBinding(.character("c"), help: "Clear pin (asks first)") { [unowned self] in self.presentClearConfirmation() },
            ]
        }
        bindings += [
            KeyBinding(.character("m"), help: "Map type (standard, satellite, hybrid; saved)") { [unowned self] in self.cycleMapType() },
            KeyBinding(.character("t"), help: "Tracking (none, follow, follow with heading; saved)") { [unowned self] in self.cycleTracking() },
            KeyBinding(.character("."), help: "Centre on me (resumes following)") { [unowned self] in self.centerOnLocation() },
        ]
        if state.selectedPlace != nil {
            bindings.append(KeyBinding(.escape, help: "Unselect place") { [unowned self] in self.state.selectedPlace = nil })
        }
        // Listed in the help overlay only: no key fires it. Help texts stay within the
        // overlay's 52 columns.
        bindings.append(KeyBinding([], label: "Mouse", help: "Drag pans; wheel zooms at the pointer (or on you)", showsInHintBar: false) {})
        return bindings
    }

    public override var messages: [String] { notice.map { [$0] } ?? [] }

    public override func handle(_ event: Event) throws -> Bool {
        switch event {
        case .key:
            // A notice answers the key before; the next key starts afresh.
            notice = nil
            return try super.handle(event)
        case .mouse(let mouse):
            return handleMouse(mouse)
        default:
            return false
        }
    }

    /// Moves the world with the pointer, from where the drag started: the centre goes the
    /// other way.
    private func drag(to position: Point) {
        guard let drag, position != drag.start else { return }
        var moved = MapViewState(viewport: drag.viewport)
        moved.pan(dotsX: -Double(position.x - drag.start.x) * 2, dotsY: -Double(position.y - drag.start.y) * 4)
        state.viewport = moved.viewport
        pauseTracking()
    }

    private func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .wheelUp:
            zoom(by: 1, around: mouse.position)
        case .wheelDown:
            zoom(by: -1, around: mouse.position)
        case .press where mouse.button == .left && mapArea.contains(mouse.position):
            drag = (mouse.position, state.viewport)
        case .drag:
            drag(to: mouse.position)
        case .release:
            // A busy terminal may hand over press, moves and release in one read, and curses
            // then drops the moves: where the button came up is where the drag ended.
            drag(to: mouse.position)
            drag = nil
        default:
            return false
        }
        return true
    }
}
