import AppCore
import Vapor

/// `GET /api/ping` → `{"message": PING_MESSAGE}` (contract §4.8).
struct PingController {
    let message: String

    func boot(_ api: any RoutesBuilder) {
        let message = self.message
        api.get("ping") { _ async throws -> Response in try JSONResponse.make(["message": message]) }
    }
}
