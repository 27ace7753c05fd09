import AppCore
import Foundation

/// The body of `PUT /practices/{id}/vocabulary`: `{"terms": [...]}`, the whole list (an empty array clears it).
///
/// A term is what a vet says: 2 to 60 of Latin letters (with accents), digits, spaces and `- ' . / +`, not starting or
/// ending with a space. The rule is exact rather than forgiving (no trimming) so the OpenAPI pattern states it
/// precisely. A repeat (ignoring case) is dropped; the first spelling wins.
struct PracticeVocabularyRequest {
    static let maxTerms = 200
    static let termLength = 2...60

    let terms: [String]

    init(_ fields: FieldReader) throws {
        guard let raw = try fields.optionalArray("terms") else { throw APIError.badRequest("terms is required") }
        guard raw.count <= Self.maxTerms else {
            throw APIError.badRequest("terms may hold at most \(Self.maxTerms) entries")
        }
        var seen = Set<String>()
        var terms: [String] = []
        for (index, value) in raw.enumerated() {
            guard case .string(let term) = value else { throw APIError.badRequest("terms[\(index)] must be a string") }
            guard Self.termLength.contains(term.unicodeScalars.count) else {
                throw APIError.badRequest("terms[\(index)] must be 2 to 60 characters")
            }
            guard term.unicodeScalars.allSatisfy(Self.allowed), term.first != " ", term.last != " " else {
                throw APIError.badRequest(
                    "terms[\(index)] may contain only letters, digits, spaces and - ' . / +, and may not start or end with a space")
            }
            if seen.insert(term.lowercased()).inserted { terms.append(term) }
        }
        self.terms = terms
    }

    /// Also in the OpenAPI document (PracticeVocabularyReplace): keep the two alike.
    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: return true
        case 0xC0...0x24F: return scalar.value != 0xD7 && scalar.value != 0xF7  // Latin letters, not × and ÷
        default: return "-'./+ ".unicodeScalars.contains(scalar)
        }
    }
}
