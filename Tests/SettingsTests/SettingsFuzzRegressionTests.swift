import Foundation
import Testing
import Settings
import PropertyList

/// Settings bundles that crashed the FuzzSettingsSchema harness (Fuzz/Sources/FuzzSettingsSchema),
/// which uses every item the loader accepts the way the settings screen does. The same input is
/// kept in Fuzz/Corpus/FuzzSettingsSchema/regression-slider-int64-max.
@Suite("Settings schema fuzz regressions")
struct SettingsFuzzRegressionTests {
    private func slider(minimum: PropertyListValue, maximum: PropertyListValue, default value: PropertyListValue) throws -> SliderSpecifier {
        let item: PropertyListValue = .dictionary([
            "Type": "PSSliderSpecifier", "Key": "k", "DefaultValue": value, "MinimumValue": minimum, "MaximumValue": maximum,
        ])
        let root = try PropertyListSerializer.data(from: .dictionary(["PreferenceSpecifiers": .array([item])]), format: .xml)
        let bundle = SettingsBundle.load(files: ["Root.plist": root])
        #expect(bundle.errors.isEmpty, "\(bundle.errors)")
        guard case .slider(let slider)? = bundle.root.items.first?.specifier else {
            throw SettingsSchemaError(.missingField, file: "Root.plist", index: 0, "the slider was not loaded")
        }
        return slider
    }

    /// Int64.max is 2^63 as a Double; Int64(_:) trapped on the slider's own maximum.
    @Test func anIntegralSliderEndingAtInt64LimitsStoresItsEnds() throws {
        let wide = try slider(minimum: .integer(.min), maximum: .integer(.max), default: .integer(0))
        #expect(wide.isIntegral)
        #expect(wide.value(for: wide.maximumValue) == .integer(.max))
        #expect(wide.value(for: .infinity) == .integer(.max))
        #expect(wide.value(for: wide.minimumValue) == .integer(.min))
        #expect(wide.value(for: -.infinity) == .integer(.min))
        #expect(wide.value(for: 0 + wide.step) != .integer(0))
    }

    /// A stored NaN (`defaults write … -float nan`) reads as the minimum and stores as it.
    @Test func aSliderTakesNaNAsItsMinimum() throws {
        let integral = try slider(minimum: .integer(40), maximum: .integer(120), default: .integer(80))
        #expect(integral.value(for: .nan) == .integer(40))
        #expect(integral.number(.real(.nan)) == 40)
        let real = try slider(minimum: .real(0), maximum: .real(1), default: .real(0.5))
        #expect(real.value(for: .nan) == .real(0))
    }
}
