import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// `server backup DIR`: a consistent copy of the embedded default (the SQLite database and the local object
/// store) while the server keeps serving, with `manifest.json` (every file's size and SHA-256, counts).
///
/// Why this is consistent without stopping anything:
/// - The database is copied with SQLite's `VACUUM INTO`: one read transaction, so the copy is the database as of
///   one instant (WAL readers never block writers nor see their uncommitted work). It needs nothing but SQL on the
///   connection Fluent already has; the C backup API (`sqlite3_backup_*`) is not reachable through SQLiteNIO's
///   public API, and its step-wise copy restarts whenever another process writes, which under steady load can
///   take arbitrarily long. `VACUUM INTO` also writes a compacted file with no WAL to carry along.
/// - Objects are copied after the database snapshot. They are write-once and published data-first, metadata-last
///   (`LocalObjectStore+Publish`), and a recording is "complete" in the database only after its object exists:
///   so every object the snapshot refers to is already on disk when the copy starts. Objects that arrive later
///   are copied too when they are there in time: an object nobody refers to is what the reconciler and the
///   upload cleanup already expect after a crash.
/// - The walk starts from the metadata files, so an upload caught between its two renames is left out whole.
///
/// PostgreSQL is refused with a pointer to pg_dump/PITR: its own tools are consistent and incremental, ours would
/// be neither (README, "Backups").
struct BackupCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "directory", help: "A new or empty folder for the backup.")
        var directory: String
    }

    var help: String { "Copies the SQLite database and the local object store consistently, while serving." }

    func run(using context: CommandContext, signature: Signature) async throws {
        do {
            let manifest = try await Self.backup(context.application, into: URL(fileURLWithPath: signature.directory))
            let buckets = manifest.counts.objectsPerBucket.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            context.console.print(
                "Backup complete in \(signature.directory): \(manifest.counts.files) files, \(manifest.counts.bytes) bytes"
                    + (buckets.isEmpty ? "" : " (objects \(buckets.joined(separator: ", ")))"))
        } catch let error as BackupError {
            BackupCLI.fail("backup failed: \(error.description)")
        }
    }

    static func backup(_ app: Application, into target: URL) async throws -> BackupManifest {
        let config = app.core.config
        guard case .sqlite(let databasePath) = config.database else {
            throw BackupError(
                "DATABASE_URL is PostgreSQL: back it up with pg_dump or point-in-time recovery, and the S3 buckets "
                    + "with versioning (README, \"Backups\"). `server backup` copies the embedded SQLite default.")
        }
        try BackupCLI.prepareEmptyFolder(target)
        var files: [BackupManifest.Entry] = []

        // 1. The database, as of one instant. The target must not exist: VACUUM INTO refuses to overwrite.
        let databaseCopy = target.appendingPathComponent("app.sqlite")
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw BackupError("there is no database at \(databasePath) yet (start the server once first)")
        }
        try await app.db.sql.raw("VACUUM INTO \(bind: databaseCopy.path)").run()
        let digest = try FileDigest.digest(databaseCopy)
        files.append(.init(kind: "database", path: "app.sqlite", size: digest.size, sha256: digest.sha256))

        // 2. The local object store (after the snapshot: see above).
        var objectStore = "s3"
        if config.storage.backend == .local {
            objectStore = "local"
            files += try copyObjects(from: config.storage.localPath, to: target.appendingPathComponent("objects"))
        }

        // 3. The generated secrets: without them restored tokens and presigned URLs would no longer verify.
        for name in BackupCLI.secretFiles {
            let source = config.dataDirectory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let copied = try FileDigest.copy(
                source, to: target.appendingPathComponent("secrets/" + name), mode: 0o600)
            files.append(.init(kind: "secret", path: "secrets/" + name, size: copied.size, sha256: copied.sha256))
        }

        // 4. The manifest, last and atomically: its presence marks a complete backup.
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, createdAt: ISO8601DateFormatter().string(from: Date()),
            databaseMethod: "sqlite VACUUM INTO", objectStore: objectStore,
            counts: BackupManifest.counts(of: files), files: files)
        let partial = target.appendingPathComponent(".manifest.partial")
        try manifest.encoded().write(to: partial)
        try FileManager.default.moveItem(at: partial, to: target.appendingPathComponent(BackupManifest.fileName))
        return manifest
    }

    /// Copies every published object (metadata file present) and its metadata. `.tmp` (uploads in progress) is
    /// never copied. An object deleted while the copy runs is skipped.
    static func copyObjects(from root: URL, to target: URL) throws -> [BackupManifest.Entry] {
        var entries: [BackupManifest.Entry] = []
        let metaRoot = root.appendingPathComponent(".meta")
        for relative in FileDigest.regularFiles(under: metaRoot) {
            let data = root.appendingPathComponent(relative)
            let meta = metaRoot.appendingPathComponent(relative)
            do {
                let copiedData = try FileDigest.copy(data, to: target.appendingPathComponent(relative))
                let copiedMeta = try FileDigest.copy(meta, to: target.appendingPathComponent(".meta/" + relative))
                entries.append(.init(
                    kind: "object", path: "objects/" + relative, size: copiedData.size, sha256: copiedData.sha256))
                entries.append(.init(
                    kind: "object-metadata", path: "objects/.meta/" + relative, size: copiedMeta.size,
                    sha256: copiedMeta.sha256))
            } catch {
                // Deleted between the listing and the copy (visit deleted, upload cleanup): not an error.
                guard !FileManager.default.fileExists(atPath: meta.path) else { throw error }
                try? FileManager.default.removeItem(at: target.appendingPathComponent(relative))
            }
        }
        return entries
    }
}

/// What backup and restore share: the files besides the database and objects, folder checks, failure exit.
enum BackupCLI {
    /// Generated at first start into DATA_DIR when the variables are unset (AppConfig, StorageSettings).
    static let secretFiles = ["jwt-secret", "storage-keys.seed", "storage-keys.json"]

    /// Creates `folder` (0700: it holds secrets and patient recordings) or accepts an existing empty one.
    static func prepareEmptyFolder(_ folder: URL) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.path) {
            let contents = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard contents.isEmpty else { throw BackupError("\(folder.path) exists and is not empty") }
            try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        } else {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// Prints the reason and exits 1 (the operator's script sees a failure, never a half-done success).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }

    static func register(_ app: Application) {
        app.asyncCommands.use(BackupCommand(), as: "backup")
        app.asyncCommands.use(RestoreCommand(), as: "restore")
    }
}
