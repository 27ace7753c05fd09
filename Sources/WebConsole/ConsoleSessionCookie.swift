import Vapor

/// The session cookie: `HttpOnly` (no script reads it), `SameSite=Lax` (not sent on cross-site posts), `Secure`
/// when the console is served over HTTPS. No `Max-Age`: the session's lifetime is the server's, and the cookie dies
/// with the browser.
public struct ConsoleSessionCookie: Sendable {
    public let name: String

    public init(name: String) { self.name = name }

    public func token(in request: Request) -> String? {
        guard let value = request.cookies[name]?.string, !value.isEmpty, value.count <= 128 else { return nil }
        return value
    }

    public func set(_ token: String, on response: Response, request: Request) {
        response.cookies[name] = HTTPCookies.Value(
            string: token, path: "/", isSecure: Self.isHTTPS(request), isHTTPOnly: true, sameSite: .lax)
    }

    public func clear(on response: Response, request: Request) {
        response.cookies[name] = HTTPCookies.Value(
            string: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/",
            isSecure: Self.isHTTPS(request), isHTTPOnly: true, sameSite: .lax)
    }

    /// HTTPS when the public base URL says so (behind a TLS-terminating proxy) or the connection itself is TLS.
    static func isHTTPS(_ request: Request) -> Bool {
        if let base = request.application.core.config.publicBaseURL { return base.hasPrefix("https://") }
        return request.url.scheme == "https"
    }
}

import AppCore
