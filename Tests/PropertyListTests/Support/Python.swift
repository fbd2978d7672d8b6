import Foundation
@testable import PropertyList

/// Runs a small plistlib bridge script so tests can ask Python's plistlib to read or write a file.
enum Python {
    /// Kept inline and passed with `-c`, so the test target carries no loose resource file.
    static let script = #"""
"""Bridge between the Swift tests and Python's plistlib.

Values travel as "tagged JSON" so that nothing is lost on the way: every value is a pair
[type, payload]; integers are decimal strings, reals and dates are the hex of their IEEE-754
bits, data is base64.

    describe PATH        print the plist at PATH (read by plistlib) as tagged JSON
    survey PATH...       print {path: tagged JSON, or null where plistlib refuses the file}
    write xml|binary PATH  read tagged JSON on stdin, write it with plistlib
"""
import base64
import datetime
import json
import plistlib
import struct
import sys

EPOCH = datetime.datetime(2001, 1, 1)


def bits(x):
    return struct.pack(">d", x).hex()


def unbits(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


def to_tagged(v):
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        return ["real", bits(v)]
    if isinstance(v, str):
        return ["string", v]
    if isinstance(v, bytes):
        return ["data", base64.b64encode(v).decode()]
    if isinstance(v, datetime.datetime):
        return ["date", bits((v - EPOCH).total_seconds())]
    if isinstance(v, plistlib.UID):
        return ["uid", str(v.data)]
    if isinstance(v, list):
        return ["array", [to_tagged(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", {k: to_tagged(x) for k, x in v.items()}]
    raise TypeError(type(v))


def from_tagged(t):
    kind, payload = t
    if kind == "bool":
        return payload
    if kind == "int":
        return int(payload)
    if kind == "real":
        return unbits(payload)
    if kind == "string":
        return payload
    if kind == "data":
        return base64.b64decode(payload)
    if kind == "date":
        return EPOCH + datetime.timedelta(seconds=unbits(payload))
    if kind == "uid":
        return plistlib.UID(int(payload))
    if kind == "array":
        return [from_tagged(x) for x in payload]
    if kind == "dict":
        return {k: from_tagged(x) for k, x in payload.items()}
    raise ValueError(kind)


def main():
    if sys.argv[1] == "describe":
        with open(sys.argv[2], "rb") as f:
            json.dump(to_tagged(plistlib.load(f)), sys.stdout)
    elif sys.argv[1] == "survey":
        found = {}
        for path in sys.argv[2:]:
            try:
                with open(path, "rb") as f:
                    found[path] = to_tagged(plistlib.load(f))
            except Exception:
                found[path] = None
        json.dump(found, sys.stdout)
    elif sys.argv[1] == "write":
        fmt = plistlib.FMT_XML if sys.argv[2] == "xml" else plistlib.FMT_BINARY
        value = from_tagged(json.load(sys.stdin))
        with open(sys.argv[3], "wb") as f:
            plistlib.dump(value, f, fmt=fmt, sort_keys=True)
    else:
        raise SystemExit("unknown command " + sys.argv[1])


main()
"""#

    /// What plistlib reads from `data`.
    static func describe(_ data: Data) throws -> PropertyListValue {
        let file = try TemporaryFile(data)
        let output = try run(["describe", file.path], input: nil)
        return try TaggedJSON.decode(output)
    }

    enum Reading: Equatable {
        case refused
        case value(PropertyListValue)
        /// plistlib read a value no property-list value here can hold (an integer outside
        /// Int64.min...UInt64.max); kept with each such integer cut to its low 64 bits, unsigned,
        /// as CF reads a 16-byte integer.
        case beyondOurValues(lowBits: PropertyListValue)
    }

    /// What plistlib reads from each file, one process for them all.
    static func survey(_ paths: [String]) throws -> [String: Reading] {
        let output = try run(["survey"] + paths, input: nil)
        guard let found = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw PythonFailure(message: "survey printed no JSON object")
        }
        return try found.mapValues { tagged in
            if tagged is NSNull { return .refused }
            let json = try JSONSerialization.data(withJSONObject: tagged)
            do { return .value(try TaggedJSON.decode(json)) } catch is PythonFailure {
                return .beyondOurValues(lowBits: try TaggedJSON.decode(json, keepingLow64Bits: true))
            }
        }
    }

    /// What plistlib writes for `value`.
    static func write(_ value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        let file = try TemporaryFile(Data())
        _ = try run(["write", format == .xml ? "xml" : "binary", file.path], input: try TaggedJSON.encode(value))
        return try Data(contentsOf: URL(fileURLWithPath: file.path))
    }

    private static func run(_ arguments: [String], input: Data?) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailure(message: String(decoding: errors, as: UTF8.self))
        }
        return output
    }
}

struct PythonFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "python3 failed: \(message)" }
}

/// A file under the temporary directory, removed when the value goes away.
final class TemporaryFile {
    let path: String

    init(_ contents: Data) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("plist-test-\(UUID().uuidString)").path
        try contents.write(to: URL(fileURLWithPath: path))
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The tagged-JSON form the bridge script speaks; lossless for every value.
enum TaggedJSON {
    static func encode(_ value: PropertyListValue) throws -> Data {
        try JSONSerialization.data(withJSONObject: tagged(value), options: [.fragmentsAllowed])
    }

    /// `keepingLow64Bits`: an integer outside Int64.min...UInt64.max becomes its low 64 bits,
    /// unsigned, rather than an error.
    static func decode(_ data: Data, keepingLow64Bits: Bool = false) throws -> PropertyListValue {
        try untagged(JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]), keepingLow64Bits: keepingLow64Bits)
    }

    /// Two's complement modulo 2^64 of a decimal of any length.
    private static func low64Bits(_ decimal: String) -> UInt64? {
        let negative = decimal.hasPrefix("-")
        var magnitude: UInt64 = 0
        for character in decimal.dropFirst(negative ? 1 : 0) {
            guard let digit = character.wholeNumberValue else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
        }
        return negative ? 0 &- magnitude : magnitude
    }

    private static func tagged(_ value: PropertyListValue) -> [Any] {
        switch value {
        case .boolean(let b): ["bool", b]
        case .integer(let i): ["int", String(i)]
        case .unsignedInteger(let u): ["int", String(u)]
        case .real(let r): ["real", hex(r.bitPattern)]
        case .string(let s): ["string", s]
        case .data(let d): ["data", d.base64EncodedString()]
        case .date(let d): ["date", hex(d.timeIntervalSinceReferenceDate.bitPattern)]
        case .uid(let u): ["uid", String(u)]
        case .array(let a): ["array", a.map(tagged)]
        case .dictionary(let d): ["dict", d.mapValues(tagged)]
        }
    }

    private static func untagged(_ any: Any, keepingLow64Bits: Bool) throws -> PropertyListValue {
        let untagged = { (item: Any) in try Self.untagged(item, keepingLow64Bits: keepingLow64Bits) }
        guard let pair = any as? [Any], pair.count == 2, let kind = pair[0] as? String else { throw bad(any) }
        let payload = pair[1]
        switch kind {
        case "bool": if let b = payload as? Bool { return .boolean(b) }
        case "int":
            if let s = payload as? String, let i = Int64(s) { return .integer(i) }
            if let s = payload as? String, let u = UInt64(s) { return .unsignedInteger(u) }
            if keepingLow64Bits, let s = payload as? String, let bits = low64Bits(s) { return .integer(unsigned: bits) }
        case "real": if let s = payload as? String, let bits = UInt64(s, radix: 16) { return .real(Double(bitPattern: bits)) }
        case "string": if let s = payload as? String { return .string(s) }
        case "data": if let s = payload as? String, let d = Data(base64Encoded: s) { return .data(d) }
        case "date":
            if let s = payload as? String, let bits = UInt64(s, radix: 16) {
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
            }
        case "uid": if let s = payload as? String, let u = UInt64(s) { return .uid(u) }
        case "array": if let a = payload as? [Any] { return .array(try a.map(untagged)) }
        case "dict": if let d = payload as? [String: Any] { return .dictionary(try d.mapValues(untagged)) }
        default: break
        }
        throw bad(any)
    }

    private static func hex(_ bits: UInt64) -> String {
        let digits = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func bad(_ any: Any) -> PythonFailure {
        PythonFailure(message: "unexpected tagged JSON \(any)")
    }
}
