import AppCore
import Vapor

/// The iPhone app also calls the routes of a third-party phone-receptionist service (call analysis, the voice agent
/// of a practice). This server does not provide that service: those paths answer 404 like any unknown route
/// (before authentication, whatever the method), but with a detail that says why, so a clinic's support can tell
/// "not offered here" from a typo. The app treats the 404 of the voice agent as "none configured".
struct PhoneServiceRoutesMiddleware: AsyncMiddleware {
    static let detail =
        "Not Found: call analysis and the voice agent belong to the phone-receptionist service, which this server does not provide"

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if Self.isPhoneServicePath(request.url.path) { throw APIError.notFound(Self.detail) }
        return try await next.respond(to: request)
    }

    /// `/api/v1/call-analysis[/…]` and `/api/v1/practices/{id}/voice-agent[/…]`.
    static func isPhoneServicePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else { return false }
        let rest = parts.dropFirst(2)
        if rest.first == "call-analysis" { return true }
        return rest.count >= 3 && rest.first == "practices" && rest[rest.startIndex + 2] == "voice-agent"
    }
}
