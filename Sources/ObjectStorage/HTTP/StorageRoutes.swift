import Vapor

/// The embedded store's HTTP surface, `/storage/{bucket}/{key…}` (contract §7; mount it only with
/// `STORAGE_BACKEND=local`):
/// - `POST /storage/{bucket}/`: presigned POST form upload;
/// - `GET`/`HEAD /storage/{bucket}/{key}`: presigned download with `Range`;
/// - `PUT /storage/{bucket}/{key}`: presigned upload (AutoDetail);
/// - anything else on these paths: 405 `MethodNotAllowed`.
/// Every answer, errors included, is S3-shaped; no handler throws, so nothing reaches the generic error path.
public struct StorageRoutes: RouteCollection, Sendable {
    public let store: LocalObjectStore
    /// The request id for the XML error body (the app wires its own, e.g. `{ $0.requestID }`).
    public let requestID: @Sendable (Request) -> String
    /// `scheme://host` of the request, for the `Location` of a POST upload when no `PUBLIC_BASE_URL` is set
    /// (the app wires its trusted-proxy-aware version).
    public let requestBaseURL: @Sendable (Request) -> String

    public init(
        store: LocalObjectStore,
        requestID: @escaping @Sendable (Request) -> String = StorageRoutes.incomingRequestID,
        requestBaseURL: @escaping @Sendable (Request) -> String = StorageRoutes.hostBaseURL
    ) {
        self.store = store
        self.requestID = requestID
        self.requestBaseURL = requestBaseURL
    }

    /// `X-Request-ID` of the request, or a new id.
    public static let incomingRequestID: @Sendable (Request) -> String = { request in
        request.headers.first(name: "X-Request-ID") ?? UUID().uuidString.lowercased()
    }

    /// `http://{Host}` (no proxy headers are trusted here).
    public static let hostBaseURL: @Sendable (Request) -> String = { request in
        "http://\(request.headers.first(name: .host) ?? "localhost")"
    }

    public func boot(routes: any RoutesBuilder) throws {
        let storage = routes.grouped("storage")
        storage.on(.POST, ":bucket", body: .stream) { try await self.postForm($0) }
        storage.on(.GET, ":bucket", "**") { try await self.download($0) }
        storage.on(.HEAD, ":bucket", "**") { try await self.download($0) }
        storage.on(.PUT, ":bucket", "**", body: .stream) { try await self.upload($0) }

        // Explicit 405s (otherwise the router would answer 404). Bodies are streamed and never read, so a large
        // body cannot be buffered first.
        for method: HTTPMethod in [.GET, .HEAD, .PUT, .DELETE, .PATCH, .OPTIONS] {
            storage.on(method, ":bucket", body: .stream) { self.methodNotAllowed($0) }
        }
        for method: HTTPMethod in [.POST, .DELETE, .PATCH, .OPTIONS] {
            storage.on(method, ":bucket", "**", body: .stream) { self.methodNotAllowed($0) }
        }
    }

    func methodNotAllowed(_ request: Request) -> Response {
        // The bucket root takes only the POST form; object paths take GET, HEAD and PUT.
        let target = try? StorageRequestTarget.parse(rawPath: request.url.path)?.get()
        var headers = HTTPHeaders()
        headers.add(name: .allow, value: target?.key == nil ? "POST" : "GET, HEAD, PUT")
        return StorageErrorResponse.make(.methodNotAllowed, requestID: requestID(request), method: request.method, extraHeaders: headers)
    }

    func errorResponse(_ error: StorageError, _ request: Request, headers: HTTPHeaders = [:]) -> Response {
        StorageErrorResponse.make(error, requestID: requestID(request), method: request.method, extraHeaders: headers)
    }

    /// The bucket (configured) and target of a request, or the S3 error for it.
    func resolveBucket(_ request: Request) -> Result<(LocalBucket, StorageRequestTarget), StorageError> {
        guard let parsed = StorageRequestTarget.parse(rawPath: request.url.path) else { return .failure(.noSuchBucket) }
        switch parsed {
        case let .failure(error):
            return .failure(error)
        case let .success(target):
            guard let bucket = store.bucket(named: target.bucket) else { return .failure(.noSuchBucket) }
            return .success((bucket, target))
        }
    }

    /// Bucket, safe key and presigned query authentication: rows 2–9 of the check tables (AutoDetail §7.4,
    /// HelpPet §7.4), in order.
    func authorizeObjectRequest(_ request: Request) -> Result<(LocalBucket, String, String), StorageError> {
        let bucket: LocalBucket, target: StorageRequestTarget
        switch resolveBucket(request) {
        case let .failure(error): return .failure(error)
        case let .success(resolved): (bucket, target) = resolved
        }
        guard let key = target.key else { return .failure(.methodNotAllowed) }
        if let problem = ObjectKeyRules.validate(key) { return .failure(problem) }
        guard let dataPath = store.layout.dataPath(bucket: bucket.name, key: key) else {
            return .failure(.invalidArgument("The object key is not allowed."))
        }
        guard let query = QueryAuthRequest.parseQuery(request.url.query) else {
            return .failure(.invalidArgument("The query string is not valid percent-encoded UTF-8."))
        }
        do {
            _ = try store.verifier.verifyQuery(QueryAuthRequest(
                method: request.method.rawValue, canonicalURI: target.canonicalURI, query: query,
                headers: request.headers))
        } catch {
            return .failure(error)
        }
        return .success((bucket, key, dataPath))
    }
}
