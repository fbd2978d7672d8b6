import Foundation
import PropertyList

/// One specifier of a settings pane, as a plist dictionary.
func spec(_ type: String, _ fields: [String: PropertyListValue] = [:]) -> PropertyListValue {
    var dictionary = fields
    dictionary["Type"] = .string(type)
    return .dictionary(dictionary)
}

/// A pane file holding `items`.
func paneFile(_ items: [PropertyListValue]) -> Data {
    try! PropertyListSerializer.data(from: .dictionary(["PreferenceSpecifiers": .array(items)]), format: .xml)
}
