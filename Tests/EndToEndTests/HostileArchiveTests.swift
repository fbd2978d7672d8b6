import Foundation
import Testing

/// Crafted archives in the state folder: the app saves a real one, python3's plistlib bends it
/// (NSKeyedArchiver's layout: $top, $objects, UIDs), and the next launch must still start,
/// restore what it can, and name what it skipped in `wonderland state show` and the log.
@Suite("Hostile restoration archives in tmux", .whenEndToEndIsAskedFor)
struct HostileArchiveTests {
    enum Mutation: String, CaseIterable, CustomTestStringConvertible {
        case wrongTypes = "wrong-types", hugeStack = "huge-stack", unknownClass = "unknown-class", cycle
        var testDescription: String { rawValue }
    }

    @Test("a crafted archive: the app starts, restores what it can, and names what it skipped", arguments: Mutation.allCases)
    func hostileArchive(_ mutation: Mutation) throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.typeCheshireCatNote("hostile note")
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")

        let crafted = try Subprocess.run(["python3", "-c", Self.craft, tmux.archive.path, mutation.rawValue])
        try #require(crafted.status == 0, "python3 could not craft the archive: \(crafted.output)")

        let frame = try tmux.launchForFirstFrame(forbidding: nil)
        // Asked while the app runs: it has not saved over the crafted archive yet.
        let show = try tmux.wonderland("state", "show", "--log-lines", "200")
        #expect(show.status == 0, "the archive is readable as a whole")
        #expect(!show.output.contains("unreadable: "), "\(show.output.prefix(2000))")
        let log = try String(contentsOf: tmux.stateFolder.appendingPathComponent("restoration.log"), encoding: .utf8)

        switch mutation {
        case .wrongTypes:
            // The tab bar's state is skipped (Map shows), the rest restores.
            tmux.check(frame.joined().contains("Zoom 0/14"))
            #expect(log.contains("launch: skipped: RootTabBar: state skipped: expected String, found integer at selectedTab"))
            #expect(log.contains("launch: skipped: RootTabBar/Characters/CharacterList: state skipped: expected String, found NSArray at selectedID"))
            #expect(show.output.contains("selectedID = [\"alice\", 7]"))
            try tmux.type("2")
            try tmux.waitForText("Characters › Cheshire Cat")
            try tmux.waitForText("hostile note")
        case .hugeStack:
            tmux.check(frame[1].contains("Characters › Cheshire Cat"))
            tmux.check(frame.contains(" hostile note"))
            #expect(log.contains("launch: skipped: RootTabBar/Characters: 9938 more saved children skipped (limit 64)"))
            #expect(log.contains("launch: skipped: RootTabBar/Characters/Extra0: no screen of this version has this identifier, and it has no restoration class (a newer version's, or one this version no longer makes); skipped"))
            #expect(show.output.contains("! 9938 more saved children not shown (limit 64)"))
            #expect(!show.output.contains("Extra9999"), "state show lists no more children than a launch looks at")
        case .unknownClass:
            // The navigation stack's children cannot be decoded: it starts at its list.
            tmux.check(frame[1] == " Characters")
            tmux.check(frame.contains("▸ Alice  ch. 1"))
            #expect(log.contains("class EvilScreen is unknown to this build; what refers to it is skipped"))
            #expect(log.contains("launch: skipped: RootTabBar/Characters: children unreadable, none restored: expected WLRestorationNode, found EvilScreen"))
            #expect(show.output.contains("! object"), "state show names the unknown class")
            #expect(show.output.contains("! children unreadable, none restored"))
        case .cycle:
            tmux.check(frame[1].contains("Characters › Cheshire Cat"))
            tmux.check(frame.contains(" hostile note"))
            #expect(log.contains("launch: skipped: RootTabBar/Characters/Characters: "))
            #expect(show.output.contains("RootTabBar/Characters/Characters\n      ! the archive refers back to this screen (a cycle); shown once"))
        }
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")
    }

    /// argv: archive path, mutation. Rewrites the archive in place as a binary plist.
    static let craft = #"""
import plistlib, sys
path, mutation = sys.argv[1], sys.argv[2]
archive = plistlib.load(open(path, "rb"))
objects = archive["$objects"]

def add(obj):
    objects.append(obj)
    return plistlib.UID(len(objects) - 1)

def class_uid(name):
    for i, o in enumerate(objects):
        if isinstance(o, dict) and o.get("$classname") == name:
            return plistlib.UID(i)
    return add({"$classname": name, "$classes": [name, "NSObject"]})

def node(path):
    uid = archive["$top"]["WLRoot"]
    for name in path.split("/")[1:]:
        children = objects[objects[uid.data]["WLChildren"].data]["NS.objects"]
        uid = next(c for c in children if objects[objects[c.data]["WLIdentifier"].data] == name)
    return uid

root = archive["$top"]["WLRoot"]
nav = node("RootTabBar/Characters")
if mutation == "wrong-types":
    objects[root.data]["selectedTab"] = 5
    listing = node("RootTabBar/Characters/CharacterList")
    objects[listing.data]["selectedID"] = add({"$class": class_uid("NSArray"), "NS.objects": [add("alice"), 7]})
elif mutation == "huge-stack":
    children = objects[objects[nav.data]["WLChildren"].data]["NS.objects"]
    empty = add({"$class": class_uid("NSArray"), "NS.objects": []})
    for i in range(10000):
        children.append(add({"$class": class_uid("WLRestorationNode"), "WLIdentifier": add(f"Extra{i}"), "WLChildren": empty}))
elif mutation == "unknown-class":
    detail = node("RootTabBar/Characters/CharacterDetail")
    objects[detail.data]["$class"] = class_uid("EvilScreen")
elif mutation == "cycle":
    objects[objects[nav.data]["WLChildren"].data]["NS.objects"].append(nav)
else:
    sys.exit("unknown mutation " + mutation)
with open(path, "wb") as f:
    plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY)
"""#
}
