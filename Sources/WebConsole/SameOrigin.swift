import Vapor

/// For the one form posted before a session exists (sign-in): a browser sends `Origin` (or at least `Referer`) on
/// a POST; when present it must name this server.
public enum SameOrigin {
    public static func check(_ request: Request) -> Bool {
        guard let host = request.headers.first(name: .host) else { return false }
        let claimed = request.headers.first(name: .origin) ?? request.headers.first(name: .referer)
        guard let claimed else { return true }
        guard let url = URL(string: claimed), let claimedHost = url.host else { return false }
        let claimedAuthority = url.port.map { "\(claimedHost):\($0)" } ?? claimedHost
        return claimedAuthority.lowercased() == host.lowercased()
    }
}
