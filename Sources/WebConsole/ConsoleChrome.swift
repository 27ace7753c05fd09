import AppCore
import Plot
import Vapor

/// One console's frame: its name, where it is mounted, its assets and what its pages may connect to.
public struct ConsoleChrome: Sendable {
    public struct NavItem: Sendable {
        public let label: String
        public let path: String
        public init(_ label: String, _ path: String) {
            self.label = label
            self.path = path
        }
    }

    public let productName: String
    public let mount: ConsoleMount
    public let assets: ConsoleAssets
    public let stylesheets: [String]
    /// Origins other than the console's own that scripts may fetch from (an S3 bucket for direct uploads).
    public let extraConnectSources: [String]
    public let navigation: [NavItem]

    public init(
        productName: String, mount: ConsoleMount, assets: ConsoleAssets, stylesheets: [String],
        extraConnectSources: [String], navigation: [NavItem]
    ) {
        self.productName = productName
        self.mount = mount
        self.assets = assets
        self.stylesheets = stylesheets
        self.extraConnectSources = extraConnectSources
        self.navigation = navigation
    }

    /// A whole page: the frame around `content`, as an HTML response that is never cached and never framed.
    public func render(
        _ title: String, session: ConsoleSessionContext?, request: Request, status: HTTPResponseStatus = .ok,
        activePath: String? = nil, scripts: [String] = [], navigation: [NavItem]? = nil,
        content: Node<HTML.BodyContext>
    ) -> Response {
        let html = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                // No favicon request (it would be a 404 in the log on every page).
                .link(.rel(.icon), .attr("href", "data:,")),
                .element(named: "title", nodes: [.safeText("\(title) · \(productName)")]),
                .group(stylesheets.map { .link(.rel(.stylesheet), .attr("href", assets.url($0))) }),
                .meta(.name("csrf-token"), .attr("content", session?.csrfToken ?? "")),
                .meta(.name("console-root"), .attr("content", mount.path("/"))),
                .group(scripts.map { name in
                    .element(named: "script", nodes: [.attr("type", "module"), .attr("src", assets.url(name))])
                })
            ),
            .body(
                .a(.class("skip-link"), .href("#main"), .text("Skip to content")),
                header(session: session, activePath: activePath ?? request.url.path,
                       navigation: navigation ?? self.navigation),
                .element(named: "main", nodes: [.id("main"), .attr("tabindex", "-1"), content]),
                .div(.id("toast"), .attr("role", "status"), .attr("aria-live", "polite"))
            )
        )
        let response = Response(status: status)
        response.headers.contentType = .html
        response.body = .init(string: "<!DOCTYPE html>" + html.render().dropFirst("<!DOCTYPE html>".count))
        return response
    }

    private func header(
        session: ConsoleSessionContext?, activePath: String, navigation: [NavItem]
    ) -> Node<HTML.BodyContext> {
        .header(
            .class("topbar"),
            .a(.class("brand"), .attr("href", mount.path("/")), .safeText(productName)),
            .if(session != nil, .nav(
                .attr("aria-label", "Main"),
                .ul(.forEach(navigation) { item in
                    let href = mount.path(item.path)
                    let current = item.path == "/" ? activePath == href : activePath.hasPrefix(href)
                    return .li(.a(.attr("href", href), current ? .attr("aria-current", "page") : .empty,
                                  .safeText(item.label)))
                })
            )),
            .unwrap(session) { session in
                .div(
                    .class("user"),
                    .a(.class("user-name"), .attr("href", mount.path("/account")),
                       .attr("title", "Your account and signed-in devices"), .safeText(session.displayName)),
                    .span(.class("badge"), .safeText(session.roleLabel)),
                    .form(
                        .attr("method", "post"), .attr("action", mount.path("/logout")), .class("inline"),
                        ConsoleForms.csrfField(session),
                        .button(.type(.submit), .class("link"), .text("Sign out"))
                    )
                )
            }
        )
    }

    /// Same-origin only for scripts, styles, frames and forms; media may be played from blob: (the recorder's own
    /// recording) and from storage.
    public func applySecurityHeaders(_ response: Response) {
        let connect = (["'self'"] + extraConnectSources).joined(separator: " ")
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob: \(connect)",
            "media-src 'self' blob: \(connect)", "connect-src \(connect)", "frame-ancestors 'none'",
            "form-action 'self'", "base-uri 'none'", "object-src 'none'",
        ].joined(separator: "; "))
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
    }
}
