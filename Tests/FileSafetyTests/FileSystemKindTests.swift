import Testing
@testable import FileSafety

@Suite("Which folders inotify watches in full")
struct FileSystemKindTests {
    @Test func networkAndFUSEFileSystemsAreNotTrustedToReportEveryChange() {
        let table = """
            /dev/sda1 / ext4 rw 0 0
            server:/export /home/alice/Sync nfs4 rw 0 0
            alice@host: /home/alice/Remote fuse.sshfs rw 0 0
            /dev/sdb1 /home/alice/Sync/local\\040copy xfs rw 0 0
            """
        #expect(FileSystemKind.mountType(of: "/home/alice/.config/wonderland", in: table) == "ext4")
        #expect(FileSystemKind.mountType(of: "/home/alice/Sync/wonderland", in: table) == "nfs4")
        #expect(FileSystemKind.mountType(of: "/home/alice/Synced", in: table) == "ext4", "a prefix of a name is not the mount")
        #expect(FileSystemKind.mountType(of: "/home/alice/Remote/w", in: table) == "fuse.sshfs")
        #expect(FileSystemKind.mountType(of: "/home/alice/Sync/local copy/w", in: table) == "xfs")
        #expect(FileSystemKind.isLocal("ext4") && FileSystemKind.isLocal("tmpfs") && FileSystemKind.isLocal("overlay"))
        #expect(!FileSystemKind.isLocal("nfs4") && !FileSystemKind.isLocal("cifs") && !FileSystemKind.isLocal("fuse.sshfs"))
        #expect(!FileSystemKind.inotifySeesEveryChange(at: "/no/such/folder/anywhere"))
    }
}
