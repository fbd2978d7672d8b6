import Foundation
import Platform
import Testing

@Suite("The user's folders")
struct UserFoldersTests {
    /// A password file that knows one home, so no test depends on the machine's.
    static func folders(_ environment: [String: String], account: String? = "/account") -> UserFolders {
        UserFolders(environment: environment, accountHome: { account })
    }

    @Test("each base directory defaults under HOME")
    func defaultsUnderHome() {
        let folders = Self.folders(["HOME": "/home/alice"])
        #expect(folders.home == "/home/alice")
        #expect(folders.configHome == "/home/alice/.config")
        #expect(folders.dataHome == "/home/alice/.local/share")
        #expect(folders.stateHome == "/home/alice/.local/state")
    }

    @Test("an absolute XDG variable wins over HOME")
    func absoluteVariableWins() {
        let folders = Self.folders(["HOME": "/home/alice", "XDG_CONFIG_HOME": "/etc/alice", "XDG_DATA_HOME": "/data",
                                    "XDG_STATE_HOME": "/state/"])
        #expect(folders.configHome == "/etc/alice")
        #expect(folders.dataHome == "/data")
        #expect(folders.stateHome == "/state")
    }

    @Test("an XDG variable that is empty or relative is ignored, as the spec says",
          arguments: ["", "relative/config", ".", "~/config", " /leading-space"])
    func unusableVariableIgnored(value: String) {
        let folders = Self.folders(["HOME": "/home/alice", "XDG_CONFIG_HOME": value, "XDG_DATA_HOME": value, "XDG_STATE_HOME": value])
        #expect(folders.configHome == "/home/alice/.config")
        #expect(folders.dataHome == "/home/alice/.local/share")
        #expect(folders.stateHome == "/home/alice/.local/state")
    }

    @Test("a HOME that is unset, empty or relative gives way to the password file's home",
          arguments: [nil, "", "relative", "~", " "] as [String?])
    func unusableHomeIgnored(home: String?) {
        let folders = Self.folders(home.map { ["HOME": $0] } ?? [:])
        #expect(folders.environmentHome == nil)
        #expect(folders.home == "/account")
        #expect(folders.configHome == "/account/.config")
    }

    @Test("with no home anywhere, a folder nothing can be written to, never the root")
    func noHomeAtAll() {
        #expect(Self.folders([:], account: nil).home == "/var/empty")
        #expect(Self.folders([:], account: "").home == "/var/empty")
        #expect(Self.folders([:], account: "relative").home == "/var/empty")
        #expect(Self.folders([:], account: nil).stateHome == "/var/empty/.local/state")
    }

    @Test("trailing slashes are dropped, and the root stays the root")
    func trailingSlashes() {
        #expect(Self.folders(["HOME": "/home/alice//"]).home == "/home/alice")
        #expect(Self.folders(["HOME": "/home/alice/"]).dataHome == "/home/alice/.local/share")
        #expect(Self.folders(["HOME": "/"]).home == "/")
        #expect(Self.folders(["HOME": "//"]).configHome == "/.config")
    }

    @Test("a folder the environment does not name is nil, for a run with no home of its own")
    func namedByEnvironment() {
        #expect(Self.folders([:]).folderNamedByEnvironment(.state) == nil)
        #expect(Self.folders(["HOME": ""]).folderNamedByEnvironment(.state) == nil)
        #expect(Self.folders(["HOME": "relative", "XDG_STATE_HOME": "relative"]).folderNamedByEnvironment(.state) == nil)
        #expect(Self.folders(["XDG_STATE_HOME": "/state"]).folderNamedByEnvironment(.state) == "/state")
        #expect(Self.folders(["HOME": "/home/alice"]).folderNamedByEnvironment(.state) == "/home/alice/.local/state")
        #expect(Self.folders(["HOME": "/home/alice"]).folderNamedByEnvironment(.config) == "/home/alice/.config")
    }

    @Test("the password file's home is this user's, and nil for a user it does not know")
    func passwordFile() throws {
        let entry = try #require(getpwuid(getuid()))
        #expect(UserFolders.passwordFileHome() == String(cString: entry.pointee.pw_dir))
        let root = try #require(getpwnam("root"))
        #expect(UserFolders.passwordFileHome(user: "root") == String(cString: root.pointee.pw_dir))
        #expect(UserFolders.passwordFileHome(user: "no-such-user-wl") == nil)
        #expect(UserFolders.passwordFileHome(user: "") == nil)
        #expect(UserFolders.passwordFileHome(user: String(repeating: "x", count: 100_000)) == nil)
    }

    @Test("the default password file lookup is used when no other is given")
    func defaultAccountHome() {
        let folders = UserFolders(environment: [:])
        #expect(folders.home == (UserFolders.passwordFileHome() ?? "/var/empty"))
    }
}
