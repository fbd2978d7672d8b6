import Foundation
import Platform
import Testing

@Suite("~ in a path")
struct TildeExpansionTests {
    static let folders = UserFolders(environment: ["HOME": "/home/alice/"], accountHome: { "/account" })

    @Test("~ and ~/… are HOME")
    func home() {
        #expect(Self.folders.expandingTilde("~", otherUsers: false) == "/home/alice")
        #expect(Self.folders.expandingTilde("~/", otherUsers: false) == "/home/alice/")
        #expect(Self.folders.expandingTilde("~/books/alice.txt", otherUsers: true) == "/home/alice/books/alice.txt")
        #expect(Self.folders.expandingTilde("~//x", otherUsers: false) == "/home/alice//x")
    }

    @Test("a path that does not start with ~ is left as it is",
          arguments: ["", "/", "/abs/~", "rel/~/x", "books", " ~/x", "./~"])
    func untouched(path: String) {
        #expect(Self.folders.expandingTilde(path, otherUsers: true) == path)
    }

    @Test("~user is that user's home, only where asked for")
    func otherUser() throws {
        let root = try #require(UserFolders.passwordFileHome(user: "root"))
        #expect(Self.folders.expandingTilde("~root", otherUsers: true) == root)
        #expect(Self.folders.expandingTilde("~root/notes/a.md", otherUsers: true) == root + "/notes/a.md")
        #expect(Self.folders.expandingTilde("~root/notes/a.md", otherUsers: false) == "~root/notes/a.md")
    }

    @Test("a user the password file does not know is left as typed")
    func unknownUser() {
        for path in ["~no-such-user-wl", "~no-such-user-wl/x", "~\u{0}/x", "~../etc", "~" + String(repeating: "z", count: 5000) + "/x"] {
            #expect(Self.folders.expandingTilde(path, otherUsers: true) == path)
        }
    }

    @Test("an empty or relative HOME is not used: ~ is the password file's home")
    func hostileHome() {
        for home in ["", "relative", "~"] {
            let folders = UserFolders(environment: ["HOME": home], accountHome: { "/account" })
            #expect(folders.expandingTilde("~", otherUsers: false) == "/account")
            #expect(folders.expandingTilde("~/x", otherUsers: false) == "/account/x")
        }
    }

    @Test("a HOME of / gives /x, not //x")
    func rootHome() {
        let folders = UserFolders(environment: ["HOME": "/"])
        #expect(folders.expandingTilde("~", otherUsers: false) == "/")
        #expect(folders.expandingTilde("~/x", otherUsers: false) == "/x")
    }
}
