import Foundation
import ObjectStorage
import Vapor

/// Opens the configured object store once per process (shared by both products) and serves the embedded
/// store's `/storage/...` routes.
public enum ObjectStoreSetup {
    public static func configure(_ app: Application, config: AppConfig, clock: any AppClock) async throws {
        let settings = config.storage
        switch settings.backend {
        case .local:
            let configuration = LocalObjectStoreConfiguration(
                rootDirectory: settings.localPath,
                credentials: SigV4Credentials(
                    accessKeyID: settings.localAccessKeyID, secretAccessKey: settings.localSecretAccessKey),
                region: settings.region,
                buckets: [
                    LocalBucket(name: settings.helppetBucket),
                    // AutoDetail contract §7.4 row 11: at most 15 MiB per photo, refused before the body is read.
                    LocalBucket(name: settings.autodetailBucket, maxObjectBytes: StorageSettings.autodetailMaxObjectBytes),
                ],
                publicBaseURL: config.publicBaseURL,
                now: { clock.now() })
            let store: LocalObjectStore
            do {
                store = try await LocalObjectStore.open(configuration, logger: app.logger)
            } catch {
                throw ConfigurationError("the embedded object store cannot be opened at \(settings.localPath.path): \(error)")
            }
            app.objectStore = store
            app.lifecycle.use(LocalStoreShutdown(store: store))
            let clientAddress = ClientAddress(trustedProxies: config.trustedProxies)
            try app.register(collection: StorageRoutes(
                store: store, requestID: { $0.requestID },
                requestBaseURL: { "\(clientAddress.scheme(of: $0))://\($0.headers.first(name: .host) ?? "localhost")" }))
        case .s3:
            throw ConfigurationError("STORAGE_BACKEND=s3 is not available yet in this build")
        }
        let buckets = [settings.helppetBucket, settings.autodetailBucket]
        app.core.readiness.register(.init(name: "storage", critical: true) { app in
            for bucket in buckets where !(await app.objectStore.bucketReachable(bucket: bucket)) { return .unavailable }
            return .ok
        })
    }
}

private struct LocalStoreShutdown: LifecycleHandler {
    let store: LocalObjectStore
    func shutdownAsync(_ application: Application) async { await store.shutdown() }
}

extension Application {
    private struct ObjectStoreKey: StorageKey { typealias Value = any ObjectStore }

    /// The process's object store (set by `ObjectStoreSetup`).
    public var objectStore: any ObjectStore {
        get {
            guard let store = storage[ObjectStoreKey.self] else { fatalError("ObjectStoreSetup.configure must run first") }
            return store
        }
        set { storage[ObjectStoreKey.self] = newValue }
    }
}
