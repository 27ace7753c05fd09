import Crypto
import Foundation
import Vapor

/// Writes a stream of chunks to a new file while hashing it (MD5, the ETag of single-part objects).
///
/// Chunks are gathered into blocks of `blockSize`. A full block is hashed and written on the I/O pool while the
/// next one fills, so receiving, hashing and writing overlap instead of taking turns (on two cores this is what
/// separates the upload rate from the disk's). At most one block is in flight: `append` waits for the previous
/// block to reach the kernel before it hands over the next, which keeps memory at two blocks and gives the
/// request body stream its back-pressure. Blocks are hashed in order because each one starts only after the
/// previous one finished.
/// Not thread-safe: one upload task owns it from creation to `finish` or `discard`.
public final class StreamedFileWriter: @unchecked Sendable {
    static let blockSize = 256 * 1024

    public let path: String
    private let io: StorageFileIO
    private var fd: Int32?
    private var block: ByteBuffer
    private let digest = RunningMD5()
    /// The block being hashed and written on the I/O pool, if any.
    private var inFlight: Task<Void, any Error>?
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
        byteCount += Int64(chunk.readableBytes)
        var chunk = chunk
        block.writeBuffer(&chunk)
        if block.readableBytes >= Self.blockSize { try await handOverBlock() }
    }

    /// Writes what is left, fsyncs and closes; returns the size and the hex MD5.
    public func finish() async throws -> (size: Int64, md5: String) {
        try await handOverBlock()
        try await waitForInFlight()
        guard let fd else { throw FileSystemFailure(operation: "finish", path: path, code: EBADF) }
        self.fd = nil
        let path = self.path
        try await io.run {
            defer { POSIXFile.closeFile(fd) }
            try POSIXFile.fsyncFile(fd, path: path)
        }
        return (byteCount, digest.finalizeHex())
    }

    /// Closes (if open) and removes the file; used on every failure path.
    public func discard() async {
        // The descriptor must not be closed under a write that is still running (its number could be reused).
        _ = try? await waitForInFlight()
        let fd = self.fd
        self.fd = nil
        let path = self.path
        _ = try? await io.run {
            if let fd { POSIXFile.closeFile(fd) }
            try POSIXFile.removeFile(path)
        }
    }

    /// Waits for the previous block, then starts hashing and writing the current one without waiting for it.
    private func handOverBlock() async throws {
        try await waitForInFlight()
        guard block.readableBytes > 0 else { return }
        guard let fd else { throw FileSystemFailure(operation: "write", path: path, code: EBADF) }
        let data = block
        block = ByteBufferAllocator().buffer(capacity: Self.blockSize)
        let path = self.path, io = self.io, digest = self.digest
        inFlight = Task {
            try await io.run {
                digest.update(data)
                try POSIXFile.writeAll(fd, data, path: path)
            }
        }
    }

    private func waitForInFlight() async throws {
        guard let task = inFlight else { return }
        inFlight = nil
        try await task.value
    }
}

/// The MD5 state shared with the I/O pool; updated by one block at a time (see `StreamedFileWriter`).
private final class RunningMD5: @unchecked Sendable {
    private var md5 = Insecure.MD5()

    func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { md5.update(bufferPointer: $0) }
    }

    func finalizeHex() -> String { Hex.encode(md5.finalize()) }
}
