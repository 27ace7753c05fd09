import Vapor

/// The one place that gives every console response its headers: pages, the fragments a page polls, their 304s,
/// error pages, redirects and assets alike. A handler only says what it serves; it cannot forget the policy.
///
/// Every response gets the security set (`ConsoleChrome.applySecurityHeaders`). Every response that is not a
/// public asset gets `Cache-Control: no-store`: console pages and fragments carry owners', pets' and customers'
/// data, which no browser or proxy cache should keep. The day board's poll stays cheap without a cache: its script
/// keeps the `ETag` itself and sends `If-None-Match`.
struct ConsoleResponseHeaders: AsyncMiddleware {
    let chrome: ConsoleChrome

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        chrome.applySecurityHeaders(response)
        if !Self.isPublicAsset(response) {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        }
        return response
    }

    /// The versioned stylesheets and modules (`ConsoleAssets`), the only responses marked `public`.
    static func isPublicAsset(_ response: Response) -> Bool {
        response.headers.first(name: .cacheControl)?.contains("public") ?? false
    }
}
