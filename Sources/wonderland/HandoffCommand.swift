import ArgumentParser
import Cloud
import FoundationEssentials
import PropertyList
import TextSafety
import WonderlandApp

/// `wonderland handoff`: the places other machines offer (and this machine's own), as the
/// tab bar would offer them; `wonderland --continue[=DEVICE]` starts at one.
struct HandoffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handoff",
        abstract: "Show the places other machines offer to continue here (Handoff).",
        discussion: """
            With Handoff on (Settings › Sync), each running wonderland keeps its place in
            the synced store, one key per device (WLHandoff.<device id>). `list` syncs
            once (unless --offline) and prints each: the device, when its user was last
            there, the screens and whether a draft came with it. Start at one with
            `wonderland --continue` (the newest) or `wonderland --continue=DEVICE`.
            Exits 1 when the server could not be reached.
            """,
        subcommands: [List.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every machine's place in the synced store, newest first.")
        @Flag(help: "Do not sync first; show this machine's copy only.") var offline = false

        func run() throws {
            let place = CloudCommand.Where.current()
            let store = place.openStore()
            let reached = offline ? nil : store.synchronize()
            let own = HandoffSettings.storePrefix + store.device.rawValue
            let now = Date()
            var rows: [(when: Date, line: String)] = []
            for key in store.keys(withPrefix: HandoffSettings.storePrefix) {
                guard let value = store.object(forKey: key) else { continue }
                let mine = key == own ? " (this machine)" : ""
                switch HandoffActivity.read(value, now: now) {
                case .activity(let activity):
                    rows.append((activity.when, "\(activity.deviceName)\(mine)  \(CommandDateText.utc(activity.when))  \(activity.summary)  [wonderland \(activity.appVersion)]"))
                case .newer(let name, let when):
                    rows.append((when ?? .distantPast, "\(name)\(mine)  \(when.map { CommandDateText.utc($0) } ?? "?")  from a newer wonderland: not applied here"))
                case .unreadable(let why):
                    rows.append((.distantPast, "\(SafeText.visible(key))\(mine)  unreadable: \(why)"))
                }
            }
            if rows.isEmpty {
                print(HandoffSettings.isOn(place.defaults) ? "No machine offers a place yet." : "No machine offers a place. Handoff is off here (Settings › Sync › Handoff).")
            }
            for row in rows.sorted(by: { $0.when > $1.when }) { print(SafeText.visible(row.line)) }
            if place.place.isServer, reached == false {
                place.printError("could not reach the server: \(store.status.problem ?? "unknown reason"); the places above are this machine's copy.")
                throw ExitCode.failure
            }
        }
    }
}
