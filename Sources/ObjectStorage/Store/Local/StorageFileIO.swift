import Foundation
import Vapor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with the operation and path for the log. Never shown to clients.
struct FileSystemFailure: Error, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32

    var description: String { "\(operation)(\(path)) failed: \(String(cString: strerror(code)))" }

    /// Full disks and quotas are a capacity problem (503), anything else an internal failure (500).
    var storageError: StorageError {
        code == ENOSPC || code == EDQUOT ? .serviceUnavailable : .internalError
    }
}

/// Blocking file I/O on a thread pool of its own: never on an event loop, and never on the pool SQLite uses,
/// so a slow disk cannot stall request handling or database access (ARCHITECTURE.md, concurrency rules).
public final class StorageFileIO: Sendable {
    private let pool: NIOThreadPool

    public init(threads: Int = 2) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    public func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}

/// Thin wrappers over the POSIX calls the store needs, turning `-1`/`errno` into `FileSystemFailure`.
enum POSIXFile {
    static func check(_ result: Int32, _ operation: String, _ path: String) throws {
        if result == -1 { throw FileSystemFailure(operation: operation, path: path, code: errno) }
    }

    /// Creates a new file; fails if it exists (`O_EXCL`), so two writers can never share a temporary file.
    static func createExclusive(_ path: String, mode: mode_t = 0o640) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        try check(fd, "open", path)
        return fd
    }

    static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try check(fd, "open", path)
        return fd
    }

    static func writeAll(_ fd: Int32, _ buffer: ByteBuffer, path: String) throws {
        try buffer.withUnsafeReadableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written == -1 {
                    if errno == EINTR { continue }
                    throw FileSystemFailure(operation: "write", path: path, code: errno)
                }
                offset += written
            }
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    static func read(_ fd: Int32, offset: Int64, count: Int, path: String) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        let got = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw -> Int in
            var total = 0
            while total < count {
                let n = pread(fd, raw.baseAddress! + total, count - total, off_t(offset) + off_t(total))
                if n == -1 {
                    if errno == EINTR { continue }
                    throw FileSystemFailure(operation: "pread", path: path, code: errno)
                }
                if n == 0 { break }
                total += n
            }
            return total
        }
        _ = got
        return buffer
    }

    static func fsyncFile(_ fd: Int32, path: String) throws { try check(fsync(fd), "fsync", path) }

    /// Makes a directory entry (a new name, a rename) durable.
    static func fsyncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try check(fd, "open", path)
        defer { close(fd) }
        try check(fsync(fd), "fsync", path)
    }

    static func closeFile(_ fd: Int32) { close(fd) }

    /// `mkdir -p`; an existing directory is fine.
    static func makeDirectories(_ path: String) throws {
        var current = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o750) == -1 && errno != EEXIST {
                throw FileSystemFailure(operation: "mkdir", path: current, code: errno)
            }
        }
    }

    struct Status {
        var size: Int64
        var modified: Date
        var inode: UInt64
        var device: UInt64
        var isRegularFile: Bool
        var isDirectory: Bool
    }

    /// `lstat`: nil when nothing exists at `path` (or a parent is not a directory).
    static func status(_ path: String) throws -> Status? {
        var info = stat()
        if lstat(path, &info) == -1 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileSystemFailure(operation: "lstat", path: path, code: errno)
        }
        let type = info.st_mode & S_IFMT
        #if canImport(Darwin)
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtimespec.tv_sec))
        #else
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        #endif
        return Status(
            size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino), device: UInt64(info.st_dev),
            isRegularFile: type == S_IFREG, isDirectory: type == S_IFDIR)
    }

    static func fileStatus(_ fd: Int32, path: String) throws -> Status {
        var info = stat()
        try check(fstat(fd, &info), "fstat", path)
        #if canImport(Darwin)
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtimespec.tv_sec))
        #else
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        #endif
        return Status(
            size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino), device: UInt64(info.st_dev),
            isRegularFile: (info.st_mode & S_IFMT) == S_IFREG, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// Removes a file; a missing file is not an error.
    static func removeFile(_ path: String) throws {
        if unlink(path) == -1 && errno != ENOENT { throw FileSystemFailure(operation: "unlink", path: path, code: errno) }
    }

    static func entries(of directory: String) throws -> [String] {
        guard let handle = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw FileSystemFailure(operation: "opendir", path: directory, code: errno)
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
