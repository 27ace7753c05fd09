import Foundation

/// Strict percent-encoding for form bodies, queries and path segments: everything but `A–Z a–z 0–9 - . _ ~`, so a
/// `+`, `&`, `=` or `%` in a password, an id or a phone number can never change the meaning of a URL or a form
/// (HelpPet contract §9.4).
package enum PercentEncoding {
    package static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `name=value&…`, both sides encoded: a form body or a query string.
    package static func form(_ fields: [(String, String)]) -> String {
        fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
