import Foundation
import Vapor

/// Reads a file as a sequence of chunks on the storage thread pool, one chunk at a time (so at most one chunk
/// is in memory). Used to upload a file to S3 and to copy files into the embedded store.
struct FileChunkSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    static let chunkSize = 256 * 1024

    let path: String
    let io: StorageFileIO

    final class Iterator: AsyncIteratorProtocol {
        private let path: String
        private let io: StorageFileIO
        private var fd: Int32?
        private var offset: Int64 = 0
        private var finished = false

        init(path: String, io: StorageFileIO) {
            self.path = path
            self.io = io
        }

        deinit {
            // Closes the descriptor if the consumer stopped early (for example a failed upload).
            if let fd { POSIXFile.closeFile(fd) }
        }

        func next() async throws -> ByteBuffer? {
            if finished { return nil }
            let path = self.path
            if fd == nil { fd = try await io.run { try POSIXFile.openForReading(path) } }
            let fd = self.fd!, offset = self.offset
            let chunk = try await io.run { try POSIXFile.read(fd, offset: offset, count: FileChunkSequence.chunkSize, path: path) }
            if chunk.readableBytes == 0 {
                finished = true
                POSIXFile.closeFile(fd)
                self.fd = nil
                return nil
            }
            self.offset += Int64(chunk.readableBytes)
            return chunk
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(path: path, io: io) }
}

/// MD5 of a whole file, read in chunks (blocking: call it on the storage thread pool).
enum FileHashing {
    static func md5Hex(path: String) throws -> String {
        let fd = try POSIXFile.openForReading(path)
        defer { POSIXFile.closeFile(fd) }
        var md5 = Insecure.MD5()
        var offset: Int64 = 0
        while true {
            let chunk = try POSIXFile.read(fd, offset: offset, count: FileChunkSequence.chunkSize, path: path)
            if chunk.readableBytes == 0 { break }
            chunk.withUnsafeReadableBytes { md5.update(bufferPointer: $0) }
            offset += Int64(chunk.readableBytes)
        }
        return Hex.encode(md5.finalize())
    }
}
