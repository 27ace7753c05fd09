import AppCore
import Vapor

/// What a console page knows of its signed-in user, put on the request by the product's session middleware.
public struct ConsoleSessionContext: Sendable {
    /// SHA-256 of the cookie token: what the CSRF token is derived from and what logout revokes.
    public let sessionHash: String
    public let displayName: String
    public let roleLabel: String
    public let csrfToken: String

    public init(sessionHash: String, displayName: String, roleLabel: String, csrfToken: String) {
        self.sessionHash = sessionHash
        self.displayName = displayName
        self.roleLabel = roleLabel
        self.csrfToken = csrfToken
    }
}

extension Request {
    private struct ConsoleSessionKey: StorageKey { typealias Value = ConsoleSessionContext }

    public var consoleSession: ConsoleSessionContext? {
        get { storage[ConsoleSessionKey.self] }
        set { storage[ConsoleSessionKey.self] = newValue }
    }
}

/// Every state-changing console request (POST, PUT, PATCH, DELETE) must carry the session's CSRF token, in the
/// `X-CSRF-Token` header (fetch) or the `_csrf` form field; otherwise 403. Runs after the session middleware.
public struct ConsoleCSRFMiddleware: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if [.GET, .HEAD, .OPTIONS].contains(request.method) { return try await next.respond(to: request) }
        guard let session = request.consoleSession else { throw APIError.forbidden("Sign in first") }
        var presented = request.headers.first(name: ConsoleCredentials.csrfHeader)
        if presented == nil, request.content.contentType == .urlEncodedForm {
            presented = try? request.content.get(String.self, at: ConsoleCredentials.csrfFormField)
        }
        guard request.core.consoleCredentials.isValid(csrf: presented, forSessionHash: session.sessionHash) else {
            throw APIError.forbidden("The form has expired or did not come from this console. Reload the page and try again.")
        }
        return try await next.respond(to: request)
    }
}
