import AppCore
import Foundation

/// The legacy client profile's differences from the contract's shapes, as one pure function on a response body
/// (README, "iPhone app (legacy client profile)"):
/// - a medical record's `medications` list is one string, the items joined with `", "`;
/// - a user's role `ADMIN` is `SYSTEM_ADMIN` (the app has no `ADMIN`), a pending user's `PENDING` is
///   `PENDING_INVITE`.
/// Objects are recognised by their keys (a medical record has `record_type`, a user `username`), wherever they are
/// nested (lists, envelopes, detail responses).
enum LegacyResponseMapping {
    static let roleNames = ["ADMIN": "SYSTEM_ADMIN", "PENDING": "PENDING_INVITE"]

    static func map(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(map))
        case .object(var object):
            for (key, nested) in object { object[key] = map(nested) }
            if object["record_type"] != nil, case .array(let items)? = object["medications"] {
                object["medications"] = .string(items.compactMap(\.stringValue).joined(separator: ", "))
            }
            if object["username"] != nil, case .string(let role)? = object["role"], let legacy = roleNames[role] {
                object["role"] = .string(legacy)
            }
            return .object(object)
        default: return value
        }
    }

    /// Cheap pre-check on the encoded body, so responses without any mapped key are passed through untouched.
    static func mayApply(to body: Data) -> Bool {
        body.range(of: Data("\"medications\"".utf8)) != nil || body.range(of: Data("\"role\"".utf8)) != nil
    }
}
