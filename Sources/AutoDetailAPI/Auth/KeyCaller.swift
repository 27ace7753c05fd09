import AppCore
import Foundation
import Vapor

/// The API key of a key-protected request (contract §2.1, §2.8).
struct KeyCaller: Sendable {
    let keyID: UUID
    let kind: APIKeyKind
    let fullAccess: Bool
    /// The install of an install key.
    let installID: UUID?

    /// The appointments this key may see: every one for an organisation key with `fullAccess`, else the ones it
    /// created (for an install key: its install's).
    var seesEverything: Bool { kind == .org && fullAccess }

    /// The same rule as a condition the stores apply inside their SQL.
    var scope: AppointmentScope { seesEverything ? .everything : .createdBy(keyID) }
}

extension Request {
    private struct KeyCallerKey: StorageKey { typealias Value = KeyCaller }
    private struct AdminCallerKey: StorageKey { typealias Value = AdminCaller }

    var keyCaller: KeyCaller {
        get throws {
            guard let caller = storage[KeyCallerKey.self] else { throw APIError.missingAPIKey }
            return caller
        }
    }

    func setKeyCaller(_ caller: KeyCaller) { storage[KeyCallerKey.self] = caller }

    var adminCaller: AdminCaller {
        get throws {
            guard let caller = storage[AdminCallerKey.self] else { throw APIError.missingAdminToken }
            return caller
        }
    }

    func setAdminCaller(_ caller: AdminCaller) { storage[AdminCallerKey.self] = caller }
}
