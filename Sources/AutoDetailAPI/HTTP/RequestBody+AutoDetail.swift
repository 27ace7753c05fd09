import AppCore
import Foundation
import Vapor

extension Request {
    /// JSON bodies of this product are limited to 64 KiB (contract §1.2 rule 10).
    static let autodetailMaxBodyBytes = 65_536

    /// Step 5 of §1.7: size (413), content type (415), JSON syntax and shape (400). An empty body reads as `{}`
    /// whatever its content type.
    func autodetailBody() throws -> BodyFields {
        if let declared = headers.first(name: .contentLength).flatMap(Int.init), declared > Self.autodetailMaxBodyBytes {
            throw APIError.payloadTooLarge
        }
        let data = bodyData
        if data.count > Self.autodetailMaxBodyBytes { throw APIError.payloadTooLarge }
        if data.isEmpty { return BodyFields([:]) }
        guard hasMediaType("application", "json") else { throw APIError.unsupportedMediaType }
        // Strict RFC 8259 syntax first (Foundation accepts trailing commas; the scanner also bounds nesting).
        guard StrictJSONSyntax.isValid(data), let value = try? JSONDecoder().decode(JSONValue.self, from: data),
            case .object(let object) = value
        else {
            throw APIError.invalidJSONBody
        }
        return BodyFields(object)
    }
}
