import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP socket connected to the test server on 127.0.0.1, for the tests that talk raw HTTP (transport
/// rules, legacy uploads, aborted downloads). The caller owns the descriptor and closes it.
enum LoopbackSocket {
    /// `receiveTimeoutSeconds`: reads give up after that long instead of hanging the test on a silent server.
    static func connect(port: Int, receiveTimeoutSeconds: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        if let receiveTimeoutSeconds {
            var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestSetupError("connect() to \(port) failed")
        }
        return fd
    }
}

extension LoopbackSocket {
    /// Writes all of `bytes`; false once the server no longer takes them (closed or reset).
    @discardableResult
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}

/// What the raw-socket tests read from an HTTP/1.1 response head (the text before the blank line).
enum RawResponseHead {
    /// The status code of the first line ("HTTP/1.1 206 Partial Content"), 0 when there is none.
    static func status(_ head: some StringProtocol) -> Int {
        head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// The first value of the header `name` (case-insensitive), trimmed.
    static func value(of name: String, in head: some StringProtocol) -> String? {
        let prefix = name.lowercased() + ":"
        return head.split(separator: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(prefix) }
            .map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
    }

    static func contentLength(_ head: some StringProtocol) -> Int? {
        value(of: "Content-Length", in: head).flatMap { Int($0) }
    }
}
