import AppCore
import Plot
import Vapor

/// A product's forgotten-password flow, as the console's public pages use it.
public protocol ConsolePasswordResetService: Sendable {
    /// Sends a link when the address has an account; the answer is the same either way.
    func requestReset(email: String, request: Request) async throws -> PasswordResetRequested
    func confirmReset(token: String, newPassword: String, request: Request) async throws -> PasswordResetConfirmed
}

/// `GET/POST {mount}/password-reset` (ask for a link) and `GET/POST {mount}/password-reset/confirm` (the page the
/// link opens: a new password). Public, like the sign-in page; a post from another site is refused by its Origin.
struct ConsolePasswordResetPages: Sendable {
    let chrome: ConsoleChrome
    let service: any ConsolePasswordResetService

    func boot(public routes: any RoutesBuilder) {
        routes.get("password-reset", use: requestForm)
        routes.post("password-reset", use: sendLink)
        routes.get("password-reset", "confirm", use: confirmForm)
        routes.post("password-reset", "confirm", use: confirm)
    }

    private struct RequestFields: Content { var email: String? }
    private struct ConfirmFields: Content {
        var token: String?
        var password: String?
        var repeated: String?

        enum CodingKeys: String, CodingKey {
            case token, password
            case repeated = "password_repeat"
        }
    }

    @Sendable func requestForm(request: Request) async throws -> Response {
        requestPage(request, email: "", message: nil, status: .ok)
    }

    @Sendable func sendLink(request: Request) async throws -> Response {
        guard SameOrigin.check(request) else { throw APIError.forbidden("Use the console's own page.") }
        let email = ((try? request.content.decode(RequestFields.self))?.email ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !email.isEmpty, email.count <= 254 else {
            return requestPage(request, email: email, message: .error("Enter the email address of your account."),
                               status: .badRequest)
        }
        switch try await service.requestReset(email: email, request: request) {
        case .sent(let message):
            return requestPage(request, email: "", message: .done(message), status: .ok)
        case .throttled(let wait, let message):
            let response = requestPage(request, email: email, message: .error(message), status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(wait))
            return response
        }
    }

    @Sendable func confirmForm(request: Request) async throws -> Response {
        let token = request.query[String.self, at: "token"] ?? ""
        guard !token.isEmpty else {
            return confirmPage(request, token: "", message: .error(Self.incompleteLink), status: .badRequest)
        }
        return confirmPage(request, token: token, message: nil, status: .ok)
    }

    @Sendable func confirm(request: Request) async throws -> Response {
        guard SameOrigin.check(request) else { throw APIError.forbidden("Use the console's own page.") }
        let fields = (try? request.content.decode(ConfirmFields.self)) ?? ConfirmFields()
        let token = fields.token ?? ""
        guard !token.isEmpty else {
            return confirmPage(request, token: "", message: .error(Self.incompleteLink), status: .badRequest)
        }
        let password = fields.password ?? ""
        guard password == (fields.repeated ?? "") else {
            return confirmPage(request, token: token, message: .error("The two passwords differ. Type the same one twice."),
                               status: .badRequest)
        }
        switch try await service.confirmReset(token: token, newPassword: password, request: request) {
        case .changed(let message):
            return chrome.render("Password changed", session: nil, request: request, content: .div(
                .class("login card"),
                .h1("Password changed"),
                .p(.attr("role", "status"), .safeText(message)),
                .p(.a(.href(chrome.mount.path("/login")), .class("button primary"), "Sign in"))
            ))
        case .refused(let message):
            return confirmPage(request, token: token, message: .error(message), status: .badRequest)
        }
    }

    static let incompleteLink = "This link is incomplete. Open the whole link from the email, or ask for a new one."

    private enum Message {
        case done(String)
        case error(String)
    }

    private func requestPage(_ request: Request, email: String, message: Message?, status: HTTPResponseStatus) -> Response {
        chrome.render("Forgotten password", session: nil, request: request, status: status, content: .div(
            .class("login card"),
            .h1("Forgotten password"),
            .p(.class("muted"), "Enter the email address of your account. We will send it a link to choose a new password."),
            messageNode(message),
            .form(
                .attr("method", "post"), .attr("action", chrome.mount.path("/password-reset")),
                ConsoleForms.field("Email address", name: "email", value: email, type: "email", required: true,
                                   extra: [.attr("autocomplete", "email"), .attr("maxlength", "254"), .flag("autofocus")]),
                .button(.type(.submit), .class("primary"), .text("Send the link"))
            ),
            .p(.a(.href(chrome.mount.path("/login")), "Back to sign in"))
        ))
    }

    private func confirmPage(_ request: Request, token: String, message: Message?, status: HTTPResponseStatus) -> Response {
        // The token is in this page's address. The console's `Referrer-Policy: same-origin` never sends it to another
        // site, and its `no-store` keeps it out of caches. (`no-referrer` would make the browser post the form with
        // `Origin: null`, which the same-origin check rightly refuses.)
        chrome.render("Choose a new password", session: nil, request: request, status: status, content: .div(
            .class("login card"),
            .h1("Choose a new password"),
            messageNode(message),
            .if(!token.isEmpty, .form(
                .attr("method", "post"), .attr("action", chrome.mount.path("/password-reset/confirm")),
                .void("input", .attr("type", "hidden"), .attr("name", "token"), .attr("value", token)),
                ConsoleForms.field("New password", name: "password", type: "password", required: true,
                                   hint: "8 to 72 characters.",
                                   extra: [.attr("autocomplete", "new-password"), .attr("minlength", "8"),
                                           .attr("maxlength", "72"), .flag("autofocus")]),
                ConsoleForms.field("Repeat the new password", name: "password_repeat", type: "password", required: true,
                                   extra: [.attr("autocomplete", "new-password"), .attr("maxlength", "72")]),
                .button(.type(.submit), .class("primary"), .text("Set the new password"))
            )),
            .p(.a(.href(chrome.mount.path("/password-reset")), "Ask for a new link"))
        ))
    }

    private func messageNode(_ message: Message?) -> Node<HTML.BodyContext> {
        switch message {
        case nil: .empty
        case .done(let text): .p(.class("form-done"), .attr("role", "status"), .safeText(text))
        case .error(let text): .p(.class("form-error"), .attr("role", "alert"), .safeText(text))
        }
    }
}
