import Cloud
import CloudPostgres
import CloudServer
import Foundation
import PropertyList

/// Serves one app: the first request names the server, then each request is run on a worker
/// thread in order, while this thread goes on reading, so a `wake` reaches the backend at once
/// even as a `wait` runs.
final class SyncHelperService: @unchecked Sendable {
    private let input: Int32
    private let output: Int32
    private let requests = RequestQueue()

    /// A fetch's changes go in frames of about this many bytes, far below the app's cap.
    static let recordBytesPerFrame = 1 << 20

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// The exit status: 0 when the app closed the pipe, 2 when it sent what cannot be served.
    func run() -> Int32 {
        do {
            guard let first = try readRequest() else { return 0 }
            guard case .open(let address, let password, let device, let options) = first else {
                return refuse("the first request must open the server")
            }
            let backend = PostgresBackend(address: address, password: password, device: device, options: options)
            try send(.ready(protocolVersion: SyncHelperRequest.protocolVersion))
            let check: @Sendable () throws -> [ServerCheckFinding] = { try PostgresServerCheck.run(address: address, password: password, options: options) }
            let worker = Thread { [self] in serve(backend, check: check) }
            worker.start()
            while let request = try readRequest() {
                switch request {
                case .wake: backend.wake()
                case .open: return refuse("the server is open already")
                default: requests.put(request)
                }
            }
            return 0
        } catch let failure as SyncHelperFailure {
            return refuse(failure.description)
        } catch {
            return refuse("\(error)")
        }
    }

    /// `check` audits the server on a connection of its own (`wonderland cloud check`).
    private func serve(_ backend: PostgresBackend, check: @escaping @Sendable () throws -> [ServerCheckFinding]) {
        while true {
            let request = requests.take()
            do {
                switch request {
                case .append(let records):
                    do {
                        try backend.append(records)
                        try send(.done)
                    } catch let failure as SyncHelperFailure {
                        throw failure
                    } catch {
                        try send(SyncHelperReply(error: error))
                    }
                case .fetch:
                    let records: [ChangeRecord]
                    do {
                        records = try backend.fetchChanges()
                    } catch {
                        try send(SyncHelperReply(error: error))
                        continue
                    }
                    try sendInFrames(records, readProblems: backend.readProblems, fromStart: backend.lastFetchWasWhole)
                case .wait(let timeout):
                    backend.waitForChanges(timeout: timeout)
                    try send(.done)
                case .check:
                    let reply: SyncHelperReply
                    do {
                        reply = .findings(try check())
                    } catch {
                        reply = SyncHelperReply(error: error)
                    }
                    try send(reply)
                case .open, .wake:
                    break
                }
            } catch {
                // The app cannot be answered: it is gone, and so is the reason to run.
                exit(0)
            }
        }
    }

    private func sendInFrames(_ records: [ChangeRecord], readProblems: [String], fromStart: Bool) throws {
        var frame: [ChangeRecord] = []
        var bytes = 0
        for record in records {
            let size = record.key.utf8.count + (record.payload?.count ?? 0) + (record.origin?.utf8.count ?? 0)
            if !frame.isEmpty && bytes + size > Self.recordBytesPerFrame {
                try send(.records(frame, more: true, readProblems: [], fromStart: false))
                frame = []
                bytes = 0
            }
            frame.append(record)
            bytes += size
        }
        try send(.records(frame, more: false, readProblems: readProblems, fromStart: fromStart))
    }

    private func readRequest() throws -> SyncHelperRequest? {
        try SyncHelperFrames.read(from: input, bounds: SyncHelperFrames.fromApp, peer: "the app").map(SyncHelperRequest.init(propertyList:))
    }

    private func send(_ reply: SyncHelperReply) throws {
        try SyncHelperFrames.write(try SyncHelperFrames.encode(reply.propertyList), to: output, peer: "the app")
    }

    /// Says why on stderr (the app's) and gives the status to exit with.
    private func refuse(_ reason: String) -> Int32 {
        FileHandle.standardError.write(Data("wonderland-sync-server: \(reason)\n".utf8))
        return 2
    }
}

/// Requests handed from the reading thread to the worker, in order.
private final class RequestQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [SyncHelperRequest] = []

    func put(_ request: SyncHelperRequest) {
        condition.withLock {
            waiting.append(request)
            condition.signal()
        }
    }

    func take() -> SyncHelperRequest {
        condition.withLock {
            while waiting.isEmpty { condition.wait() }
            return waiting.removeFirst()
        }
    }
}
