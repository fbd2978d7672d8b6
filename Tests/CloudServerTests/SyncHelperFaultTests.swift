import Cloud
@testable import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// Helpers that misbehave, as scripts (`FakeHelper`): whatever one sends or fails to send, the
/// app gets a clear reason as a store that is offline, never a crash or a hang, and the broken
/// helper is ended. No server is needed: none of these gets as far as one.
@Suite("The sync helper, broken: a clear error, no crash, no hang", .requires(.python3))
struct SyncHelperFaultTests {
    let address = PostgresSyncAddress(user: "alice", host: "127.0.0.1", port: 1, database: "wl")

    func proxy(_ helper: FakeHelper, replyTimeout: Double = 20, wakeGrace: Double = 5, initialBackoff: Double = 0.25) -> SyncHelperBackend {
        SyncHelperBackend(address: address, password: "pw-over-the-pipe", device: DeviceIdentifier("aaaa")!,
                          options: .init(server: .init(initialBackoff: initialBackoff, maximumBackoff: initialBackoff),
                                         helperPath: helper.path, replyTimeout: replyTimeout, wakeGrace: wakeGrace))
    }

    /// The reason `fetchChanges` fails with; nil when it does not.
    func fetchFailure(_ backend: SyncHelperBackend) -> String? {
        do {
            _ = try backend.fetchChanges()
            return nil
        } catch let error as BackendUnavailable {
            return error.reason
        } catch {
            return "not BackendUnavailable: \(error)"
        }
    }

    @Test("bytes that are no frame: the length they spell is refused before anything is read")
    func garbage() throws {
        let helper = try FakeHelper("""
            read()
            raw(b"HTTP/1.1 200 OK\\r\\n\\r\\n")
            read()
            """)
        let backend = proxy(helper)
        #expect(fetchFailure(backend) == "the sync helper sent a message of 1213486160 bytes, more than the 4194304 allowed")
        #expect(backend.helperProcessID == nil, "ended")
    }

    @Test("a frame over the cap, a frame that is no property list, one nested too deep: each refused by name")
    func badFrames() throws {
        let oversized = try FakeHelper("""
            ready()
            read()
            raw(struct.pack(">I", 5 << 20) + b"x" * 64)
            read()
            """)
        #expect(fetchFailure(proxy(oversized)) == "the sync helper sent a message of 5242880 bytes, more than the 4194304 allowed")

        let unreadable = try FakeHelper("""
            read()
            raw(b"\\x00\\x00\\x00\\x05hello")
            read()
            """)
        let unreadableReason = fetchFailure(proxy(unreadable))
        #expect(unreadableReason?.hasPrefix("the sync helper sent a message that cannot be read: ") == true, "\(unreadableReason ?? "")")

        let deep = try FakeHelper("""
            ready()
            read()
            send({"reply": "records", "more": False, "fromStart": False, "readProblems": [], "records": [[[[["deep"]]]]]})
            read()
            """)
        let deepReason = fetchFailure(proxy(deep))
        #expect(deepReason?.contains("nested deeper than 4 levels") == true, "\(deepReason ?? "")")

        let wrongShape = try FakeHelper("""
            ready()
            read()
            send({"reply": "records", "more": False, "fromStart": False, "readProblems": [], "records": [{"key": "k", "clock": -1, "device": "aaaa"}]})
            read()
            """)
        #expect(fetchFailure(proxy(wrongShape)) == "a change's clock is not a number of 0 or more")
    }

    @Test("a helper that says nothing: the answer's time-out ends it")
    func silent() throws {
        let helper = try FakeHelper("""
            ready()
            read()
            time.sleep(600)
            """)
        let backend = proxy(helper, replyTimeout: 1)
        #expect(fetchFailure(backend) == "the sync helper did not answer within 1 s")
        #expect(backend.helperProcessID == nil)
    }

    @Test("a helper that dies says how; one that cannot run says where it was looked for; another protocol is refused")
    func deadMissingOrForeign() throws {
        let dying = try FakeHelper("""
            read()
            sys.exit(3)
            """)
        #expect(fetchFailure(proxy(dying)) == "the sync helper stopped (exited with status 3)")

        let missing = SyncHelperBackend(address: address, password: nil, device: DeviceIdentifier("aaaa")!,
                                        options: .init(helperPath: "/nonexistent/wonderland-sync-server"))
        #expect(fetchFailure(missing) == "the sync helper /nonexistent/wonderland-sync-server cannot be run (No such file or directory); it is installed beside wonderland or in libexec/wonderland/ of its prefix")

        let foreign = try FakeHelper("""
            read()
            send({"reply": "ready", "protocol": 99})
            read()
            """)
        #expect(fetchFailure(proxy(foreign)) == "\(foreign.path) is not a sync helper this app can talk to (it answered ready)")
    }

