import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// `server restore DIR`: puts a `server backup` folder into a fresh data folder (the configured `DATA_DIR` and
/// object store root) and proves it arrived whole: every file is checked against the manifest before a byte is
/// copied and again after, and SQLite's `PRAGMA integrity_check` must answer `ok`. Run it with the server stopped.
///
/// "Fresh" means no database file yet and no stored object: restore never merges into or overwrites a clinic's
/// data. The secrets a first start generated (`jwt-secret`, storage keys) are replaced by the backup's, so tokens
/// and presigned URLs issued before the backup still verify.
struct RestoreCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "directory", help: "A folder written by `server backup`.")
        var directory: String
    }

    var help: String { "Restores a `server backup` folder into a fresh data folder and verifies it." }

    func run(using context: CommandContext, signature: Signature) async throws {
        do {
            let manifest = try await Self.restore(context.application, from: URL(fileURLWithPath: signature.directory))
            context.console.print(
                "Restore complete and verified: \(manifest.counts.files) files, \(manifest.counts.bytes) bytes, "
                    + "database integrity ok.")
        } catch let error as BackupError {
            BackupCLI.fail("restore failed: \(error.description)")
        }
    }

    static func restore(_ app: Application, from source: URL) async throws -> BackupManifest {
        let config = app.core.config
        guard case .sqlite(let databasePath) = config.database else {
            throw BackupError("DATABASE_URL is PostgreSQL: restore it with pg_restore/PITR (README, \"Backups\")")
        }
        let manifestURL = source.appendingPathComponent(BackupManifest.fileName)
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw BackupError("\(manifestURL.path) is missing: not a complete backup")
        }
        let manifest: BackupManifest
        do { manifest = try BackupManifest.decode(data) } catch {
            throw BackupError("\(manifestURL.path) is not a backup manifest: \(error)")
        }
        guard manifest.format == BackupManifest.currentFormat else {
            throw BackupError("manifest format \(manifest.format) is not supported (this server reads \(BackupManifest.currentFormat))")
        }
        if manifest.objectStore == "local", config.storage.backend != .local {
            throw BackupError("the backup holds local objects but STORAGE_BACKEND is \(config.storage.backend.rawValue)")
        }

        // 1. The backup is whole before anything is touched.
        try verify(manifest.files, under: source, against: "the backup")

        // 2. The destination is fresh.
        let database = URL(fileURLWithPath: databasePath)
        for path in [databasePath, databasePath + "-wal"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size == 0 else { throw BackupError("\(path) already holds a database: restore needs a fresh data folder") }
        }
        let objectRoot = config.storage.localPath
        if config.storage.backend == .local {
            let existing = FileDigest.regularFiles(under: objectRoot, skipping: [".tmp"])
            guard existing.isEmpty else {
                throw BackupError("\(objectRoot.path) already holds \(existing.count) object files: restore needs a fresh data folder")
            }
        }

        // 3. Copy: each file to its place (written under a temporary name, then renamed).
        var placed: [(BackupManifest.Entry, URL)] = []
        for entry in manifest.files {
            let destination = try self.destination(of: entry, database: database, objectRoot: objectRoot, dataDirectory: config.dataDirectory)
            _ = try FileDigest.copy(
                source.appendingPathComponent(entry.path), to: destination, mode: entry.kind == "secret" ? 0o600 : 0o644)
            placed.append((entry, destination))
        }

        // 4. Verify what landed, then the database itself.
        for (entry, destination) in placed {
            let digest = try FileDigest.digest(destination)
            guard digest.size == entry.size, digest.sha256 == entry.sha256 else {
                throw BackupError("\(destination.path) differs from the manifest after the copy")
            }
        }
        let rows = try await app.db.sql.raw("PRAGMA integrity_check").all()
        let answers = try rows.map { try $0.decode(column: "integrity_check", as: String.self) }
        guard answers == ["ok"] else { throw BackupError("the restored database fails its integrity check: \(answers)") }
        return manifest
    }

    /// Where a manifest entry goes: the database file, under the object store root, or into DATA_DIR.
    static func destination(of entry: BackupManifest.Entry, database: URL, objectRoot: URL, dataDirectory: URL) throws -> URL {
        // The manifest is data from a folder: never let a path climb out of where it belongs.
        guard !entry.path.hasPrefix("/"), !entry.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { throw BackupError("unsafe path in manifest: \(entry.path)") }
        switch entry.kind {
        case "database" where entry.path == "app.sqlite":
            return database
        case "object" where entry.path.hasPrefix("objects/"), "object-metadata" where entry.path.hasPrefix("objects/.meta/"):
            return objectRoot.appendingPathComponent(String(entry.path.dropFirst("objects/".count)))
        case "secret" where BackupCLI.secretFiles.contains(String(entry.path.dropFirst("secrets/".count))):
            return dataDirectory.appendingPathComponent(String(entry.path.dropFirst("secrets/".count)))
        default:
            throw BackupError("unexpected manifest entry \(entry.kind) \(entry.path)")
        }
    }

    /// Every entry exists under `root` with its size and checksum; lists the first mismatches.
    static func verify(_ entries: [BackupManifest.Entry], under root: URL, against what: String) throws {
        var problems: [String] = []
        for entry in entries {
            let url = root.appendingPathComponent(entry.path)
            guard let digest = try? FileDigest.digest(url) else {
                problems.append("\(entry.path): missing")
                continue
            }
            if digest.size != entry.size { problems.append("\(entry.path): \(digest.size) bytes, manifest says \(entry.size)") }
            else if digest.sha256 != entry.sha256 { problems.append("\(entry.path): checksum differs") }
        }
        guard problems.isEmpty else {
            throw BackupError("\(what) does not match its manifest (\(problems.count) files): "
                + problems.prefix(5).joined(separator: "; "))
        }
    }
}
