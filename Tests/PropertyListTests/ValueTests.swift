import Testing
@testable import PropertyList

@Test func valuesCompareByContent() {
    #expect(PropertyListValue.array([.integer(1)]) == .array([.integer(1)]))
    #expect(PropertyListValue.uid(1) != .integer(1))
}
