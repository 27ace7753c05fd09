import Crypto
import Foundation
import Vapor

/// Writes a stream of chunks to a new file while hashing it (MD5, the ETag of single-part objects).
///
/// Chunks are gathered into blocks of `blockSize` before each write, so a 100 MiB upload costs a few hundred
/// thread hops rather than tens of thousands, and memory stays at one block. `append` returns only after the
/// block reached the kernel, which gives the request body stream its back-pressure.
/// Not thread-safe: one upload task owns it from creation to `finish` or `discard`.
public final class StreamedFileWriter: @unchecked Sendable {
    static let blockSize = 256 * 1024

    public let path: String
    private let io: StorageFileIO
    private var fd: Int32?
    private var block: ByteBuffer
    private var md5 = Insecure.MD5()
    public private(set) var byteCount: Int64 = 0

    private init(path: String, fd: Int32, io: StorageFileIO) {
        self.path = path
        self.fd = fd
        self.io = io
        self.block = ByteBufferAllocator().buffer(capacity: Self.blockSize)
    }

    /// Creates the file (it must not exist).
    public static func create(at path: String, io: StorageFileIO) async throws -> StreamedFileWriter {
        let fd = try await io.run { try POSIXFile.createExclusive(path) }
        return StreamedFileWriter(path: path, fd: fd, io: io)
    }

    public func append(_ chunk: ByteBuffer) async throws {
        chunk.withUnsafeReadableBytes { md5.update(bufferPointer: $0) }
        byteCount += Int64(chunk.readableBytes)
        var chunk = chunk
        block.writeBuffer(&chunk)
        if block.readableBytes >= Self.blockSize { try await flush() }
    }

    /// Writes what is left, fsyncs and closes; returns the size and the hex MD5.
    public func finish() async throws -> (size: Int64, md5: String) {
        try await flush()
        guard let fd else { throw FileSystemFailure(operation: "finish", path: path, code: EBADF) }
        self.fd = nil
        let path = self.path
        try await io.run {
            defer { POSIXFile.closeFile(fd) }
            try POSIXFile.fsyncFile(fd, path: path)
        }
        return (byteCount, Hex.encode(md5.finalize()))
    }

    /// Closes (if open) and removes the file; used on every failure path.
    public func discard() async {
        let fd = self.fd
        self.fd = nil
        let path = self.path
        _ = try? await io.run {
            if let fd { POSIXFile.closeFile(fd) }
            try POSIXFile.removeFile(path)
        }
    }

    private func flush() async throws {
        guard block.readableBytes > 0 else { return }
        guard let fd else { throw FileSystemFailure(operation: "write", path: path, code: EBADF) }
        let data = block
        let path = self.path
        try await io.run { try POSIXFile.writeAll(fd, data, path: path) }
        block.clear()
    }
}
