import AppCore
import Vapor

/// This product's way into AppCore's one body and query reader: its size cap and its contract's wording.
extension Request {
    /// JSON bodies of this product are limited to 64 KiB (contract §1.2 rule 10).
    static let autodetailMaxBodyBytes = 65_536

    /// Step 5 of §1.7: size (413), content type (415), JSON syntax and shape (400); an empty body reads as `{}`.
    func autodetailBody() throws -> FieldReader {
        try limitedJSONObject(maxBytes: Self.autodetailMaxBodyBytes, messages: .autoDetail)
    }

    /// The query string with this contract's rules (§1.5, §1.8): blank = missing, `Invalid parameter: …`.
    var autodetailQuery: QueryParameters { QueryParameters(self, messages: .autoDetail) }
}
