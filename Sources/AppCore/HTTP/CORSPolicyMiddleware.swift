import Vapor

/// CORS exactly as the contracts say: off unless `CORS_ALLOWED_ORIGINS` lists exact origins; no credentials mode.
public struct CORSPolicyMiddleware: AsyncMiddleware {
    let allowedOrigins: Set<String>

    public init(allowedOrigins: [String]) { self.allowedOrigins = Set(allowedOrigins) }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // CORS off (no origins configured): OPTIONS is routed like any other method, so it answers 404.
        guard !allowedOrigins.isEmpty else { return try await next.respond(to: request) }
        let origin = request.headers.first(name: .origin)
        let allowed = origin.map { allowedOrigins.contains($0) } ?? false
        if request.method == .OPTIONS, request.headers.first(name: .accessControlRequestMethod) != nil {
            let response = Response(status: .noContent)
            if allowed, let origin {
                addCommonHeaders(response, origin: origin)
                response.headers.replaceOrAdd(name: .accessControlAllowMethods, value: "GET, POST, PUT, DELETE, OPTIONS")
                response.headers.replaceOrAdd(
                    name: .accessControlAllowHeaders, value: "Authorization, Content-Type, X-Request-ID")
                response.headers.replaceOrAdd(name: .accessControlMaxAge, value: "600")
            }
            return response
        }
        let response = try await next.respond(to: request)
        if allowed, let origin { addCommonHeaders(response, origin: origin) }
        return response
    }

    private func addCommonHeaders(_ response: Response, origin: String) {
        response.headers.replaceOrAdd(name: .accessControlAllowOrigin, value: origin)
        response.headers.replaceOrAdd(name: .vary, value: "Origin")
        response.headers.replaceOrAdd(
            name: .accessControlExpose, value: "X-Request-ID, X-Total-Count, Retry-After")
    }
}
