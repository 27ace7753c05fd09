import Crypto
import Foundation

/// `manifest.json` of a backup folder: every file with its size and SHA-256, and counts a person can check at a
/// glance. Written last, so a folder without it is an interrupted backup and `server restore` refuses it.
struct BackupManifest: Codable, Sendable {
    /// Bumped when the folder layout changes; restore refuses formats it does not know.
    static let currentFormat = 1
    static let fileName = "manifest.json"

    struct Entry: Codable, Sendable, Equatable {
        /// `database`, `object` (an object's bytes), `object-metadata` (its sidecar JSON) or `secret`.
        var kind: String
        /// Relative to the backup folder, and to the data folder (or object store root) on restore.
        var path: String
        var size: Int64
        var sha256: String
    }

    struct Counts: Codable, Sendable, Equatable {
        var files: Int
        var bytes: Int64
        /// Objects (not their metadata files) per bucket.
        var objectsPerBucket: [String: Int]
    }

    var format: Int
    var createdAt: String
    /// How the database was copied (`sqlite VACUUM INTO`), for the person reading the manifest.
    var databaseMethod: String
    /// Whether the object store was copied (`local`) or left to the operator (`s3`: bucket versioning).
    var objectStore: String
    var counts: Counts
    var files: [Entry]

    static func counts(of files: [Entry]) -> Counts {
        var perBucket: [String: Int] = [:]
        for entry in files where entry.kind == "object" {
            // `objects/{bucket}/{key}`
            let parts = entry.path.split(separator: "/", maxSplits: 2)
            if parts.count == 3 { perBucket[String(parts[1]), default: 0] += 1 }
        }
        return Counts(files: files.count, bytes: files.reduce(0) { $0 + $1.size }, objectsPerBucket: perBucket)
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws -> BackupManifest {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(BackupManifest.self, from: data)
    }
}

/// A refused or failed backup/restore, with the message the operator sees (exit status 1).
struct BackupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Streams files in 1 MiB chunks (recordings are up to hundreds of MB: never read whole) and hashes on the way.
enum FileDigest {
    static let chunkSize = 1 << 20

    /// Copies `source` to `destination` (created with mode `mode`, parents made) and returns size and SHA-256 of
    /// the bytes written. Writes to a temporary name and renames, so a destination never holds a partial file.
    static func copy(_ source: URL, to destination: URL, mode: Int = 0o644) throws -> (size: Int64, sha256: String) {
        let fm = FileManager.default
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        guard fm.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: mode]) else {
            throw BackupError("cannot create \(partial.path)")
        }
        do {
            let input = try FileHandle(forReadingFrom: source)
            defer { try? input.close() }
            let output = try FileHandle(forWritingTo: partial)
            defer { try? output.close() }
            var hasher = SHA256()
            var size: Int64 = 0
            while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
                hasher.update(data: chunk)
                try output.write(contentsOf: chunk)
                size += Int64(chunk.count)
            }
            try output.synchronize()
            // rename(2) replaces an existing file atomically (restore puts the backup's secrets over the ones a
            // fresh data folder generated at start).
            guard rename(partial.path, destination.path) == 0 else {
                throw BackupError("cannot rename \(partial.path) to \(destination.path): errno \(errno)")
            }
            return (size, hex(hasher.finalize()))
        } catch {
            try? fm.removeItem(at: partial)
            throw error
        }
    }

    /// Size and SHA-256 of a file.
    static func digest(_ url: URL) throws -> (size: Int64, sha256: String) {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (size, hex(hasher.finalize()))
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Regular files below `root`, as paths relative to it, sorted; folders named in `skipping` (at any depth
    /// directly below root) are not entered.
    static func regularFiles(under root: URL, skipping: Set<String> = []) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
            if skipping.contains(first) {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            // Our own in-progress copies (`.name.partial-xxxx`) are never part of a backup or a store.
            if (path as NSString).lastPathComponent.contains(".partial-") { continue }
            found.append(path)
        }
        return found.sorted()
    }
}
