import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Appends this device's changes to its newest generation and compacts its generations.
final class FolderWriter {
    let folder: String
    let device: DeviceIdentifier
    private var current: OwnChangeFile?

    init(folder: String, device: DeviceIdentifier) {
        self.folder = folder
        self.device = device
    }

    func append(_ records: [ChangeRecord]) throws {
        guard !records.isEmpty else { return }
        try withNewestGenerationLocked { file in
            guard file.endsCleanly() else {
                // A writer died mid-record: leave that file as it is and go on in a new one,
                // created while holding the old one's lock (see OwnChangeFile), so nobody else
                // can be writing to it yet.
                let next = try OwnChangeFile.open(ChangeFileName(device: device, generation: file.name.generation + 1), in: folder)
                FolderSystemCalls.lock(next.descriptor, LOCK_EX)
                defer { next.unlock() }
                current = next
                try next.write(records)
                return
            }
            try file.write(records)
        }
    }

    /// Rewrites this device's generations as one new generation holding its newest record per
    /// key, leaving out keys whose newest change in `latest` came from another device later.
    /// Safe against another process of this device appending: both go through the lock on the
    /// newest generation, and the older ones are deleted only once the new one is in place.
    /// Returns the names of the generations deleted.
    @discardableResult
    func compact(latest: MergedChanges) throws -> [String] {
        var deleted: [String] = []
        try withNewestGenerationLocked { file in
            // A generation a newer build wrote is that build's: never rewritten or deleted here.
            let generations = try OwnChangeFile.generations(in: folder, of: device).filter {
                $0.generation <= file.name.generation && !FolderReader.isNewerFormat(path: folder + "/" + $0.fileName)
            }
            var newest = MergedChanges()
            for generation in generations {
                guard let records = FolderReader.readWhole(path: folder + "/" + generation.fileName) else {
                    throw BackendUnavailable(reason: FolderSystemCalls.reason("read", folder + "/" + generation.fileName, errno))
                }
                // The same rule as every reader's merge, ties between two instances included.
                newest.merge(records.filter { $0.stamp.device == device })
            }
            // Another device's later change is in the folder already; this device's own later
            // change may still be queued in the store, so only the former drops a record.
            let kept = newest.latest.values.filter { record in
                guard let winner = latest.record(forKey: record.key), winner.stamp.device != device else { return true }
                return !MergedChanges.wins(winner, over: record)
            }.sorted { $0.key < $1.key }
            let target = ChangeFileName(device: device, generation: file.name.generation + 1)
            try writeAtomically(ChangeFileFormat.file(kept), as: target)
            for generation in generations where unlink(folder + "/" + generation.fileName) == 0 { deleted.append(generation.fileName) }
            FolderSystemCalls.syncFolder(folder)
            current = nil
        }
        return deleted
    }

    /// Runs `body` with this device's newest generation open and locked (creating generation 1
    /// in a folder that has none), retrying when another process moved on meanwhile.
    private func withNewestGenerationLocked(_ body: (OwnChangeFile) throws -> Void) throws {
        for _ in 0 ..< 32 {
            let file: OwnChangeFile
            if let current { file = current } else {
                let newest = try OwnChangeFile.generations(in: folder, of: device).last ?? ChangeFileName(device: device, generation: 1)
                file = try OwnChangeFile.open(newest, in: folder)
            }
            guard try file.lockIfCurrent(folder: folder) else {
                current = nil
                continue
            }
            current = file
            defer { file.unlock() }
            try body(file)
            return
        }
        throw BackendUnavailable(reason: "cannot settle on a change file in \(folder): it keeps changing")
    }

    /// AtomicFile's temporary name is one readers skip (a leading dot, no .wlkv ending). The
    /// folder is never made here: a missing one may be a share that is not mounted.
    private func writeAtomically(_ bytes: [UInt8], as name: ChangeFileName) throws {
        do {
            try AtomicFile.write(Data(bytes), to: URL(fileURLWithPath: folder + "/" + name.fileName), makingFolder: false)
        } catch let failure as AtomicFile.Failure {
            throw BackendUnavailable(reason: FolderSystemCalls.reason(failure.operation, failure.path, failure.code))
        }
    }
}
