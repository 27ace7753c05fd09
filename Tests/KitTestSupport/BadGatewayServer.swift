import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server that answers every request `502 Bad Gateway` with nginx's page and closes the connection,
/// the way a proxy does when the API node behind it died mid-request. It counts the requests, so a test can tell
/// which calls a kit repeats.
public final class BadGatewayServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var paths: [String] = []

    public init() throws {
        let (fd, port) = try LoopbackPort.bound()
        guard listen(fd, 16) == 0 else {
            close(fd)
            throw LoopbackPort.Failure(description: "listen() failed")
        }
        listener = fd
        self.port = port
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The request lines received so far ("POST /api/v1/...").
    public var requests: [String] { lock.withLock { paths } }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops accepting; the accept loop ends with the closed socket.
    public func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            if let line = readHead(connection) { lock.withLock { paths.append(line) } }
            let page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway"
                + "</h1></center>\r\n</body>\r\n</html>\r\n"
            let response = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + page
            _ = response.utf8CString.withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count - 1, 0) }
            close(connection)
        }
    }

    /// Reads the head and any Content-Length body, so closing never resets a client still sending; returns the
    /// request line.
    private func readHead(_ connection: Int32) -> String? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data += buffer[0..<count]
            guard let end = Self.headEnd(data) else { continue }
            let head = String(decoding: data[0..<end], as: UTF8.self)
            let lengthLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            let bodyLength = lengthLine.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            while data.count < end + 4 + bodyLength {
                let more = recv(connection, &buffer, buffer.count, 0)
                if more <= 0 { break }
                data += buffer[0..<more]
            }
            return head.split(separator: "\r\n").first.map { String($0.split(separator: " ").prefix(2).joined(separator: " ")) }
        }
    }

    private static func headEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4) where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13
            && data[index + 3] == 10
        {
            return index
        }
        return nil
    }
}
