import Foundation
import Platform
import Testing

@Suite("File paths")
struct FilePathsTests {
    @Test("joining puts one slash between a folder and a name", arguments: [
        ("/a/b", "c", "/a/b/c"), ("/a/b/", "c", "/a/b/c"), ("/", "c", "/c"), ("rel", "c.plist", "rel/c.plist"),
    ])
    func join(folder: String, name: String, expected: String) {
        #expect(FilePaths.join(folder, name) == expected)
    }

    @Test("the parent and the last component agree with URL's for the paths files have", arguments: [
        "/a/b/c", "/a/b/c/", "/a", "/", "/a//b", "/a/b/.defaults.plist.tmp-12-34", "/héllo wörld/%20/x",
    ])
    func parentAndLast(path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(FilePaths.parent(of: path) == url.deletingLastPathComponent().path)
        #expect(FilePaths.lastComponent(of: path) == url.lastPathComponent)
    }

    @Test("a bare name's parent is the current folder")
    func bareName() {
        #expect(FilePaths.parent(of: "name") == ".")
        #expect(FilePaths.lastComponent(of: "name") == "name")
    }
}
