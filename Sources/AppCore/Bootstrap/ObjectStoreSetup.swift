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
            app.core.streamingBodyPaths.register("/storage/")
            let clientAddress = ClientAddress(trustedProxies: config.trustedProxies)
            try app.register(collection: StorageRoutes(
                store: store, requestID: { $0.requestID },
                requestBaseURL: { "\(clientAddress.scheme(of: $0))://\($0.headers.first(name: .host) ?? "localhost")" }))
        case .s3:
            let configuration = S3Configuration(
                credentials: SigV4Credentials(
                    accessKeyID: settings.awsAccessKeyID ?? "", secretAccessKey: settings.awsSecretAccessKey ?? "",
                    sessionToken: settings.awsSessionToken),
                region: settings.region, endpoint: settings.s3Endpoint, forcePathStyle: settings.s3ForcePathStyle,
                now: { clock.now() })
            let store: S3ObjectStore
            do {
                // The application's shared HTTP client: its connection pool and event loops live as long as the app.
                store = try S3ObjectStore(configuration: configuration, httpClient: app.http.client.shared, logger: app.logger)
            } catch {
                throw ConfigurationError("the S3 object store cannot be configured: \(error)")
            }
            app.objectStore = store
            app.lifecycle.use(S3StoreShutdown(store: store))
            // No `/storage` routes: clients upload to and download from S3 directly with the presigned URLs.
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

private struct S3StoreShutdown: LifecycleHandler {
    let store: S3ObjectStore
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
