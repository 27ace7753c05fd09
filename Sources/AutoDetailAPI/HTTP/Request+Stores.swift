import Fluent
import Vapor

/// The stores of a request, on the request's database.
extension Request {
    var bookings: BookingStore { BookingStore(db: db) }
    var services: ServiceStore { ServiceStore(db: db) }
    var studioSettings: StudioSettingsStore { StudioSettingsStore(db: db) }
    var photos: PhotoStore { PhotoStore(db: db) }
    var apiKeys: ApiKeyStore { ApiKeyStore(db: db, cache: application.autodetailKeyCache) }
    var installs: InstallStore { InstallStore(db: db, cache: application.autodetailKeyCache) }
    var messages: MessageStore { MessageStore(db: db) }
    var adminSessions: AdminSessionStore { AdminSessionStore(db: db) }
}

extension Application {
    private struct KeyCallerCacheKey: StorageKey { typealias Value = KeyCallerCache }

    /// This process's cache of key checks (see `KeyCallerCache`), created by `AutoDetailModule.configure`.
    var autodetailKeyCache: KeyCallerCache {
        get {
            guard let value = storage[KeyCallerCacheKey.self] else { fatalError("AutoDetailModule.configure must run first") }
            return value
        }
        set { storage[KeyCallerCacheKey.self] = newValue }
    }
}
