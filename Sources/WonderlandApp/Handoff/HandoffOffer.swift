import FoundationEssentials
import Platform

/// One other machine's activity as this one may offer it.
public struct HandoffOffer: Equatable, Sendable {
    /// The store key it came under (`WLHandoff.<device id>`): what a dismissal remembers.
    public var key: String
    public var deviceName: String
    public var when: Date
    /// Nil for an activity this version cannot read whole: shown, never applied.
    public var activity: HandoffActivity?

    public var isFromNewerVersion: Bool { activity == nil }

    /// The tab bar's words. A time of day rather than "2 min ago", so the line stays true
    /// without a redraw.
    public func text(now: Date) -> String {
        let at = Self.moment(when, now: now)
        guard let activity else { return "\(deviceName) (\(at)) has a place from a newer wonderland; not applied" }
        return "Continue from \(deviceName) (\(at)): \(activity.summary)"
    }

    /// The key that takes it, kept whole when the text is cut: nil when it cannot be taken.
    public func keyHint(typing: Bool) -> String? {
        guard activity != nil else { return nil }
        return typing ? " — Esc, then h" : " — h"
    }

    /// "14:02" today, "2026-12-01 14:02" on another day, in local time.
    static func moment(_ date: Date, now: Date) -> String {
        guard let at = LocalTime(secondsSince1970: date.timeIntervalSince1970) else { return "?" }
        let clock = cFormat("%02d:%02d", at.hour, at.minute)
        if let today = LocalTime(secondsSince1970: now.timeIntervalSince1970),
           (today.year, today.month, today.day) == (at.year, at.month, at.day) { return clock }
        return cFormat("%04d-%02d-%02d ", at.year, at.month, at.day) + clock
    }
}

/// Which activity, if any, the tab bar offers: another device's, newer than this machine's
/// place, at another place, neither dismissed nor quarantined. The newest such wins.
public struct HandoffOfferChoice: Equatable, Sendable {
    /// When this machine's user last moved (or the restored place was saved).
    public var placeTime: Date?
    /// This machine's place as an activity would hold it: an activity at the same place is
    /// no offer.
    public var ownPlace: Data?
    /// The place continued from another machine, until the user moves: what this machine now
    /// offers the others, byte for byte, so the machine it came from is offered nothing back.
    public var continuedPlace: Data?
    /// Per key, the time of the newest activity the user waved away: only a newer one comes back.
    public var dismissed: [String: Date] = [:]
    /// Activities whose taking stopped the app: never offered again.
    public var quarantined: Set<HandoffQuarantine.Entry> = []

    public init(placeTime: Date? = nil, ownPlace: Data? = nil) {
        self.placeTime = placeTime
        self.ownPlace = ownPlace
    }

    public func offer(among candidates: [HandoffOffer]) -> HandoffOffer? {
        candidates.filter { candidate in
            if let placeTime, candidate.when <= placeTime { return false }
            if let dismissedAt = dismissed[candidate.key], candidate.when <= dismissedAt { return false }
            if quarantined.contains(HandoffQuarantine.Entry(key: candidate.key, when: candidate.when)) { return false }
            if let place = candidate.activity?.place, place == ownPlace || place == continuedPlace { return false }
            return true
        }.max { ($0.when, $0.key) < ($1.when, $1.key) }
    }
}

/// What the tab bar shows and the key it answers, kept by `HandoffController`.
public final class HandoffBoard {
    /// The offer on show; nil when there is none.
    public internal(set) var offer: HandoffOffer?
    /// Called by the tab bar: `h` takes the offer, any other key waves it away.
    var take: () -> Void = {}
    var dismiss: () -> Void = {}
    public init() {}
}
