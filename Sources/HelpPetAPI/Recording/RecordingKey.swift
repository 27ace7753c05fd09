import AppCore
import ObjectStorage
import Foundation

/// Storage keys of recordings (contract §7.2):
/// `visit-recordings/{YYYY}/{MM}/{DD}/pet-{pet_id}/{visit_id}-{attempt}.{ext}`, dated by the UTC day of issue.
package enum RecordingKey {
    package static func make(issuedAt: Date, petID: UUID, visitID: UUID, attempt: Int, fileExtension: String) -> String {
        let day = CalendarDay(daysSince1970: Int64((issuedAt.timeIntervalSince1970 / 86_400).rounded(.down)))
        let parts = day.description.split(separator: "-")
        return "visit-recordings/\(parts[0])/\(parts[1])/\(parts[2])/pet-\(petID.lowercased)/\(visitID.lowercased)-\(attempt).\(fileExtension)"
    }

    /// The same key with another extension (re-initiate with a different content type, same attempt).
    static func replacingExtension(of key: String, with fileExtension: String) -> String {
        guard let dot = key.lastIndex(of: "."), let slash = key.lastIndex(of: "/"), dot > slash else {
            return key + "." + fileExtension
        }
        return String(key[..<dot]) + "." + fileExtension
    }

    static func fileExtension(of key: String?) -> String? {
        guard let key, let dot = key.lastIndex(of: "."), let slash = key.lastIndex(of: "/"), dot > slash else { return nil }
        return String(key[key.index(after: dot)...])
    }
}

/// File names from clients: `/`, `\`, `"` and control characters become `_` (seed 002 builds names from pet names);
/// bidirectional controls are removed (`DisplaySafeText`), so a name cannot display as another one.
enum RecordingFilename {
    static func sanitized(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !DisplaySafeText.isBidiControl($0) }.map { scalar -> Unicode.Scalar in
            switch scalar.value {
            case 0x2F, 0x5C, 0x22, 0x00...0x1F, 0x7F...0x9F: return "_"
            default: return scalar
            }
        }))
    }
}
