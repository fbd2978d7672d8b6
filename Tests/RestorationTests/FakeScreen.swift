import Foundation
import KeyedArchive
import Restoration

/// A stand-in for a screen: an identifier, children, a little state, and a record of what the
/// engine did to it.
final class FakeScreen: Restorable {
    var restorationIdentifier: String?
    var formerRestorationIdentifiers: [String] = []
    var restorationClassName: String?
    var children: [FakeScreen]
    var value = ""
    var number = 0
    private(set) var restoredChildren: [FakeScreen]?
    private(set) var finishedRestoring = false
    private(set) var decodeCount = 0

    init(_ id: String?, className: String? = nil, value: String = "", _ children: [FakeScreen] = []) {
        restorationIdentifier = id
        restorationClassName = className
        self.value = value
        self.children = children
    }

    var restorableChildren: [any Restorable] { children }

    func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(value, forKey: "value")
        coder.encode(number, forKey: "number")
    }

    func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        decodeCount += 1
        value = try coder.decodeObject(of: String.self, forKey: "value") ?? ""
        number = try coder.decodeInteger(forKey: "number")
    }

    func restoreChildren(_ children: [any Restorable]) {
        restoredChildren = children.compactMap { $0 as? FakeScreen }
    }

    func applicationFinishedRestoringState() { finishedRestoring = true }

    func child(_ id: String) -> FakeScreen? { children.first { $0.restorationIdentifier == id } }
}

let testHeader = RestorationHeader(appVersion: "test", timestamp: Date(timeIntervalSince1970: 1_800_000_000),
                                   terminalColumns: 80, terminalRows: 24)

func preserve(_ root: FakeScreen, engine: RestorationEngine = RestorationEngine(duplicatePolicy: .fail),
              header: RestorationHeader = testHeader, delegate: RestorationDelegate? = nil) throws -> Data {
    try engine.preserve(root: root, header: header, delegate: delegate).data
}
