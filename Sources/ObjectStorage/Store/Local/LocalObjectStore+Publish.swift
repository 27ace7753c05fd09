import Foundation
import Vapor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An upload in progress: the writer of its temporary data file and where its metadata goes until publish.
struct PendingUpload: Sendable {
    let writer: StreamedFileWriter
    let metaPath: String
}

extension LocalObjectStore {
    /// Starts an upload: a new, exclusively created temporary file in this instance's `.tmp/{instance}/`.
    func beginUpload() async throws -> PendingUpload {
        let paths = LocalObjectLayout.uploadPaths(
            in: layout.instanceDirectory(instance.id), uploadID: UUID().uuidString.lowercased())
        let writer = try await StreamedFileWriter.create(at: paths.data, io: io)
        return PendingUpload(writer: writer, metaPath: paths.meta)
    }

    /// Publishes a finished (fsynced, closed) upload under `key`, atomically and write-once:
    ///
    /// 1. the metadata is written next to the temporary data file and fsynced;
    /// 2. `link(temp, final)` creates the object's name. `link` never replaces an existing file, so of two
    ///    uploads to one key exactly one wins; the other gets 403 `AccessDenied` and the first object stays.
    ///    Readers see either no object or the whole file, never a partial one;
    /// 3. the metadata is renamed into place and both directories are fsynced;
    /// 4. the temporary name is removed.
    /// A crash after 2 is finished by `recoverAndCleanUp()` at the next start (the temporary metadata says which
    /// key, and the shared inode proves the link happened).
    func publish(
        _ upload: PendingUpload, bucket: String, key: String, contentType: String, size: Int64, md5: String
    ) async throws -> ObjectInfo {
        guard let dataPath = layout.dataPath(bucket: bucket, key: key) else {
            await upload.writer.discard()
            throw ObjectKeyRules.validate(key) ?? StorageError.invalidArgument("Unsafe object key.")
        }
        let metaPath = layout.metaPath(bucket: bucket, key: key)
        let temp = (data: upload.writer.path, meta: upload.metaPath)
        let metadata = try ObjectMetadata(bucket: bucket, key: key, contentType: contentType, size: size, etag: md5).encoded()
        do {
            let modified = try await io.run { () throws -> Date in
                do {
                    return try Self.linkIntoPlace(tempData: temp.data, tempMeta: temp.meta, metadata: metadata,
                                         dataPath: dataPath, metaPath: metaPath)
                } catch {
                    try? POSIXFile.removeFile(temp.data)
                    try? POSIXFile.removeFile(temp.meta)
                    throw error
                }
            }
            return ObjectInfo(size: size, contentType: contentType, etag: md5, lastModified: modified)
        } catch let failure as FileSystemFailure {
            logger.error("publishing an object failed: \(failure)")
            throw failure.storageError
        }
    }

    /// The blocking part of `publish`; runs on the storage thread pool.
    private static func linkIntoPlace(
        tempData: String, tempMeta: String, metadata: Data, dataPath: String, metaPath: String
    ) throws -> Date {
        let metaFD = try POSIXFile.createExclusive(tempMeta)
        do {
            var buffer = ByteBufferAllocator().buffer(capacity: metadata.count)
            buffer.writeBytes(metadata)
            try POSIXFile.writeAll(metaFD, buffer, path: tempMeta)
            try POSIXFile.fsyncFile(metaFD, path: tempMeta)
            POSIXFile.closeFile(metaFD)
        } catch {
            POSIXFile.closeFile(metaFD)
            throw error
        }

        let dataDirectory = LocalObjectLayout.parentDirectory(of: dataPath)
        let metaDirectory = LocalObjectLayout.parentDirectory(of: metaPath)
        try POSIXFile.makeDirectories(dataDirectory)
        try POSIXFile.makeDirectories(metaDirectory)

        if link(tempData, dataPath) == -1 {
            let code = errno
            switch code {
            case EEXIST:
                if let existing = try POSIXFile.status(dataPath), existing.isDirectory {
                    throw StorageError.invalidArgument("The object key conflicts with an existing key prefix.")
                }
                throw StorageError.objectExists
            case ENOTDIR, ENOENT:
                // A parent "directory" of the key is an existing object (key "a" exists, upload to "a/b").
                throw StorageError.invalidArgument("The object key conflicts with an existing object.")
            case ENAMETOOLONG:
                throw StorageError.keyTooLong
            default:
                throw FileSystemFailure(operation: "link", path: dataPath, code: code)
            }
        }
        try POSIXFile.check(rename(tempMeta, metaPath), "rename", metaPath)
        try POSIXFile.fsyncDirectory(dataDirectory)
        try POSIXFile.fsyncDirectory(metaDirectory)
        try POSIXFile.removeFile(tempData)
        return try POSIXFile.status(dataPath)?.modified ?? Date()
    }
}
