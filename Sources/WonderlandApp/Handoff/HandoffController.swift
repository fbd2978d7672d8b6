import BookFront
import Cloud
import Defaults
import FoundationEssentials
import Platform
import PropertyList
import Restoration
import Screens
import Terminal

/// Handoff: keeps this machine's activity in the synced store while Handoff is on, and offers
/// another machine's newer place on the tab bar; `h` rebuilds the screen tree from it through
/// the restoration engine, as a launch does.
///
/// The activity is the tree preserved as the quit-time save preserves it (with drafts only when
/// the user lets them travel, and within `HandoffSettings.maximumBytes`), made at the idle
/// moment after the user moved, written only when the place changed. Taking an offer saves
/// this machine's place and its drafts first (a draft is saved as its note, so a note continued
/// from elsewhere keeps both texts), restores the activity into a new tree, and replaces the old
/// one only if the new one was read whole; an activity whose taking stopped the app is never
/// offered again.
public final class HandoffController: ApplicationLifecycleObserver {
    /// `--continue` (the newest other machine) or `--continue=NAME` (a device's name or id).
    public enum ContinueRequest: Equatable, Sendable {
        case newest
        case device(String)
    }

    private let services: AppServices
    private let cloud: CloudController
    private weak var restoration: RestorationController?
    private let makeRoot: (AppServices) -> Screen
    private let makeEngine: (AppServices) -> RestorationEngine
    private let engine: RestorationEngine
    private let quarantine: HandoffQuarantine?
    private let appVersion: String
    private let continueRequest: ContinueRequest?
    private let now: () -> Date
    private weak var application: Application?

    private var choice = HandoffOfferChoice()
    /// Offers read from the store, by key, with the stamp of the record they were read from.
    private var readOffers: [String: (stamp: ChangeStamp, offer: HandoffOffer?)] = [:]
    /// Input events handled when the place was last looked at: no new input, no move.
    private var inputAtLastLook = -1
    /// What the store was last given, so an unchanged place is not written again.
    private var published: PropertyListValue?
    private var notices: [String] = []
    /// The activity continued from another machine, offered on as it came until the user moves.
    private var continued: HandoffActivity?
    private var settingsObservation: PreferenceObservation?

    public init(services: AppServices, cloud: CloudController, restoration: RestorationController?,
                makeRoot: @escaping (AppServices) -> Screen, makeEngine: @escaping (AppServices) -> RestorationEngine,
                quarantine: HandoffQuarantine?, appVersion: String, continueRequest: ContinueRequest? = nil,
                now: @escaping () -> Date = Date.init) {
        self.services = services
        self.cloud = cloud
        self.restoration = restoration
        self.makeRoot = makeRoot
        self.makeEngine = makeEngine
        self.engine = makeEngine(services)
        self.quarantine = quarantine
        self.appVersion = appVersion
        self.continueRequest = continueRequest
        self.now = now
        // Before the mirror opens the store: Handoff alone keeps it open.
        cloud.mirror.alsoOpenedBy = [HandoffSettings.enabledKey]
        cloud.mirror.willClose = { [weak self] store in self?.storeWillClose(store) }
        services.handoff.take = { [weak self] in self?.takeOffer() }
        services.handoff.dismiss = { [weak self] in self?.dismissOffer() }
    }

    private var isOn: Bool { HandoffSettings.isOn(services.store) }
    private var store: UbiquitousKeyValueStore? { cloud.mirror.store }
    private func ownKey(_ store: UbiquitousKeyValueStore) -> String { HandoffSettings.storePrefix + store.device.rawValue }

    // MARK: lifecycle

    public func applicationDidFinishLaunching(_ application: Application) {
        self.application = application
        if let stopped = quarantine?.quarantineUnfinished() {
            notices.append("Continuing a place from another machine stopped wonderland last time (its activity of \(HandoffOffer.moment(stopped.when, now: now()))), so it is not offered again.")
        }
        choice.quarantined = quarantine?.entries() ?? []
        choice.placeTime = restoration?.restoredPlaceTime
        settingsObservation = services.store.addChangeObserver { [weak self] keys in
            guard let self, keys.contains(HandoffSettings.enabledKey) || keys.contains(HandoffSettings.draftsKey)
                    || keys.contains(HandoffSettings.deviceNameKey) else { return }
            self.settingsChanged()
        }
        if let continueRequest { continueAtLaunch(continueRequest, in: application) }
    }

