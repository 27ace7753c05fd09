import Crypto
import Foundation

/// RFC 4122 name-based UUIDs (version 5, SHA-1): the demo appointments' ids are derived from the seed day.
enum NameBasedUUID {
    static func v5(namespace: UUID, name: String) -> UUID {
        var bytes = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        bytes.append(contentsOf: Array(name.utf8))
        var digest = Array(Insecure.SHA1.hash(data: bytes).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        let t = (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                 digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15])
        return UUID(uuid: t)
    }
}
