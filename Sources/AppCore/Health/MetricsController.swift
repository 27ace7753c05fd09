import Vapor

/// `/metrics` in Prometheus text format; with `METRICS_TOKEN` set it requires that bearer token.
public struct MetricsController: RouteCollection {
    public init() {}

    public func boot(routes: any RoutesBuilder) throws {
        routes.get("metrics", use: Self.metrics)
    }

    @Sendable static func metrics(req: Request) async throws -> Response {
        if let token = req.core.config.metricsToken {
            guard let presented = req.headers.bearerAuthorization?.token,
                Array(presented.utf8).constantTimeEquals(Array(token.utf8))
            else { throw APIError.unauthorized("Not authenticated") }
        }
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "plain", parameters: ["version": "0.0.4", "charset": "utf-8"])
        return Response(status: .ok, headers: headers, body: .init(string: req.core.metrics.render()))
    }
}

extension Array where Element == UInt8 {
    /// Comparison whose time does not depend on where the first difference is.
    public func constantTimeEquals(_ other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        var diff: UInt8 = 0
        for i in indices { diff |= self[i] ^ other[i] }
        return diff == 0
    }
}
