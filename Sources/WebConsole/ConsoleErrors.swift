import AppCore
import Plot
import Vapor

/// Thrown by a console's session middleware for a page that needs a signed-in user: the browser is sent to the
/// sign-in page, which brings it back afterwards.
public struct ConsoleSignInRequired: Error, Sendable {
    public init() {}
}

/// Errors on console routes become pages in the console's style (or, for the console's own fetch endpoints, a
/// small JSON body), with the same status and message the API would give; a 5xx never shows its cause.
public struct ConsoleErrorMiddleware: AsyncMiddleware {
    let chrome: ConsoleChrome

    public init(chrome: ConsoleChrome) { self.chrome = chrome }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch is ConsoleSignInRequired {
            if Self.wantsJSON(request) { return Self.json(.unauthorized, "Your session has ended. Sign in again.") }
            var target = chrome.mount.path("/login")
            if request.method == .GET {
                target += "?next=" + (request.url.string.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            }
            return request.redirect(to: target, redirectType: .normal)
        } catch {
            let (status, message) = Self.describe(error, request: request)
            if Self.wantsJSON(request) { return Self.json(status, message) }
            return chrome.render(
                Self.title(status), session: request.consoleSession, request: request, status: status,
                content: .div(
                    .class("error-page"),
                    .h1(.safeText(Self.title(status))),
                    .p(.class("error-message"), .safeText(message)),
                    .p(.a(.attr("href", chrome.mount.path("/")), .text("Back to the console")))
                ))
        }
    }

    static func describe(_ error: any Error, request: Request) -> (HTTPResponseStatus, String) {
        switch error {
        case let apiError as APIError:
            return (apiError.status, apiError.message)
        case let abort as any AbortError where abort.status.code < 500:
            let message = abort.status == .notFound ? "This page does not exist, or you do not have access to it." : abort.reason
            return (abort.status == .methodNotAllowed ? .notFound : abort.status, message)
        default:
            if DatabaseFailure.isUnavailable(error) {
                return (.serviceUnavailable, "The database is unavailable for a moment. Try again in a few seconds.")
            }
            request.logger.error("console page failed: \(String(reflecting: type(of: error)))")
            return (.internalServerError, "Something went wrong on our side. The error was logged; try again.")
        }
    }

    static func title(_ status: HTTPResponseStatus) -> String {
        switch status.code {
        case 404: "Not found"
        case 403: "Not allowed"
        case 401: "Sign in required"
        case 409: "Conflict"
        case 429: "Too many attempts"
        case 500...: "Something went wrong"
        default: "Cannot do that"
        }
    }

    /// The console's own scripts ask for JSON; a page navigation never does.
    static func wantsJSON(_ request: Request) -> Bool {
        request.headers.first(name: ConsoleCredentials.csrfHeader) != nil
            || (request.headers.first(name: .accept)?.contains("application/json") ?? false)
    }

    static func json(_ status: HTTPResponseStatus, _ message: String) -> Response {
        let response = Response(status: status)
        response.headers.contentType = .json
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
        response.body = .init(data: body)
        return response
    }
}
