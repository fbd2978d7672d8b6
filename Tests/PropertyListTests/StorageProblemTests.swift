import Foundation
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// Values no property-list writer accepts: found with a path by `storageProblem`, refused with a
/// typed error by both writers, and never a trap.
@Suite struct StorageProblemTests {
    private static let nan = Date(timeIntervalSinceReferenceDate: .nan)

    @Test func aWritableValueHasNoProblem() {
        #expect(Fixtures.mixed.storageProblem == nil)
        #expect(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 0)).storageProblem == nil)
    }

    @Test func problemsNameWhatAndWhere() {
        let value = PropertyListValue.dictionary([
            "fine": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "history": .array([.integer(1), .dictionary(["when": .date(Self.nan)])]),
        ])
        #expect(value.storageProblem == "the date is not a number (nan) at history[1].when")
        #expect(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: -.infinity)).storageProblem
            == "the date is infinite (-inf) at the top level")
        #expect(PropertyListValue.array([.date(Date(timeIntervalSinceReferenceDate: 1e300))]).storageProblem
            == "the date 1e+300 seconds from 2001 lies outside years 0...9999 at [0]")
        #expect(PropertyListValue.uid(UInt64.max).storageProblem?.hasPrefix("the UID 18446744073709551615 does not fit") == true)
    }

    /// Built in code, deeper than any reader allows: the walk keeps its own stack. (Far deeper
    /// would overflow the stack in Swift's own recursive release of the value, not in the walk.)
    @Test func deepValuesAreReportedWithoutRecursion() throws {
        var value = PropertyListValue.boolean(true)
        for _ in 0..<3_000 { value = .array([value]) }
        let problem = try #require(value.storageProblem)
        #expect(problem.hasPrefix("containers are nested deeper than 512 levels at [0][0]"))
        #expect(problem.count < 300)
    }

    @Test func longKeysAreCutInThePath() throws {
        let key = String(repeating: "x", count: 5_000)
        let problem = try #require(PropertyListValue.dictionary([key: .date(Self.nan)]).storageProblem)
        #expect(problem.count < 300)
        #expect(problem.hasSuffix("…"))
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func writersRefuseWhatStorageProblemNames(format: PropertyListFormat) {
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1e12] {
            let value = PropertyListValue.array([.date(Date(timeIntervalSinceReferenceDate: seconds))])
            #expect(value.storageProblem != nil)
            #expect(throws: PropertyListError.self) { try PropertyListSerializer.data(from: value, format: format) }
            do { _ = try PropertyListSerializer.data(from: value, format: format) } catch let error as PropertyListError {
                #expect(error.kind == .unrepresentableValue)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    /// A binary file may still carry a NaN date (0x33 then NaN's bits): it reads, and what is
    /// wrong with it is reported rather than trapped on.
    @Test func aNaNDateReadsAndIsReported() throws {
        let value = try BinaryPropertyListReader.read(CraftedBinary.date(.nan))
        guard case .array(let items) = value, case .date(let date)? = items.first else {
            Issue.record("expected an array holding a date, got \(value)")
            return
        }
        #expect(date.timeIntervalSinceReferenceDate.isNaN)
        #expect(value.storageProblem == "the date is not a number (nan) at [0]")
        #expect(PropertyListValue.describe(date) == "invalid date (nan)")
        #expect(PropertyListValue.describe(Date(timeIntervalSinceReferenceDate: .infinity)) == "invalid date (inf)")
        #expect(PropertyListValue.describe(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
        #expect(PropertyListValue.describe(Date(timeIntervalSinceReferenceDate: 1e300)).hasPrefix("date outside years 0...9999"))
    }
}