    @Test("a broken helper is started again only after the back-off, and the store stays offline with the reason meanwhile")
    func backoffBeforeAnotherStart() throws {
        let helper = try FakeHelper("""
            with open(os.path.join(FOLDER, "starts"), "a") as f:
                f.write("started\\n")
            read()
            raw(b"garbage!")
            read()
            """)
        let backend = proxy(helper, initialBackoff: 1)
        let store = UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier("aaaa")!))
        store.set(.string("Tea Party"), forKey: "HPLocation")
        #expect(!store.synchronize())
        #expect(store.status.problem?.hasPrefix("the sync helper sent a message of ") == true, "\(store.status.problem ?? "")")
        #expect(!store.synchronize())
        #expect(helper.written("starts") == "started\n", "not started again within the back-off")
        #expect(store.status.pendingChanges == 1, "the change waits")
        #expect(store.object(forKey: "HPLocation") == .string("Tea Party"))
        usleep(1_300_000)
        #expect(!store.synchronize())
        #expect(helper.written("starts") == "started\nstarted\n")
    }

    @Test("the password goes through the pipe only: not on the command line, not in the environment")
    func passwordOnlyInThePipe() throws {
        setenv("PGWONDERLANDTEST", "from-the-environment", 1)
        setenv("WONDERLAND_TEST_SECRET", "from-the-environment", 1)
        let helper = try FakeHelper("""
            request = read()
            with open(os.path.join(FOLDER, "seen"), "w") as f:
                json.dump({"argv": sys.argv, "environment": dict(os.environ), "request": request}, f)
            send({"reply": "ready", "protocol": \(SyncHelperRequest.protocolVersion)})
            read()
            """)
        let backend = proxy(helper)  // the script ends after the next request, so nothing waits long
        _ = fetchFailure(backend)
        let seen = try #require(helper.written("seen"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(seen.utf8)) as? [String: Any])
        let request = try #require(parsed["request"] as? [String: Any])
        #expect(request["call"] as? String == "open")
        #expect(request["password"] as? String == "pw-over-the-pipe")
        #expect(request["host"] as? String == "127.0.0.1")
        #expect(request["device"] as? String == "aaaa")
        let argv = "\(parsed["argv"] ?? "")"
        let environment = try #require(parsed["environment"] as? [String: String])
        #expect(!argv.contains("pw-over-the-pipe"))
        #expect(!environment.values.contains { $0.contains("pw-over-the-pipe") })
        #expect(environment["PGWONDERLANDTEST"] == nil && environment["WONDERLAND_TEST_SECRET"] == nil)
        #expect(environment["PATH"] != nil, "the rest of the environment is the app's")
    }

    @Test("wake() is passed on to a wait in progress; a helper that ignores it is ended after the grace")
    func wakeIsPassedOn() throws {
        let listening = try FakeHelper("""
            ready()
            while True:
                request = read()
                if request["call"] == "fetch":
                    send({"reply": "records", "more": False, "fromStart": False, "readProblems": ["server row 7: too big"], "records": []})
                elif request["call"] == "wait":
                    woken = read()
                    with open(os.path.join(FOLDER, "woken"), "a") as f:
                        f.write(woken["call"] + "\\n")
                    send({"reply": "done"})
            """)
        let backend = proxy(listening)
        #expect(try backend.fetchChanges().isEmpty)
        #expect(backend.readProblems == ["server row 7: too big"])
        let ended = Flag()
        Thread {
            backend.waitForChanges(timeout: untilNews)
            ended.set()
        }.start()
        usleep(300_000)
        #expect(!ended.isSet, "still waiting")
        backend.wake()
        #expect(eventually { ended.isSet })
        #expect(listening.written("woken") == "wake\n")
        #expect(try backend.fetchChanges().isEmpty, "and the helper still serves")

        let deaf = try FakeHelper("""
            ready()
            while True:
                if read()["call"] == "fetch":
                    send({"reply": "records", "more": False, "fromStart": False, "readProblems": [], "records": []})
            """)
        let ignoring = proxy(deaf, wakeGrace: 0.5, initialBackoff: 30)
        #expect(try ignoring.fetchChanges().isEmpty)
        let endedAnyway = Flag()
        Thread {
            ignoring.waitForChanges(timeout: untilNews)
            endedAnyway.set()
        }.start()
        usleep(200_000)
        ignoring.wake()
        #expect(eventually { endedAnyway.isSet })
        #expect(ignoring.helperProcessID == nil, "ended")
        #expect(fetchFailure(ignoring) == "the sync helper did not answer within 0.5 s")
    }

    @Test("the real helper ends when its stdin closes, and refuses a first request that opens nothing")
    func realHelperEndsWithItsInput() throws {
        let path = SyncHelperLocation.path(environment: [:])
        let helper = try SyncHelperProcess.start(path: path)
        let open = SyncHelperRequest.open(address: address, password: nil, device: DeviceIdentifier("aaaa")!, options: .init())
        try SyncHelperFrames.write(try SyncHelperFrames.encode(open.propertyList), to: helper.input, peer: "the helper")
        let answer = try SyncHelperFrames.read(from: helper.output, bounds: SyncHelperFrames.fromHelper, peer: "the helper")
        #expect(try answer.map(SyncHelperReply.init(propertyList:)) == .ready(protocolVersion: SyncHelperRequest.protocolVersion))
        close(helper.input)
        #expect(waitForExit(helper.pid) == "exited with status 0")

        let confused = try SyncHelperProcess.start(path: path)
        try SyncHelperFrames.write(try SyncHelperFrames.encode(SyncHelperRequest.fetch.propertyList), to: confused.input, peer: "the helper")
        #expect(try SyncHelperFrames.read(from: confused.output, bounds: SyncHelperFrames.fromHelper, peer: "the helper") == nil)
        #expect(waitForExit(confused.pid) == "exited with status 2")
    }

    /// Blocks until `pid` ends, and says how.
    func waitForExit(_ pid: pid_t) -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "killed by signal \(status & 0x7f)"
    }

    /// Waits (bounded) for `condition`, which another thread makes true.
    func eventually(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

/// A flag set on one thread and read on another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
