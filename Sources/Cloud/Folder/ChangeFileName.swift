/// The names in a shared folder. Each device appends only to `<device>.<generation>.wlkv`; every
/// other name ending in `.wlkv` (a sync tool's conflict copy such as `x.3.sync-conflict-….wlkv`
/// or `x.3 (conflicted copy).wlkv`) is read too but never written or deleted. Names starting with
/// a dot are temporaries (ours while compacting, Syncthing's `.syncthing.*.tmp`) and are skipped.
struct ChangeFileName: Hashable, Sendable {
    static let fileExtension = ".wlkv"

    let device: DeviceIdentifier
    let generation: UInt64

    var fileName: String { "\(device.rawValue).\(generation)\(Self.fileExtension)" }

    /// Only the exact pattern: a conflict copy of a device's file is not one of its generations.
    init?(parsing name: String) {
        guard name.hasSuffix(Self.fileExtension) else { return nil }
        let parts = name.dropLast(Self.fileExtension.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = DeviceIdentifier(String(parts[0])),
              !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let generation = UInt64(parts[1]) else { return nil }
        self.device = device
        self.generation = generation
    }

    init(device: DeviceIdentifier, generation: UInt64) {
        self.device = device
        self.generation = generation
    }

    /// Whether a reader should read the file at all.
    static func isChangeFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(fileExtension)
    }
}