    public func applicationDidPresentFirstFrame(_ application: Application) {
        // The place restored, as an activity would hold it: an offer of the same place is none.
        lookAtPlace(in: application, moved: false)
        refreshOffers(in: application)
        tellNotices(application)
    }

    public func applicationDidWake(_ application: Application) { refreshOffers(in: application) }

    public func applicationDidBecomeIdle(_ application: Application) {
        if application.inputEventsHandled != inputAtLastLook { lookAtPlace(in: application, moved: true) }
        refreshOffers(in: application)
        tellNotices(application)
    }

    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {
        settingsObservation = nil
    }

    // MARK: this machine's activity

    /// Builds the activity of the tree on show; when it differs from the last one, the user
    /// moved: the place's time is now, and the store gets it (Handoff on).
    private func lookAtPlace(in application: Application, moved: Bool) {
        inputAtLastLook = application.inputEventsHandled
        guard isOn, let built = activity(of: application) else { return }
        if choice.ownPlace != built.place {
            // The place a launch restored keeps the time it was saved; a first launch has none
            // yet, so any other machine's place is newer.
            if moved {
                choice.placeTime = now()
                if choice.ownPlace != nil { continued = nil }
            }
            choice.ownPlace = built.place
        }
        choice.continuedPlace = continued?.place
        publish(continued ?? built)
    }

    /// A launch that restored nothing and has not moved yet has no place to offer anyone.
    private func publish(_ built: HandoffActivity) {
        guard isOn, let store, let placeTime = choice.placeTime else { return }
        var activity = built
        activity.when = placeTime
        let value = activity.propertyList
        guard value != published else { return }
        do throws(KeyValueStoreLimitError) {
            try store.setValues([ownKey(store): value])
            published = value
        } catch {
            services.cloudStatus.addNote("Handoff: this machine's place was not sent: \(error)")
        }
    }

    /// The tree on show as an activity, drafts as the settings say and as room allows.
    func activity(of application: Application) -> HandoffActivity? {
        let drafts = HandoffSettings.includesDrafts(services.store)
        let chain = application.focusChain
        let draftBytes = chain.lazy.compactMap { ($0 as? CharacterDetailScreen)?.draftBytes }.first
        var draft: HandoffActivity.Draft = drafts && draftBytes != nil ? .included : .none
        // A draft larger than an activity is left out before it is encoded, not after: a long
        // note would otherwise be archived twice at every idle moment for nothing.
        if draft == .included, let bytes = draftBytes, bytes > HandoffSettings.maximumBytes { draft = .leftOut }
        guard var place = preserve(application, includingDrafts: draft == .included) else { return nil }
        var activity = HandoffActivity(deviceName: HandoffSettings.deviceName(services.store), appVersion: appVersion,
                                       when: choice.placeTime ?? now(), path: Self.path(of: chain), draft: draft, place: place)
        if Self.storedBytes(activity) > HandoffSettings.maximumBytes, draft == .included,
           let without = preserve(application, includingDrafts: false) {
            place = without
            draft = .leftOut
            activity.place = place
            activity.draft = draft
        }
        guard Self.storedBytes(activity) <= HandoffSettings.maximumBytes else { return nil }
        return activity
    }

    private func preserve(_ application: Application, includingDrafts drafts: Bool) -> Data? {
        // No time and no size in the header: the same place makes the same bytes everywhere.
        let header = RestorationHeader(appVersion: appVersion, timestamp: Date(timeIntervalSince1970: 0), terminalColumns: 0, terminalRows: 0)
        var engine = self.engine
        engine.duplicatePolicy = .skipAndLog
        return try? RestorationPurpose.$current.withValue(.handoff(includesDrafts: drafts)) {
            try engine.preserve(root: application.root, header: header).data
        }
    }

    /// Titles from the tab down to the screen on show, each once: Characters › Cheshire Cat.
    static func path(of chain: [Screen]) -> [String] {
        var titles: [String] = []
        for screen in chain.dropFirst() where screen.restorationIdentifier != nil {
            let title = screen.title.trimmingSpaces()
            if !title.isEmpty, titles.last != title { titles.append(title) }
        }
        return titles
    }

