import Foundation
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// The readers' budgets: what a file may expand to, how deep it may nest, how many bytes of
/// strings and data it may hold, each named in plain words when passed.
@Suite struct LimitsTests {
    private func failure(_ body: () throws -> Any) -> PropertyListError? {
        do {
            _ = try body()
            return nil
        } catch let error as PropertyListError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    private static let small = PropertyListLimits(maxDepth: 8, maxObjects: 100, maxExpandedElements: 50,
                                                  maxStringBytes: 1_000, maxDataBytes: 1_000)

    /// Forty levels of an array holding the next level twice: 2^41 - 1 nodes from 41 objects.
    @Test(arguments: [PropertyListLimits.userFile, .defaults, .restorationState, .changeFile])
    func theSharedReferenceBombIsRefused(limits: PropertyListLimits) throws {
        let bomb = CraftedBinary.sharedReferenceBomb(levels: 40)
        #expect(bomb.count < 320)
        let error = try #require(failure { try PropertyListReader.value(from: bomb, limits: limits) })
        #expect(error.kind == .limitExceeded)
        #expect(error.message.hasPrefix("expands to more than \(MessageText.grouped(limits.maxExpandedElements)) objects"))
    }

    @Test func theBombsMessageNamesTheUserFileLimit() throws {
        let error = try #require(failure { try PropertyListReader.value(from: CraftedBinary.sharedReferenceBomb(levels: 40)) })
        #expect(error.description.contains("expands to more than 1,000,000 objects"))
        #expect(error.unit == .byteOffset)
    }

    /// Sharing within the budget is still read, and counted at every use: 2^6 - 1 nodes pass a
    /// budget of 63 and fail one of 62.
    @Test func sharedObjectsCountAtEveryUse() throws {
        let file = CraftedBinary.sharedReferenceBomb(levels: 5)
        var limits = PropertyListLimits.userFile
        limits.maxExpandedElements = 63
        #expect(try BinaryPropertyListReader.read(file, limits: limits) != .boolean(false))
        limits.maxExpandedElements = 62
        #expect(failure { try BinaryPropertyListReader.read(file, limits: limits) }?.kind == .limitExceeded)
    }

    /// A 300-deep chain decoded once, then reached again from under another 300 levels: the
    /// cached object's height counts where it is used, not only where it was first decoded.
    @Test func depthCountsThroughSharedObjects() throws {
        let chain = 300
        // 0: top [1, 2]; 1...chain: chain of arrays ending in `true`; then another chain ending in object 1.
        var objects: [[UInt8]] = [[0xA2] + ref(1) + ref(chain + 2)]
        for k in 1...chain { objects.append(k < chain ? [0xA1] + ref(k + 1) : [0xA0]) }
        objects.append([0x09])
        for k in 0..<chain { objects.append([0xA1] + ref(k < chain - 1 ? chain + 3 + k : 1)) }
        let file = CraftedBinary.file(objects, referenceSize: 2)
        let error = try #require(failure { try BinaryPropertyListReader.read(file) })
        #expect(error.kind == .tooDeep)
        #expect(error.message == "containers are nested deeper than 512 levels")
    }

    private func ref(_ index: Int) -> [UInt8] { CraftedBinary.bigEndian(UInt64(index), size: 2) }

    @Test func xmlCountsEveryElement() throws {
        let wide = "<plist><array>" + String(repeating: "<true/>", count: 50) + "</array></plist>"
        let error = try #require(failure { try XMLPropertyListReader.read(Data(wide.utf8), limits: Self.small) })
        #expect(error.kind == .limitExceeded)
        #expect(error.message.hasPrefix("expands to more than 50 objects"))
        #expect(error.unit == .line)
        let fits = "<plist><array>" + String(repeating: "<true/>", count: 49) + "</array></plist>"
        #expect(try XMLPropertyListReader.read(Data(fits.utf8), limits: Self.small) != .boolean(true))
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func nestingBeyond512IsRefused(format: PropertyListFormat) throws {
        var file: Data
        if format == .xml {
            file = Data(("<plist>" + String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600) + "</plist>").utf8)
        } else {
            file = CraftedBinary.file((0..<600).map { $0 < 599 ? [0xA1] + ref($0 + 1) : [0xA0] }, referenceSize: 2)
        }
        let error = try #require(failure { try PropertyListReader.value(from: file) })
        #expect(error.kind == .tooDeep)
        #expect(error.message == "containers are nested deeper than 512 levels")
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func stringAndDataBytesAreBudgeted(format: PropertyListFormat) throws {
        let strings = try PropertyListSerializer.data(from: .array([.string(String(repeating: "a", count: 600)),
                                                                    .string(String(repeating: "b", count: 401))]), format: format)
        let stringError = try #require(failure { try PropertyListReader.value(from: strings, limits: Self.small) })
        #expect(stringError.kind == .limitExceeded)
        #expect(stringError.message.hasPrefix("holds more than 1,000 bytes of strings"))

        let keys = try PropertyListSerializer.data(from: .dictionary([String(repeating: "k", count: 1_001): .integer(1)]), format: format)
        #expect(failure { try PropertyListReader.value(from: keys, limits: Self.small) }?.message.hasPrefix("holds more than 1,000 bytes of strings") == true)

        let data = try PropertyListSerializer.data(from: .data(Data(count: 1_001)), format: format)
        let dataError = try #require(failure { try PropertyListReader.value(from: data, limits: Self.small) })
        #expect(dataError.message.hasPrefix("holds more than 1,000 bytes of data"))
    }

    /// One 600-byte string referenced twice is 1,200 bytes once expanded.
    @Test func sharedStringsCountAtEveryUse() throws {
        let string = [0x5F, 0x11] + CraftedBinary.bigEndian(600, size: 2) + Array(repeating: UInt8(ascii: "s"), count: 600)
        let file = CraftedBinary.file([[0xA2, 1, 1], string])
        #expect(failure { try BinaryPropertyListReader.read(file, limits: Self.small) }?.message
            .hasPrefix("holds more than 1,000 bytes of strings") == true)
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func distinctObjectsAreBudgeted(format: PropertyListFormat) throws {
        var limits = PropertyListLimits.userFile
        limits.maxObjects = 10
        let file = try PropertyListSerializer.data(from: .array((0..<20).map { .integer($0) }), format: format)
        let error = try #require(failure { try PropertyListReader.value(from: file, limits: limits) })
        #expect(error.message == "holds more than 10 distinct objects")
    }

    @Test func checkAppliesTheReadersLimitsToAValue() throws {
        var shared = PropertyListValue.boolean(true)
        for _ in 0..<40 { shared = .array([shared, shared]) }
        let error = try #require(failure { try PropertyListLimits.changeFile.check(shared) })
        #expect(error.kind == .limitExceeded)
        #expect(error.message.hasPrefix("expands to more than 1,048,576 objects"))
        try PropertyListLimits.changeFile.check(Fixtures.mixed)
        #expect(failure { try Self.small.check(Fixtures.mixed) } != nil)
    }

    /// `check` draws each line where the XML reader does (XML shares nothing), and the binary
    /// reader, which may share, accepts whatever is at the line.
    @Test func checkAgreesWithTheReaders() throws {
        let value = Fixtures.withUID(Fixtures.mixed)
        let xml = try PropertyListSerializer.data(from: value, format: .xml)
        let binary = try PropertyListSerializer.data(from: value, format: .binary)
        let dimensions: [WritableKeyPath<PropertyListLimits, Int>] = [\.maxExpandedElements, \.maxObjects, \.maxStringBytes, \.maxDataBytes]
        for dimension in dimensions {
            func limits(_ size: Int) -> PropertyListLimits {
                var limits = PropertyListLimits.userFile
                limits[keyPath: dimension] = size
                return limits
            }
            // The smallest size the XML reader accepts, by bisection (acceptance only grows with size).
            var (refused, accepted) = (0, 1 << 20)
            while accepted - refused > 1 {
                let middle = (refused + accepted) / 2
                if (try? XMLPropertyListReader.read(xml, limits: limits(middle))) != nil { accepted = middle } else { refused = middle }
            }
            #expect(accepted > 1, "\(dimension)")
            #expect((try? limits(accepted).check(value)) != nil, "\(dimension) \(accepted)")
            #expect((try? limits(accepted - 1).check(value)) == nil, "\(dimension) \(accepted - 1)")
            #expect((try? BinaryPropertyListReader.read(binary, limits: limits(accepted))) != nil, "\(dimension) \(accepted)")
        }
    }

    @Test func presetsGrowWithTheTrustTheyNeed() {
        let presets: [PropertyListLimits] = [.changeFile, .defaults, .restorationState, .userFile]
        for preset in presets {
            #expect(preset.maxDepth == PropertyListLimits.deepestNesting)
            #expect(preset.maxStringBytes <= PropertyListLimits.userFile.maxStringBytes)
            #expect(preset.maxDataBytes <= PropertyListLimits.userFile.maxDataBytes)
        }
        #expect(PropertyListLimits.changeFile.maxStringBytes < PropertyListLimits.defaults.maxStringBytes)
    }

    @Test func quotedInputIsCutInMessages() throws {
        let key = String(repeating: "k", count: 10_000)
        let xml = "<plist><dict><key>\(key)</key><true/><key>\(key)</key><true/></dict></plist>"
        let warning = try #require(try PropertyListReader.lint(Data(xml.utf8)).warnings.kept.first)
        #expect(warning.kind == .duplicateKey)
        #expect(warning.message.count < 300)
        #expect(warning.message.contains("k…\""))
        let number = "<plist><integer>" + String(repeating: "9", count: 5_000) + "x</integer></plist>"
        #expect(try #require(failure { try XMLPropertyListReader.read(Data(number.utf8)) }).message.count < 300)
    }

    @Test func excerptsAndCounts() {
        #expect(MessageText.excerpt("short") == "short")
        #expect(MessageText.excerpt(String(repeating: "é", count: 201)) == String(repeating: "é", count: 200) + "…")
        #expect(MessageText.grouped(1_000_000) == "1,000,000")
        #expect(MessageText.grouped(999) == "999")
        #expect(MessageText.grouped(-1_048_576) == "-1,048,576")
    }
}
