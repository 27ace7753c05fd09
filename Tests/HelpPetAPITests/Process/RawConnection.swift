import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One TCP connection driven byte by byte, for the transport rules (docs/transport-safety.md): send a head, part of a
/// body or nothing, read the answer, and see whether (and when) the server closes. Every call blocks, so each runs on
/// a thread of its own (`onThread`): on a 2-core machine blocking the cooperative pool would starve the server.
final class RawConnection: @unchecked Sendable {
    struct Answer {
        let status: Int
        let head: String
        let body: String

        /// Every value of `name` (lowercased names and values).
        func header(_ name: String) -> [String] {
            head.lowercased().split(separator: "\r\n").compactMap { line in
                guard line.hasPrefix(name.lowercased() + ":") else { return nil }
                return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            }
        }
    }

    private let fd: Int32
    private var buffered: [UInt8] = []

    private init(fd: Int32) { self.fd = fd }

    static func open(port: Int) async throws -> RawConnection {
        try await onThread {
            let fd = try LoopbackSocket.connect(port: port)
            return RawConnection(fd: fd)
        }
    }

    /// Sends everything it can; false once the server no longer takes bytes (closed or reset).
    @discardableResult
    func send(_ text: String) async -> Bool { await send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        let fd = self.fd
        return (try? await Self.onThread { LoopbackSocket.sendAll(fd, bytes) }) ?? false
    }

    /// The next response (head and `Content-Length` body), or nil when none came within `timeout` seconds.
    func readAnswer(timeout: Double) async -> Answer? {
        try? await Self.onThread { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let text = String(decoding: buffered, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    let head = String(text[..<end.lowerBound])
                    let headBytes = text[..<end.upperBound].utf8.count
                    let length = RawResponseHead.contentLength(head) ?? 0
                    if buffered.count - headBytes >= length {
                        let body = String(decoding: buffered[headBytes..<(headBytes + length)], as: UTF8.self)
                        buffered.removeFirst(headBytes + length)
                        return Answer(status: RawResponseHead.status(head), head: head, body: body)
                    }
                }
                guard case .data(let bytes) = receive(until: deadline) else { return nil }
                buffered += bytes
            }
        }
    }

    /// True when the server closes (EOF or reset) within `timeout` seconds; whatever it still sends is discarded.
    func closedByServer(within timeout: Double) async -> Bool {
        (try? await Self.onThread { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                switch receive(until: deadline) {
                case .data: continue
                case .closed: return true
                case .timedOut: return false
                }
            }
        }) ?? false
    }

    func close() { Glibc.close(fd) }

    private enum Received { case data([UInt8]), closed, timedOut }

    private func receive(until deadline: Date) -> Received {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return .timedOut }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, remaining * 1000)))
        if ready == 0 { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return .closed }
        return .data(Array(chunk[0..<n]))
    }

    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
