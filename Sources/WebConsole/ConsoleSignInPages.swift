import AppCore
import Plot
import Vapor

/// What a console's sign-in asks of its product: check the credentials with the product's own rules (throttle,
/// messages) and open or end a session whose token goes into the cookie.
public protocol ConsoleSignInService: Sendable {
    var cookieName: String { get }
    func signIn(username: String, password: String, request: Request) async throws -> ConsoleSignInOutcome
    func signOut(cookieToken: String, request: Request) async throws
    /// Ends every session of the signed-in user, on every device and in every app, this one included.
    func signOutEverywhere(cookieToken: String, request: Request) async throws
}

public enum ConsoleSignInOutcome: Sendable {
    case signedIn(cookieToken: String)
    /// The product API's own message for wrong credentials.
    case failed(message: String)
    case throttled(retryAfter: Int, message: String)
}

/// `GET/POST {mount}/login` and `POST {mount}/logout` of either console.
public struct ConsoleSignInPages: Sendable {
    let chrome: ConsoleChrome
    let service: any ConsoleSignInService
    let heading: String
    let hint: String?
    /// Whether the page links to the forgotten-password pages.
    let offersPasswordReset: Bool

    public init(
        chrome: ConsoleChrome, service: any ConsoleSignInService, heading: String, hint: String? = nil,
        offersPasswordReset: Bool = false
    ) {
        self.chrome = chrome
        self.service = service
        self.heading = heading
        self.hint = hint
        self.offersPasswordReset = offersPasswordReset
    }

    public func boot(public routes: any RoutesBuilder) {
        routes.get("login", use: form)
        routes.post("login", use: signIn)
    }

    public func boot(signedIn routes: any RoutesBuilder) {
        routes.post("logout", use: signOut)
        routes.post("logout-everywhere", use: signOutEverywhere)
    }

    private struct SignInForm: Content {
        var username: String?
        var password: String?
        var next: String?
    }

    private var cookie: ConsoleSessionCookie { ConsoleSessionCookie(name: service.cookieName) }

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
        switch try await service.signIn(username: username, password: password, request: request) {
        case .throttled(let wait, let message):
            let response = page(request, next: fields.next, username: username, message: message, status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(wait))
            return response
        case .failed(let message):
            return page(request, next: fields.next, username: username, message: message, status: .unauthorized)
        case .signedIn(let token):
            let response = request.redirect(to: safeNext(fields.next), redirectType: .normal)
            cookie.set(token, on: response, request: request)
            return response
        }
    }

    @Sendable func signOut(request: Request) async throws -> Response {
        try await endingSession(request) { try await service.signOut(cookieToken: $0, request: request) }
    }

    @Sendable func signOutEverywhere(request: Request) async throws -> Response {
        try await endingSession(request) { try await service.signOutEverywhere(cookieToken: $0, request: request) }
    }

    /// Runs `end` with the cookie's token (if any), then clears the cookie and sends the browser to the sign-in page.
    private func endingSession(_ request: Request, _ end: (String) async throws -> Void) async throws -> Response {
        if let token = cookie.token(in: request) { try await end(token) }
        let response = request.redirect(to: chrome.mount.path("/login"), redirectType: .normal)
        cookie.clear(on: response, request: request)
        return response
    }

    /// Only a page of this console (`SignInReturnPath`); anything else goes to the console's home.
    func safeNext(_ next: String?) -> String {
        SignInReturnPath(mount: chrome.mount).accepted(next) ?? chrome.mount.path("/")
    }

    private func page(
        _ request: Request, next: String?, username: String, message: String?, status: HTTPResponseStatus
    ) -> Response {
        chrome.render("Sign in", session: nil, request: request, status: status, scripts: ["console.js"], content: .div(
            .class("login card"),
            .h1(.safeText(heading)),
            .unwrap(hint) { .p(.class("muted"), .safeText($0)) },
            .unwrap(message) { .p(.class("form-error"), .attr("role", "alert"), .safeText($0)) },
            .form(
                .attr("method", "post"), .attr("action", chrome.mount.path("/login")),
                .void("input", .attr("type", "hidden"), .attr("name", "next"), .attr("value", next ?? "")),
                ConsoleForms.field("Username", name: "username", value: username, required: true,
                                   extra: [.attr("autocomplete", "username"), .flag("autofocus")]),
                ConsoleForms.field("Password", name: "password", type: "password", required: true,
                                   extra: [.attr("autocomplete", "current-password"), .attr("maxlength", "128")]),
                .button(.type(.submit), .class("primary"), .text("Sign in"))
            ),
            .if(offersPasswordReset, .p(.a(.href(chrome.mount.path("/password-reset")), "Forgot your password?")))
        ))
    }
}
