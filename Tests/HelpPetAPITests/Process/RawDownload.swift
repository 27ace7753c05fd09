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

        /// The first value of `name` (case-insensitive), trimmed.
        func header(_ name: String) -> String? {
            head.split(separator: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Sends `head`, reads the response head and at least `keep` body bytes, then closes with SO_LINGER 0 (an RST,
    /// not a polite FIN) while the server is still writing.
    static func fetchThenReset(port: Int, head: String, keep: Int) async throws -> Answer {
        try await RawConnection.onThread {
            let fd = try connected(port: port)
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
            let fd = try connected(port: port)
            defer { close(fd) }
            try send(fd, head)
            return try receive(fd) { length, body in body >= length }
        }
    }

    private static func connected(port: Int) throws -> Int32 {
        try LoopbackSocket.connect(port: port, receiveTimeoutSeconds: 20)
    }

    private static func send(_ fd: Int32, _ head: String) throws {
        let bytes = Array(head.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestSetupError("the server stopped taking the request") }
            sent += n
        }
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
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                return Answer(status: status, head: head, body: Array(received[end...]))
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else {
                throw TestSetupError("the connection ended after \(received.count) bytes (\(n == 0 ? "EOF" : "error \(errno)"))")
            }
            received += chunk[0..<n]
            if headEnd == nil, let at = received.firstRange(of: separator) {
                headEnd = at.upperBound
                let head = String(decoding: received[..<at.lowerBound], as: UTF8.self).lowercased()
                length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
    }
}
