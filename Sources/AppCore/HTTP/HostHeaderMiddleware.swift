import Vapor

/// RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without a `Host` header or with more than one
/// (HTTP/1.0 may leave it out). Two `Host` headers are how request-smuggling and cache-poisoning attempts disagree
/// with a proxy about which site a request is for.
public struct HostHeaderMiddleware: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // A request that came over no connection (the in-process test responder) has no head to judge.
        guard request.remoteAddress != nil else { return try await next.respond(to: request) }
        let hosts = request.headers[.host].count
        let version = request.version
        let requiresHost = version.major > 1 || (version.major == 1 && version.minor >= 1)
        if hosts > 1 { throw APIError.badRequest("Duplicate Host header") }
        if hosts == 0 && requiresHost { throw APIError.badRequest("Missing Host header") }
        return try await next.respond(to: request)
    }
}