    static func storedBytes(_ activity: HandoffActivity) -> Int {
        ((try? BinaryPropertyListWriter.data(from: activity.propertyList))?.count ?? .max) + 64
    }

    private func settingsChanged() {
        guard let application else { return }
        if isOn {
            published = nil
            lookAtPlace(in: application, moved: false)
        } else {
            if let store, store.record(forKey: ownKey(store))?.isRemoval == false { store.removeObject(forKey: ownKey(store)) }
            published = nil
            choice.ownPlace = nil
            continued = nil
        }
        refreshOffers(in: application)
    }

    /// The last word before the store closes (quit, Handoff or syncing turned off, another
    /// folder): the latest place, or none when Handoff is off or the user asked to be forgotten.
    private func storeWillClose(_ store: UbiquitousKeyValueStore) {
        let key = ownKey(store)
        let quitting = application?.terminationReason != nil
        if !isOn || (quitting && HandoffSettings.forgetsOnQuit(services.store)) {
            if store.record(forKey: key)?.isRemoval == false { store.removeObject(forKey: key) }
            published = nil
        } else if let application, application.inputEventsHandled != inputAtLastLook {
            lookAtPlace(in: application, moved: true)
        }
    }

    // MARK: offers

    /// Every other machine's activity, read again only where its record changed.
    private func candidates(in store: UbiquitousKeyValueStore) -> [HandoffOffer] {
        let own = ownKey(store)
        var offers: [HandoffOffer] = []
        var kept: [String: (stamp: ChangeStamp, offer: HandoffOffer?)] = [:]
        for key in store.keys(withPrefix: HandoffSettings.storePrefix) where key != own {
            guard let record = store.record(forKey: key) else { continue }
            if let cached = readOffers[key], cached.stamp == record.stamp {
                kept[key] = cached
            } else {
                kept[key] = (record.stamp, store.object(forKey: key).flatMap { Self.offer(key: key, value: $0, now: now()) }.map(checkedAgainstThisVersion))
            }
            if let offer = kept[key]?.offer { offers.append(offer) }
        }
        readOffers = kept
        return offers
    }

    static func offer(key: String, value: PropertyListValue, now: Date) -> HandoffOffer? {
        switch HandoffActivity.read(value, now: now) {
        case .activity(let activity):
            return HandoffOffer(key: key, deviceName: activity.deviceName, when: activity.when, activity: activity)
        case .newer(let name, let when):
            return when.map { HandoffOffer(key: key, deviceName: name, when: $0, activity: nil) }
        case .unreadable:
            return nil
        }
    }

    /// A newer version's place holding screens this one does not know is shown as from a newer
    /// wonderland, before anyone tries to take it: the check walks the saved tree beside this
    /// version's own, decoding nothing into it.
    private func checkedAgainstThisVersion(_ offer: HandoffOffer) -> HandoffOffer {
        guard let activity = offer.activity, ArchiveVersions.isNewer(activity.appVersion, than: appVersion),
              let root = application?.root else { return offer }
        let unknown = (try? engine.unknownParts(in: activity.place, comparedWith: root)) ?? 1
        guard unknown > 0 else { return offer }
        var shown = offer
        shown.activity = nil
        return shown
    }

    private func refreshOffers(in application: Application) {
        var offer: HandoffOffer?
        if isOn, let store { offer = choice.offer(among: candidates(in: store)) }
        guard offer != services.handoff.offer else { return }
        services.handoff.offer = offer
        application.setNeedsDisplay()
    }

    private func dismissOffer() {
        guard let offer = services.handoff.offer else { return }
        choice.dismissed[offer.key] = offer.when
        services.handoff.offer = nil
        application?.setNeedsDisplay()
    }

    private func takeOffer() {
        guard let application, let offer = services.handoff.offer else { return }
        services.handoff.offer = nil
        choice.dismissed[offer.key] = offer.when
        if let problem = take(offer, in: application) { notices.append(problem) }
        tellNotices(application)
        application.setNeedsDisplay()
    }

