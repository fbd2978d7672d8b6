import Foundation
import Testing
@testable import Platform

@Suite struct ProcessEnvironmentTests {
    /// `entries` as C strings, NULL-terminated, for as long as `body` runs.
    func withEntries<T>(_ entries: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = entries.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { copies.forEach { $0?.deallocate() } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @Test func theProcessEnvironmentReadsAsFoundationReadsIt() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
    }

    @Test func entriesSplitAtTheirFirstEqualsSign() {
        let variables = withEntries([Array("HOME=/home/a".utf8), Array("EMPTY=".utf8), Array("X=a=b".utf8),
                                     Array("NOEQUALS".utf8), Array("=nameless".utf8)]) { ProcessEnvironment.variables(in: $0) }
        #expect(variables == ["HOME": "/home/a", "EMPTY": "", "X": "a=b", "": "nameless"])
    }

    @Test func anEqualsSignBeforeACombiningMarkStillSplits() {
        // As characters, "=" and U+0301 are one cluster that is not "="; the split is by bytes.
        let variables = withEntries([Array("A=\u{301}x".utf8)]) { ProcessEnvironment.variables(in: $0) }
        #expect(variables == ["A": "\u{301}x"])
    }

    @Test func theLaterOfTwoEntriesForANameIsKept() {
        let variables = withEntries([Array("A=1".utf8), Array("A=2".utf8)]) { ProcessEnvironment.variables(in: $0) }
        #expect(variables == ["A": "2"])
    }

    @Test func invalidUTF8IsRepairedNotDropped() {
        let variables = withEntries([Array("LANG=".utf8) + [0xC3, 0x28]]) { ProcessEnvironment.variables(in: $0) }
        #expect(variables == ["LANG": "\u{FFFD}("])
    }

    @Test func noEntriesGiveNoVariables() {
        #expect(withEntries([]) { ProcessEnvironment.variables(in: $0) }.isEmpty)
    }
}
