import Testing
@testable import PropertyList

@Test func uidIsDistinctFromInteger() { #expect(PropertyListValue.uid(0) != .integer(0)) }
