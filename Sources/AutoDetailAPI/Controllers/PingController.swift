import AppCore
import Vapor

/// `GET /api/ping` → `{"message": PING_MESSAGE}` (contract §4.8).
struct PingController: RouteCollection {
    let message: String

    func boot(routes: any RoutesBuilder) throws {
        let message = self.message
        routes.get("ping") { _ async throws -> Response in try JSONResponse.make(["message": message]) }
    }
}
