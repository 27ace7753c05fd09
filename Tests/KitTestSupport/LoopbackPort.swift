import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Free TCP ports on 127.0.0.1 for the `server` processes the tests start (kit tests and the servers' own suites).
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A port that is free right now (bound to port 0, then released); a caller that loses the race to another
    /// process sees "Address already in use" and asks again.
    public static func free() throws -> Int {
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    /// A TCP socket bound to a free port of 127.0.0.1 (not yet listening), and that port; the caller closes it.
    public static func bound() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = bound == 0 && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        } == 0
        guard named else {
            close(fd)
            throw Failure(description: bound == 0 ? "getsockname() failed" : "bind() failed")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
