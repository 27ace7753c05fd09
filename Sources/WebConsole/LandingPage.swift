import AppCore
import Plot
import Vapor

/// `/` when both consoles share a host (the demo): which console to open.
public enum LandingPage {
    public struct Entry: Sendable {
        public let name: String
        public let path: String
        public let summary: String
        public init(name: String, path: String, summary: String) {
            self.name = name
            self.path = path
            self.summary = summary
        }
    }

    public static func register(on app: Application, entries: [Entry]) throws {
        let mount = ConsoleMount(prefix: "/console")
        let assets = try ConsoleAssets(directories: [ConsoleAssets.sharedDirectory], mount: mount)
        let chrome = ConsoleChrome(
            productName: "HelpPet Platform", mount: mount, assets: assets, stylesheets: ["console.css"],
            extraConnectSources: [], navigation: [])
        let headers = ConsoleResponseHeaders(chrome: chrome)
        assets.register(on: mount.routes(app).grouped(headers))
        app.grouped(headers).get { request -> Response in
            chrome.render("Consoles", session: nil, request: request, content: .div(
                .class("stack"),
                .h1("Choose a console"),
                .div(.class("grid"), .forEach(entries) { entry in
                    .a(.class("card"), .attr("href", entry.path),
                       .h2(.safeText(entry.name)), .p(.class("muted"), .safeText(entry.summary)))
                }),
                .p(.class("muted"), .text("The JSON APIs: "), .a(.href("/openapi.json"), .text("HelpPet OpenAPI")),
                   .text(" · "), .a(.href("/openapi/autodetail.json"), .text("AutoDetail Hub OpenAPI")))
            ))
        }
    }
}
