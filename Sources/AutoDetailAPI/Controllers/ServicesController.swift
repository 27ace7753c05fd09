import AppCore
import Foundation
import Vapor

/// The public catalogue (contract §4.2): active services only, `Cache-Control: public, max-age=300`.
struct ServicesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("client", "services", use: list)
        routes.get("client", "services", ":serviceId", use: show)
    }

    static let cacheHeaders: HTTPHeaders = ["Cache-Control": "public, max-age=300"]

    @Sendable func list(req: Request) async throws -> Response {
        try JSONResponse.make(try await req.services.activeCatalogue().map(ServiceResponse.init), headers: Self.cacheHeaders)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let id = try req.pathID("serviceId", malformed: .serviceNotFound)
        guard let service = try await req.services.findActive(id) else { throw APIError.serviceNotFound }
        return try JSONResponse.make(ServiceResponse(service), headers: Self.cacheHeaders)
    }
}
