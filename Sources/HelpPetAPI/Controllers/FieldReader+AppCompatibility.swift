import AppCore
import Foundation

// Field shapes the iPhone app sends (docs/iphone-app-compatibility.md).
extension FieldReader {
    /// A boolean that may also be `null` (unknown): `spayed_neutered`.
    func optionalNullableBool(_ key: String) throws -> FieldPatch<Bool> {
        guard let raw = object[key] else { return .absent }
        switch raw {
        case .bool(let b): return .value(b)
        case .null: return .null
        default: throw APIError.badRequest("\(key) must be a boolean")
        }
    }

    /// A number or null, `0 ... max`, finite: the app's optional measurements.
    func optionalMeasurement(_ key: String, max: Double) throws -> FieldPatch<Double> {
        guard let raw = object[key] else { return .absent }
        let value: Double
        switch raw {
        case .null: return .null
        case .integer(let i): value = Double(i)
        case .number(let d): value = d
        default: throw APIError.badRequest("\(key) must be a number")
        }
        guard value.isFinite, value >= 0, value <= max else {
            throw APIError.badRequest("\(key) must be between 0 and \(Int(max))")
        }
        return .value(value)
    }
}

extension FieldPatch where Value == String {
    /// `""` clears an optional text field (stored as null), as the app sends an empty text field.
    var emptyAsNull: FieldPatch<String> {
        if case .value(let s) = self, s.isEmpty { return .null }
        return self
    }
}
