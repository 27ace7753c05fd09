import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The AutoDetail Hub API client: one actor per server, in the manner of kean/Get (typed requests, one place that
/// sends them).
///
/// ```swift
/// let client = AutoDetailClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// try await client.initInstall()                       // or: try await client.useAPIKey("org_…")
/// let wash = try await client.services().first { $0.name == "Car Washing" }!
/// let slot = try await client.availability(serviceId: wash.id, date: "2025-03-14").availableSlots[0]
/// let booking = try await client.book(BookingRequest(startIso: slot.startIso, clientName: "Ivan Petrov",
///     phone: "+79161234567", carMake: "Toyota Camry", carPlate: "A123BC777", serviceName: wash.name))
/// try await client.addPhoto(appointmentId: booking.id, kind: .defect, file: photoURL)
/// ```
///
/// Every method throws ``AutoDetailError``. The stored API key is attached as `X-API-Key` to every key-protected
/// request and the admin token as `Authorization: Bearer` to every admin request. GETs and the presigned photo PUT
/// are retried after transport failures and 5xx (``Configuration/retryPolicy``); nothing is retried after a 4xx,
/// and no POST is repeated once it may have reached the server.
public actor AutoDetailClient {
    /// Settings of a client.
    public struct Configuration: Sendable {
        /// Retries of the requests that are safe to repeat.
        public var retryPolicy: RetryPolicy
        /// Timeout of API requests, in seconds (the seed recommends 15–30).
        public var requestTimeout: TimeInterval
        /// Idle timeout of photo uploads (no byte moved for this long), in seconds.
        public var uploadTimeout: TimeInterval
        /// The `User-Agent` header.
        public var userAgent: String

        public init(
            retryPolicy: RetryPolicy = .default, requestTimeout: TimeInterval = 30, uploadTimeout: TimeInterval = 120,
            userAgent: String = "AutoDetailKit/1.0"
        ) {
            self.retryPolicy = retryPolicy
            self.requestTimeout = requestTimeout
            self.uploadTimeout = uploadTimeout
            self.userAgent = userAgent
        }
    }

    /// The server root, e.g. `http://127.0.0.1:8080` (paths such as `/api/client/services` are appended).
    public nonisolated let baseURL: URL
    /// Where the API key and the admin token are kept.
    public nonisolated let credentialStore: any CredentialStore
    public nonisolated let configuration: Configuration
    private let session: URLSession

    /// Creates a client for the server at `baseURL`.
    /// - Parameters:
    ///   - credentialStore: where the key and token are kept (in memory by default; the Keychain in an app).
    ///   - configuration: retries, timeouts, user agent.
    public init(
        baseURL: URL, credentialStore: any CredentialStore = InMemoryCredentialStore(),
        configuration: Configuration = Configuration()
    ) {
        self.baseURL = baseURL
        self.credentialStore = credentialStore
        self.configuration = configuration
        session = APIRequestBuilding.makeSession(requestTimeout: configuration.requestTimeout)
    }

    deinit { session.finishTasksAndInvalidate() }

    // MARK: Sending requests

    /// Sends `request` and decodes its 2xx answer with a plain `JSONDecoder` (as the seed does).
    public func send<Response>(_ request: Request<Response>) async throws(AutoDetailError) -> Response {
        try await sendWithHeaders(request).0
    }

    /// Sends `request` and returns the raw 2xx body (for callers that want the server's exact JSON).
    public func sendRaw<Response>(_ request: Request<Response>) async throws(AutoDetailError) -> Data {
        try await perform(request).0
    }

    /// Sends a list request and returns its items with `X-Total-Count` (the number before paging).
    public func sendPage<Item>(_ request: Request<[Item]>) async throws(AutoDetailError) -> Page<Item> {
        let (items, response) = try await sendWithHeaders(request)
        let total = response.value(forHTTPHeaderField: "X-Total-Count").flatMap { Int($0) }
        return Page(items: items, totalCount: total)
    }

    func sendWithHeaders<Response>(_ request: Request<Response>) async throws(AutoDetailError) -> (Response, HTTPURLResponse) {
        let (data, response) = try await perform(request)
        if Response.self == EmptyResponse.self, let empty = EmptyResponse() as? Response { return (empty, response) }
        do {
            return (try JSONDecoder().decode(Response.self, from: data), response)
        } catch {
            throw .decoding("\(Response.self) from \(request.method.rawValue) \(request.path): \(error)")
        }
    }

    func perform<Response>(_ request: Request<Response>) async throws(AutoDetailError) -> (Data, HTTPURLResponse) {
        let hooks = APIExchangeHooks<AutoDetailError> { status, body, response in
            AutoDetailError.fromAPIResponse(
                status: status, body: body, retryAfterHeader: response.value(forHTTPHeaderField: "Retry-After"))
        }
        return try await performAPIExchange(
            makeURLRequest(request), on: session, isRetryable: request.isRetryable, policy: configuration.retryPolicy,
            hooks: hooks)
    }

    func makeURLRequest<Response>(_ request: Request<Response>) async throws(AutoDetailError) -> URLRequest {
        var urlRequest = APIRequestBuilding.request(
            url: try url(path: request.path, query: request.query), method: request.method,
            timeout: configuration.requestTimeout, userAgent: configuration.userAgent)
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        switch request.authentication {
        case .none:
            break
        case .apiKey:
            guard let key = try await credentials().apiKey else {
                throw .unauthorized(message: "No API key: call initInstall() or useAPIKey(_:) first")
            }
            urlRequest.setValue(key, forHTTPHeaderField: "X-API-Key")
        case .admin:
            guard let token = try await credentials().adminToken else {
                throw .unauthorized(message: "Not logged in as admin: call adminLogin(username:password:) first")
            }
            urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return urlRequest
    }

    /// `baseURL` + `path` (+ query).
    func url(path: String, query: [(String, String)] = []) throws(AutoDetailError) -> URL {
        let text = APIRequestBuilding.urlText(base: baseURL, path: path, query: query)
        guard let url = URL(string: text) else { throw .invalid(message: "Invalid URL: \(text)") }
        return url
    }

    /// A path segment for an id: percent-encoded, so an id can never change the path.
    nonisolated static func segment(_ id: String) -> String { PercentEncoding.encode(id) }

    static func page(_ limit: Int?, _ offset: Int?) -> [(String, String)] {
        var query: [(String, String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let offset { query.append(("offset", String(offset))) }
        return query
    }

    // MARK: Credentials

    /// The stored credentials.
    public func credentials() async throws(AutoDetailError) -> StoredCredentials {
        do {
            return try await credentialStore.load()
        } catch let error as AutoDetailError {
            throw error
        } catch {
            throw .file(path: "credential store", reason: "cannot be read: \(error.localizedDescription)")
        }
    }

    func updateCredentials(_ change: (inout StoredCredentials) -> Void) async throws(AutoDetailError) {
        var stored = try await credentials()
        change(&stored)
        do {
            try await credentialStore.save(stored)
        } catch let error as AutoDetailError {
            throw error
        } catch {
            throw .file(path: "credential store", reason: "cannot be written: \(error.localizedDescription)")
        }
    }

    /// Uses `key` (an organisation key from the console, or an install key kept elsewhere) from now on.
    public func useAPIKey(_ key: String, installId: String? = nil) async throws(AutoDetailError) {
        try await updateCredentials {
            $0.apiKey = key
            $0.installId = installId
        }
    }

    /// Forgets the API key (e.g. after a 401: it was revoked or the install deleted).
    public func forgetAPIKey() async throws(AutoDetailError) {
        try await updateCredentials {
            $0.apiKey = nil
            $0.installId = nil
        }
    }

    /// The seed's `ISO8601DateFormatter().string(from:)`: `2025-03-14T08:00:00Z`, the form the server expects.
    public nonisolated static func isoString(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}

/// One page of a paginated list.
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    /// `X-Total-Count`: the items matching the filters before paging.
    public let totalCount: Int?
}
