import Vapor

/// CORS exactly as the contracts say: off unless `CORS_ALLOWED_ORIGINS` lists exact origins; no credentials mode.
/// The allowed and exposed header lists depend on the product that owns the path: AutoDetail Hub's paths (`/api/**`
/// outside `/api/v1`, `/openapi/autodetail.json`) use its contract's lists (§1.10), every other path HelpPet's.
public struct CORSPolicyMiddleware: AsyncMiddleware {
    /// The header lists of one product.
    public struct HeaderLists: Sendable {
        public let allowHeaders: String
        public let exposeHeaders: String

        public static let helppet = HeaderLists(
            allowHeaders: "Authorization, Content-Type, X-Request-ID",
            exposeHeaders: "X-Request-ID, X-Total-Count, Retry-After")

        public static let autodetail = HeaderLists(
            allowHeaders: "Content-Type, Content-Length, X-API-Key, Authorization, X-Request-Id, Idempotency-Key",
            exposeHeaders: "X-Request-Id, X-Total-Count, Retry-After, Location, Idempotent-Replayed, ETag")

        /// The lists for a request path.
        public static func forPath(_ path: String) -> HeaderLists {
            if ErrorBodyStyle(path: path) == .error || path == "/openapi/autodetail.json" { return .autodetail }
            return .helppet
        }
    }

    let allowedOrigins: Set<String>

    public init(allowedOrigins: [String]) { self.allowedOrigins = Set(allowedOrigins) }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // CORS off (no origins configured): OPTIONS is routed like any other method, so it answers 404.
        guard !allowedOrigins.isEmpty else { return try await next.respond(to: request) }
        let origin = request.headers.first(name: .origin)
        let allowed = origin.map { allowedOrigins.contains($0) } ?? false
        let lists = HeaderLists.forPath(request.url.path)
        if request.method == .OPTIONS, request.headers.first(name: .accessControlRequestMethod) != nil {
            let response = Response(status: .noContent)
            if allowed, let origin {
                addCommonHeaders(response, origin: origin, lists: lists)
                response.headers.replaceOrAdd(name: .accessControlAllowMethods, value: "GET, POST, PUT, DELETE, OPTIONS")
                response.headers.replaceOrAdd(name: .accessControlAllowHeaders, value: lists.allowHeaders)
                response.headers.replaceOrAdd(name: .accessControlMaxAge, value: "600")
            }
            return response
        }
        let response = try await next.respond(to: request)
        if allowed, let origin { addCommonHeaders(response, origin: origin, lists: lists) }
        return response
    }

    private func addCommonHeaders(_ response: Response, origin: String, lists: HeaderLists) {
        response.headers.replaceOrAdd(name: .accessControlAllowOrigin, value: origin)
        response.headers.replaceOrAdd(name: .vary, value: "Origin")
        response.headers.replaceOrAdd(name: .accessControlExpose, value: lists.exposeHeaders)
    }
}
