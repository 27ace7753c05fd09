import AppCore
import Foundation
import Vapor

/// Applies LegacyResponseMapping to the JSON responses of requests in the legacy client profile. It sits at the
/// edge of `/api/v1`, so controllers only ever build the contract's shapes.
struct LegacyClientMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        guard ClientProfile(headers: request.headers) == .iosLegacy,
            response.headers.contentType?.subType == "json",
            let body = response.body.data, LegacyResponseMapping.mayApply(to: body),
            let value = try? JSONDecoder().decode(JSONValue.self, from: body)
        else { return response }
        response.body = .init(data: try JSONCoding.encoder.encode(LegacyResponseMapping.map(value)))
        return response
    }
}
