import AppCore
import Foundation

/// `POST /api/auth/validate-key` (§4.1.1).
struct ValidateKeyResponse: Encodable, Sendable {
    let valid: Bool
    let message: String
    let timestamp: Date
    let keyType: String
}

/// `POST /api/ios/init` (§4.1.2).
struct InstallInitResponse: Encodable, Sendable {
    let apiKey: String
    let baseUrl: String
    let installId: String
}

/// `POST /api/uploads/presign` (§4.5.1).
struct PresignResponse: Encodable, Sendable {
    let uploadUrl: String
    let method: String
    let headers: [String: String]
    let ref: String
    let expiresIn: Int
    let expiresAt: Date
}

/// `POST /api/admin/login` (§4.7.1).
struct AdminLoginResponse: Encodable, Sendable {
    let token: String
    let expiresIn: Int
    let expiresAt: Date
}

/// `GET /api/admin/ios-users/stats` (§4.7.5).
struct InstallStatsResponse: Encodable, Sendable {
    let total: Int
    let active30d: Int
    let highPriority: Int
    let blocked: Int
}
