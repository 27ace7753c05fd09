import AppCore
import AutoDetailAPI
import Plot
import Vapor
import WebConsole

/// Sign-in and sign-out of the studio console: the admin account, with the admin login's limits (§2.7).
struct StudioSignInPages: Sendable {
    let context: StudioContext

    func boot(public routes: any RoutesBuilder) {
        routes.get("login", use: form)
        routes.post("login", use: signIn)
    }

    func boot(signedIn routes: any RoutesBuilder) {
        routes.post("logout", use: signOut)
    }

    private struct SignInForm: Content {
        var username: String?
        var password: String?
        var next: String?
    }

    private var cookie: ConsoleSessionCookie { ConsoleSessionCookie(name: StudioSession.cookieName) }

    @Sendable func form(request: Request) async throws -> Response {
        page(request, next: request.query[String.self, at: "next"], username: "", message: nil, status: .ok)
    }

    @Sendable func signIn(request: Request) async throws -> Response {
        // No session yet, so no CSRF token: a sign-in posted from another site is refused by its Origin instead.
        guard SameOrigin.check(request) else { throw APIError.forbidden("Sign in from the console's own page.") }
        let fields = (try? request.content.decode(SignInForm.self)) ?? SignInForm()
        let username = (fields.username ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let password = fields.password ?? ""
        guard !username.isEmpty, !password.isEmpty else {
            return page(request, next: fields.next, username: username, message: "Enter your username and password.",
                        status: .badRequest)
        }
        switch try await StudioSession.signIn(username: username, password: password, request: request) {
        case .throttled(let wait):
            let response = page(request, next: fields.next, username: username,
                                message: "Too many requests. Try again in \(wait) seconds.", status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(wait))
            return response
        case .failed:
            return page(request, next: fields.next, username: username, message: "Invalid username or password",
                        status: .unauthorized)
        case .signedIn(let token):
            let response = request.redirect(to: safeNext(fields.next), redirectType: .normal)
            cookie.set(token, on: response, request: request)
            return response
        }
    }

    @Sendable func signOut(request: Request) async throws -> Response {
        if let token = cookie.token(in: request) {
            try await StudioSession.signOut(cookieToken: token, request: request)
        }
        let response = request.redirect(to: context.path("/login"), redirectType: .normal)
        cookie.clear(on: response, request: request)
        return response
    }

    /// Only a path of this console: never another site (`//evil`, `https://…`).
    func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix(context.path("/")), !next.hasPrefix("//"), !next.contains("\\") else {
            return context.path("/")
        }
        return next
    }

    private func page(
        _ request: Request, next: String?, username: String, message: String?, status: HTTPResponseStatus
    ) -> Response {
        context.render("Sign in", request, status: status, .div(
            .class("login card"),
            .h1("Sign in to the studio"),
            .p(.class("muted"), .text("Use the AutoDetail Hub admin account.")),
            .unwrap(message) { .p(.class("form-error"), .attr("role", "alert"), .safeText($0)) },
            .form(
                .attr("method", "post"), .attr("action", context.path("/login")),
                .void("input", .attr("type", "hidden"), .attr("name", "next"), .attr("value", next ?? "")),
                ConsoleForms.field("Username", name: "username", value: username, required: true,
                                   extra: [.attr("autocomplete", "username"), .flag("autofocus")]),
                ConsoleForms.field("Password", name: "password", type: "password", required: true,
                                   extra: [.attr("autocomplete", "current-password"), .attr("maxlength", "128")]),
                .button(.type(.submit), .class("primary"), .text("Sign in"))
            )
        ))
    }
}
