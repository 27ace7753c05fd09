import Foundation

/// The sidecar JSON stored next to each object (and, during an upload, next to its temporary file, so a
/// restart can finish a publish that was interrupted after the data was linked).
struct ObjectMetadata: Codable, Sendable, Equatable {
    var bucket: String
    var key: String
    var contentType: String
    var size: Int64
    var etag: String

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) -> ObjectMetadata? { try? JSONDecoder().decode(ObjectMetadata.self, from: data) }
}
