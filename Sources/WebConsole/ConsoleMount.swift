import Vapor

/// Where a console lives: `/clinic` or `/studio` by default, `/` on a product's own domain (`WEB_CONSOLE_ROOT`).
public struct ConsoleMount: Sendable {
    /// "" at the root, else "/clinic" (no trailing slash).
    public let prefix: String

    public init(prefix: String) {
        var cleaned = prefix
        while cleaned.hasSuffix("/") { cleaned.removeLast() }
        self.prefix = cleaned
    }

    /// The console's URL for a page path such as "/settings/api-keys" ("" or "/" is the console's home).
    public func path(_ page: String = "/") -> String {
        if page.isEmpty || page == "/" { return prefix.isEmpty ? "/" : prefix }
        return prefix + (page.hasPrefix("/") ? page : "/" + page)
    }

    /// The route group of the console.
    public func routes(_ builder: any RoutesBuilder) -> any RoutesBuilder {
        let components = prefix.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }
        return components.isEmpty ? builder : builder.grouped(components)
    }

    /// The cookie path: the session is sent only to the console (and, from its pages, to the API it calls).
    public var cookiePath: String { "/" }
}
