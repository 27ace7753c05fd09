import AppCore
import Foundation
import SQLKit
import Vapor

/// APNs device tokens of the caller (any role): register (idempotent; a token moves to the last user who registers
/// it), unregister, list. Pushes are not sent here; see NotificationOutboxStore.
struct DeviceTokensController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let tokens = routes.grouped("device-tokens")
        tokens.get(use: list)
        tokens.post("register", use: register)
        tokens.delete("unregister", use: unregister)
    }

    @Sendable func register(req: Request) async throws -> Response {
        let caller = try req.caller
        let fields = try req.jsonObject()
        let token = try Self.deviceToken(fields)
        let type = try fields.optionalString("device_type", max: 20, nullable: false).valueIfPresent ?? "ios"
        guard type == "ios" else { throw APIError.badRequest("Invalid device_type: '\(type)'. Allowed: ios") }
        let now = req.now
        // One statement decides concurrent registrations of the same token: the last one owns it.
        try await req.deviceTokens.register(token: token, type: type, user: caller.id, now: now)
        guard let stored = try await req.deviceTokens.find(token: token) else {
            throw APIError.notFound("Device token not found")
        }
        return try JSONResponse.make(DeviceTokenResponse(stored))
    }

    /// `DELETE` with a JSON body `{device_token}` (the app's call). Idempotent: a token that is not the caller's, or
    /// not registered at all, is answered the same 204 and left alone.
    @Sendable func unregister(req: Request) async throws -> Response {
        let caller = try req.caller
        let token = try Self.deviceToken(try req.jsonObject())
        try await req.deviceTokens.delete(token: token, user: caller.id)
        return Response(status: .noContent)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.caller
        let tokens = try await req.deviceTokens.list(user: caller.id)
        return try JSONResponse.page(tokens.map(DeviceTokenResponse.init), total: tokens.count)
    }

    /// An APNs token as the app sends it: hexadecimal, 32 to 200 digits; stored lowercased so one device is one row.
    static func deviceToken(_ fields: FieldReader) throws -> String {
        let token = try fields.requiredString("device_token", max: 200)
        guard token.count >= 32, token.allSatisfy(\.isHexDigit) else {
            throw APIError.badRequest("device_token must be 32 to 200 hexadecimal digits")
        }
        return token.lowercased()
    }
}
