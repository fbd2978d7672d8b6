import Foundation
import TestPrerequisites
import Testing
@testable import PropertyList

/// Property lists and keyed archives other programs wrote (Cocoa, CF, plistlib, go-plist,
/// bpylist2), kept beside the repository in ../shared/interop: every file Python's plistlib
/// reads must read here to the same value.
@Suite struct CorpusInteropTests {
    /// Files their own writers' test suites call invalid, which plistlib reads anyway and we,
    /// like CF and go-plist, refuse: each with the kind of error it must give.
    static let refusedOnPurpose: [String: PropertyListError.Kind] = [
        // A trailer whose 1-byte references cannot name 257 objects; plistlib wraps them.
        "go-plist/invalid-bplist/10-object-references-too-small-1-byte-but-257-objects.bplist": .countTooLarge,
        // A 1-byte offset table pointing into the header; plistlib reads whatever lies there.
        "go-plist/invalid-bplist/11-offset-references-too-small-1-byte-but-257-bytes-worth-of-objects.bplist": .offsetOutOfRange,
        // A dictionary keyed by a non-string, which no property-list dictionary can be.
        "go-plist/invalid-bplist/21-dictionary-non-string-key.bplist": .invalidKey,
        // A 32-byte integer: plistlib reads any width, CF at most 16 bytes.
        "go-plist/invalid-bplist/25-invalid-integer-8-5.bplist": .unsupportedObject,
    ]

    @Test(.requires(.python3)) func everyFilePlistlibReadsReadsTheSameHere() throws {
        let paths = try InteropCorpus.files(in: ["plist", "archive"])
        let plistlib = try Python.survey(paths)
        var compared = 0
        for path in paths {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if let kind = Self.refusedOnPurpose.first(where: { path.hasSuffix($0.key) })?.value {
                #expect(plistlib[path] != .refused, "\(path)")
                #expect(throws: PropertyListError.self, "\(path)") { try PropertyListReader.read(data) }
                do { _ = try PropertyListReader.read(data) } catch let error as PropertyListError { #expect(error.kind == kind) }
                continue
            }
            guard case .value(let expected)? = plistlib[path] else {
                if case .beyondOurValues(let lowBits)? = plistlib[path] {
                    // Python integers are unbounded; CF keeps a 16-byte integer's low 64 bits, and so do we.
                    #expect(try PropertyListReader.read(data).value == lowBits, "\(path)")
                }
                continue
            }
            compared += 1
            do {
                let ours = try PropertyListReader.read(data).value
                #expect(SameValue.check(ours, expected), "\(path): read differently from plistlib")
            } catch {
                Issue.record("\(path.replacingOccurrences(of: InteropCorpus.root.path, with: "")): plistlib reads it, we refuse it: \(error)")
            }
        }
        // The corpus holds well over a hundred files plistlib reads; far fewer means it is not being seen.
        #expect(compared >= 100, "only \(compared) files compared")
    }

    /// Cocoa's own test file: 9223372036854775852 (above Int64.max) as a 16-byte binary integer
    /// and as a long XML <integer>, read and written back byte for byte in binary.
    @Test func cocoaWrittenIntegersAboveInt64Survive() throws {
        for name in ["testdata-binary.plist", "testdata-xml.plist"] {
            let data = try Data(contentsOf: InteropCorpus.root.appendingPathComponent("plist/cpython/\(name)"))
            guard case .dictionary(let entries) = try PropertyListReader.read(data).value else {
                Issue.record("\(name) is not a dictionary")
                continue
            }
            #expect(entries["aBigInt2"] == .unsignedInteger(9_223_372_036_854_775_852), "\(name)")
            #expect(entries["aBigInt"] == .integer(9_223_372_036_854_775_764), "\(name)")
        }
        let binary = try Data(contentsOf: InteropCorpus.root.appendingPathComponent("plist/cpython/testdata-binary.plist"))
        #expect(try BinaryPropertyListWriter.data(from: BinaryPropertyListReader.read(binary)) == binary)
    }
}

/// Where the shared corpus of real files lies: ../shared/interop from the repository root.
enum InteropCorpus {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop").standardizedFileURL

    /// Every file under the named folders, SOURCES.md notes left out, in a stable order.
    static func files(in folders: [String]) throws -> [String] {
        var paths: [String] = []
        for folder in folders {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
            }
            for case let url as URL in walker where url.lastPathComponent != "SOURCES.md" {
                if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true { paths.append(url.path) }
            }
        }
        return paths.sorted()
    }
}

/// Equality as the two readers can both express it: reals by bit pattern (so NaN equals
/// itself), dates to the microsecond (plistlib holds them as datetime, which keeps no finer),
/// and an XML `{CF$UID = n}` dictionary, which plistlib leaves a dictionary, equal to the UID
/// CF (and we) read it as.
enum SameValue {
    static func check(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.uid(let x), .dictionary(let y)): return y.count == 1 && y["CF$UID"] == .integer(Int64(clamping: x))
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            let (s, t) = (x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
            return s == t || abs(s - t) <= 1e-6
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(check)
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { check(value, $0) } ?? false }
        default: return a == b
        }
    }
}
