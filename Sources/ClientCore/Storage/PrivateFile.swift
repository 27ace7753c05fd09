import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files only their owner may read: the CLIs' token and credentials files. Both kits' file stores write through
/// here, so a secret is never briefly readable by others in either.
package enum PrivateFile {
    /// Replaces `fileURL` atomically with `data`: its folder is created 0700, the bytes go to a temporary file that
    /// is 0600 from its creation (`O_EXCL`), are synced, and the file is renamed over the old one.
    /// - Throws: ``LocalFileError`` naming the file that could not be written; a folder that cannot be created
    ///   throws Foundation's error.
    package static func write(_ data: Data, to fileURL: URL) throws {
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw LocalFileError(path: temporary.path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { writeFully(fd, $0, buffer.count) } ?? 0
        }
        fsync(fd)
        close(fd)
        guard written == data.count else {
            unlink(temporary.path)
            throw LocalFileError(path: temporary.path, reason: "short write")
        }
        guard rename(temporary.path, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw LocalFileError(path: fileURL.path, reason: reason)
        }
        chmod(fileURL.path, 0o600)
    }

    /// `write(2)` until every byte is written, resuming after `EINTR`; returns the bytes written.
    private static func writeFully(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        var offset = 0
        while offset < count {
            let n = systemWrite(fd, pointer + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return offset
            }
            offset += n
        }
        return offset
    }
}

/// `write(2)`, named apart from ``PrivateFile/write(_:to:)``.
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(fd, pointer, count)
    #else
        Darwin.write(fd, pointer, count)
    #endif
}