    /// Rebuilds the tree from `offer` and puts it on show; the reason when it did not.
    func take(_ offer: HandoffOffer, in application: Application) -> String? {
        guard let activity = offer.activity else {
            return "The place on \(offer.deviceName) is from a newer wonderland; this one cannot continue it."
        }
        let shown = application.root.isVisible
        if shown {
            restoration?.save(application, reason: "before continuing from another machine")
        } else {
            restoration?.launchRestoreIsOver()
        }
        let entry = HandoffQuarantine.Entry(key: offer.key, when: offer.when)
        try? quarantine?.markTaking(entry)
        defer { quarantine?.taken() }
        let fresh = services.forReplacementTree()
        let tree = makeRoot(fresh)
        var modals: [Screen] = []
        do {
            let report = try makeEngine(fresh).restore(from: activity.place, root: tree, presentModal: { modal in
                if let screen = modal as? Screen { modals.append(screen) }
            })
            // An older version's place restores what it can, as a launch does with its archive;
            // a newer one's that this version cannot read whole is not applied at all.
            guard report.readWhole || !ArchiveVersions.isNewer(activity.appVersion, than: appVersion) else {
                return "The place on \(activity.deviceName) is from a newer wonderland and holds screens this one does not know; it was not applied."
            }
        } catch let error as RestorationError where error.isNewerFormat {
            return "The place on \(activity.deviceName) is from a newer wonderland; it was not applied."
        } catch {
            return "The place on \(activity.deviceName) could not be continued: \(error)."
        }
        let problems = application.root.keepUnsavedWorkInTree() + application.modals.flatMap { $0.keepUnsavedWorkInTree() }
        guard problems.isEmpty else {
            return "Not continued from \(activity.deviceName), so nothing typed here is lost: " + problems.joined(separator: "; ") + "."
        }
        application.replaceRoot(with: tree)
        for modal in modals { application.presentModal(modal) }
        if shown {
            application.render()
            restoration?.save(application, reason: "continued from another machine")
        }
        // The place is now the one continued: no offer of it, and the others are told.
        var mine = activity
        mine.deviceName = HandoffSettings.deviceName(services.store)
        continued = mine
        choice.placeTime = now()
        choice.ownPlace = nil
        published = nil
        if shown { lookAtPlace(in: application, moved: false) }
        return nil
    }

    // MARK: --continue

    private func continueAtLaunch(_ request: ContinueRequest, in application: Application) {
        guard isOn else {
            notices.append("--continue: Handoff is off on this machine (Settings › Sync › Handoff); your own place is restored.")
            return
        }
        guard let store else {
            notices.append("--continue: the synced store is not open; your own place is restored.")
            return
        }
        Self.synchronize(store, within: 3)
        cloud.processChanges()
        let offers = candidates(in: store).filter { offer in
            guard case .device(let wanted) = request else { return true }
            return offer.deviceName.lowercased() == wanted.lowercased() || offer.key == HandoffSettings.storePrefix + wanted
        }
        guard let newest = offers.max(by: { $0.when < $1.when }) else {
            let names = candidates(in: store).map(\.deviceName)
            let asked = { if case .device(let name) = request { return " from \(name)" } else { return "" } }()
            notices.append("--continue: no place\(asked) to continue" + (names.isEmpty ? "" : " (places from: \(names.joined(separator: ", ")))") + "; your own place is restored.")
            return
        }
        if let problem = take(newest, in: application) { notices.append(problem) }
        choice.dismissed[newest.key] = newest.when
    }

    /// One sync pass, waited for at most `seconds`: a launch asked to continue wants the newest
    /// places, but a server that does not answer must not hold the first frame.
    static func synchronize(_ store: UbiquitousKeyValueStore, within seconds: Double) {
        final class Finished: @unchecked Sendable {
            let condition = Condition()
            var value = false
        }
        let finished = Finished()
        let started = startThread(name: "wonderland-handoff-sync") {
            store.synchronize()
            finished.condition.withLock {
                finished.value = true
                finished.condition.signal()
            }
        }
        guard started else { return }
        let deadline = Deadline.after(seconds: seconds)
        finished.condition.withLock {
            while !finished.value { if !finished.condition.wait(until: deadline) { break } }
        }
    }

    // MARK: telling

    private func tellNotices(_ application: Application) {
        guard !notices.isEmpty, application.state == .active else { return }
        let alert = Alert(title: "Handoff", message: notices.joined(separator: "\n"))
        notices = []
        alert.passesOtherKeysOn = true
        application.presentModal(alert)
    }
}
