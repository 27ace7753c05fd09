import Vapor

/// The client's IP: the TCP peer, or with a trusted proxy the right-most `X-Forwarded-For` entry that is
/// not itself a trusted proxy.
public struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    public init(trustedProxies: [String]) { self.trustedProxies = Set(trustedProxies) }

    public func ip(of request: Request) -> String {
        let peer = request.remoteAddress?.ipAddress ?? "unknown"
        guard trustedProxies.contains(peer), let forwarded = request.headers.first(name: "X-Forwarded-For") else {
            return peer
        }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last(where: { !trustedProxies.contains($0) }) ?? peer
    }

    /// The scheme clients used, honouring `X-Forwarded-Proto` from trusted proxies only.
    public func scheme(of request: Request) -> String {
        let peer = request.remoteAddress?.ipAddress ?? ""
        if trustedProxies.contains(peer), let proto = request.headers.first(name: "X-Forwarded-Proto") {
            return proto.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "http"
        }
        return request.url.scheme ?? "http"
    }
}
