import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A GET over a plain TCP socket that can hang up in the middle of the body, the way a browser's `<audio>` drops a
/// range request: read the head and a little of the body, then reset the connection. Blocking calls, so every
/// public call runs on a thread of its own (RawConnection.onThread): the cooperative pool must stay free for the
/// in-process server that answers.
enum RawDownload {
    struct Answer {
        let status: Int
        let head: String
        /// The body bytes read (all of them for `fetch`, at least `keep` of them for `fetchThenReset`).
        let body: [UInt8]

        func header(_ name: String) -> String? { RawResponseHead.value(of: name, in: head) }
    }

    /// Sends `head`, reads the response head and at least `keep` body bytes, then closes with SO_LINGER 0 (an RST,
    /// not a polite FIN) while the server is still writing.
    static func fetchThenReset(port: Int, head: String, keep: Int) async throws -> Answer {
        try await RawConnection.onThread {
            let fd = try LoopbackSocket.connect(port: port, receiveTimeoutSeconds: 20)
            defer {
                var hangUp = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &hangUp, socklen_t(MemoryLayout<linger>.size))
                close(fd)
            }
            try send(fd, head)
            return try receive(fd) { _, body in body >= keep }
        }
    }

    /// Sends `head` and reads the whole answer (`Content-Length` bytes of body).
    static func fetch(port: Int, head: String) async throws -> Answer {
        try await RawConnection.onThread {
            let fd = try LoopbackSocket.connect(port: port, receiveTimeoutSeconds: 20)
            defer { close(fd) }
            try send(fd, head)
            return try receive(fd) { length, body in body >= length }
        }
    }

    private static func send(_ fd: Int32, _ head: String) throws {
        guard LoopbackSocket.sendAll(fd, Array(head.utf8)) else { throw TestSetupError("the server stopped taking the request") }
    }

    /// Reads until the head is complete and `enough(contentLength, bodyBytesRead)` holds; throws on EOF or timeout
    /// before that (the server went away or stalled).
    private static func receive(_ fd: Int32, until enough: (_ length: Int, _ body: Int) -> Bool) throws -> Answer {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var length = 0
        while true {
            if let end = headEnd, enough(length, received.count - end) {
                let head = String(decoding: received[..<(end - 4)], as: UTF8.self)
                return Answer(status: RawResponseHead.status(head), head: head, body: Array(received[end...]))
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else {
                throw TestSetupError("the connection ended after \(received.count) bytes (\(n == 0 ? "EOF" : "error \(errno)"))")
            }
            received += chunk[0..<n]
            if headEnd == nil, let at = received.firstRange(of: separator) {
                headEnd = at.upperBound
                length = RawResponseHead.contentLength(String(decoding: received[..<at.lowerBound], as: UTF8.self)) ?? 0
            }
        }
    }
}
