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
