import AppCore
import Foundation

/// Object keys and photo references (contract §7.2): `appointments/{appointmentId}/{kind}/{uploadId}.{ext}`, and
/// `ref = "s3:" + key`. The client's filename never enters a key.
enum PhotoReference {
    static let prefix = "s3:"

    static func objectKey(appointmentID: UUID, kind: PhotoKind, uploadID: UUID, type: PhotoContentType) -> String {
        "appointments/\(appointmentID.lowercased)/\(kind.rawValue)/\(uploadID.lowercased).\(type.fileExtension)"
    }

    static func ref(forKey key: String) -> String { prefix + key }

    /// The object key of a ref, or nil when the text is not of the ref form.
    static func objectKey(fromRef ref: String) -> String? {
        guard ref.hasPrefix(prefix) else { return nil }
        let key = String(ref.dropFirst(prefix.count))
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "appointments", UUID(canonical: String(parts[1])) != nil,
            PhotoKind(rawValue: String(parts[2])) != nil
        else { return nil }
        return key
    }
}
