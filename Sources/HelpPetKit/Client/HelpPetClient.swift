import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HelpPet API client: one actor per server and user, in the manner of kean/Get (typed requests, delegate
/// hooks for auth and retry).
///
/// ```swift
/// let client = HelpPetClient(baseURL: URL(string: "https://api.helppet.ai")!)
/// try await client.login(username: "vet1", password: "password123")
/// let today = try await client.today()
/// ```
///
/// Every method throws ``HelpPetError``. GETs, storage uploads and `complete` are retried after transport failures
/// and 5xx according to ``Configuration/retryPolicy``; nothing is retried after a 4xx.
public actor HelpPetClient {
    /// Settings of a client.
    public struct Configuration: Sendable {
        /// Retries of the requests that are safe to repeat.
        public var retryPolicy: RetryPolicy
        /// Timeout of API requests, in seconds.
        public var requestTimeout: TimeInterval
        /// Idle timeout of uploads and downloads (no byte moved for this long), in seconds.
        public var transferTimeout: TimeInterval
        /// Where multipart upload bodies are written before they are sent (removed afterwards).
        public var temporaryDirectory: URL
        /// The `User-Agent` header.
        public var userAgent: String

        public init(
            retryPolicy: RetryPolicy = .default, requestTimeout: TimeInterval = 30, transferTimeout: TimeInterval = 120,
            temporaryDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("HelpPetKit"),
            userAgent: String = "HelpPetKit/1.0"
        ) {
            self.retryPolicy = retryPolicy
            self.requestTimeout = requestTimeout
            self.transferTimeout = transferTimeout
            self.temporaryDirectory = temporaryDirectory
            self.userAgent = userAgent
        }
    }

    /// The server root, e.g. `http://127.0.0.1:8080` (paths such as `/api/v1/...` are appended).
    public nonisolated let baseURL: URL
    /// Where the bearer token is kept.
    public nonisolated let tokenStore: any TokenStore
    public nonisolated let configuration: Configuration
    let delegate: (any HelpPetClientDelegate)?
    private let session: URLSession
    private var cachedUser: User?

    /// Creates a client for the server at `baseURL`.
    /// - Parameters:
    ///   - tokenStore: where the token is kept (in memory by default; a Keychain-backed store in an app).
    ///   - delegate: hooks called around requests (see ``HelpPetClientDelegate``).
    public init(
        baseURL: URL, tokenStore: any TokenStore = InMemoryTokenStore(), configuration: Configuration = Configuration(),
        delegate: (any HelpPetClientDelegate)? = nil
    ) {
        self.baseURL = baseURL
        self.tokenStore = tokenStore
        self.configuration = configuration
        self.delegate = delegate
        session = APIRequestBuilding.makeSession(requestTimeout: configuration.requestTimeout)
    }

    deinit { session.finishTasksAndInvalidate() }

    // MARK: Sending requests

    /// Sends `request` and decodes its 2xx answer (with ``HelpPetCoding/makeDecoder()``).
    public func send<Response>(_ request: Request<Response>) async throws(HelpPetError) -> Response {
        let (data, _) = try await perform(request)
        if Response.self == EmptyResponse.self, let empty = EmptyResponse() as? Response { return empty }
        do {
            return try HelpPetCoding.makeDecoder().decode(Response.self, from: data)
        } catch {
            throw .decoding("\(Response.self) from \(request.method.rawValue) \(request.path): \(error)")
        }
    }

    /// Sends `request` and returns the raw 2xx body (for callers that want the server's exact JSON).
    public func sendRaw<Response>(_ request: Request<Response>) async throws(HelpPetError) -> Data {
        try await perform(request).0
    }

    func perform<Response>(_ request: Request<Response>) async throws(HelpPetError) -> (Data, HTTPURLResponse) {
        var hooks = APIExchangeHooks<HelpPetError> { status, body, response in
            let error = HelpPetError.fromAPIResponse(status: status, body: body, headers: response)
            if case .unauthorized = error { await self.delegate?.client(self, didReceiveUnauthorized: error) }
            return error
        }
        hooks.willSend = { request, attempt in try await self.delegateWillSend(&request, kind: .api, attempt: attempt) }
        // A refused connection never reached the server, so even a POST may be sent again.
        hooks.neverReachedServer = { error in
            if case let .transport(code, _) = error, code == .cannotConnectToHost { return true }
            return false
        }
        hooks.willPause = { error, attempt, delay in await self.delegateWillRetry(.api, after: error, attempt: attempt, delay: delay) }
        return try await performAPIExchange(
            makeURLRequest(request), on: session, isRetryable: request.isRetryable, policy: configuration.retryPolicy,
            hooks: hooks)
    }

    /// Tells the delegate a retry of `kind` is about to pause.
    func delegateWillRetry(_ kind: RequestKind, after error: HelpPetError, attempt: Int, delay: TimeInterval) async {
        await delegate?.client(self, willRetry: kind, after: error, attempt: attempt, delay: delay)
    }

    func makeURLRequest<Response>(_ request: Request<Response>) async throws(HelpPetError) -> URLRequest {
        var urlRequest = APIRequestBuilding.request(
            url: try url(path: request.path, query: request.query), method: request.method,
            timeout: configuration.requestTimeout, userAgent: configuration.userAgent)
        switch request.body {
        case let .json(data):
            urlRequest.httpBody = data
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case let .form(fields):
            urlRequest.httpBody = Data(PercentEncoding.form(fields).utf8)
            urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        case nil:
            break
        }
        if request.requiresAuthentication {
            urlRequest.setValue("Bearer \(try await bearerToken())", forHTTPHeaderField: "Authorization")
        }
        return urlRequest
    }

    /// `baseURL` + `path` (+ query).
    func url(path: String, query: [(String, String)] = []) throws(HelpPetError) -> URL {
        let text = APIRequestBuilding.urlText(base: baseURL, path: path, query: query)
        guard let url = URL(string: text) else { throw .invalid(detail: "Invalid URL: \(text)") }
        return url
    }

    func bearerToken() async throws(HelpPetError) -> String {
        let token: StoredToken?
        do {
            token = try await tokenStore.loadToken()
        } catch {
            throw .file(path: "token store", reason: "cannot be read: \(error.localizedDescription)")
        }
        guard let token else { throw .unauthorized(detail: "Not logged in") }
        return token.accessToken
    }

    /// A path segment for an id: percent-encoded, so an id can never change the path.
    nonisolated static func segment(_ id: String) -> String { PercentEncoding.encode(id) }

    // MARK: Session

    /// Logs in (`POST /api/v1/auth/token`, form-encoded with strict percent-encoding) and saves the token in
    /// ``tokenStore``.
    @discardableResult
    public func login(username: String, password: String) async throws(HelpPetError) -> LoginResponse {
        let request = Request<LoginResponse>(
            method: .post, path: "/api/v1/auth/token", body: .form([("username", username), ("password", password)]),
            requiresAuthentication: false)
        let response = try await send(request)
        let expiresAt = response.expiresIn.map { Date().addingTimeInterval(TimeInterval($0)) }
        do {
            try await tokenStore.saveToken(
                StoredToken(
                    accessToken: response.accessToken, tokenType: response.tokenType, expiresAt: expiresAt,
                    username: username.trimmingCharacters(in: .whitespaces)))
        } catch {
            throw .file(path: "token store", reason: "cannot be written: \(error.localizedDescription)")
        }
        cachedUser = nil
        return response
    }

    /// Forgets the token (the server keeps no session, so nothing is sent).
    public func logout() async throws(HelpPetError) {
        cachedUser = nil
        do {
            try await tokenStore.clearToken()
        } catch {
            throw .file(path: "token store", reason: "cannot be cleared: \(error.localizedDescription)")
        }
    }

    /// Uses `token` from now on (for apps that obtained it elsewhere); saves it in ``tokenStore``.
    public func setToken(_ token: StoredToken) async throws(HelpPetError) {
        cachedUser = nil
        do {
            try await tokenStore.saveToken(token)
        } catch {
            throw .file(path: "token store", reason: "cannot be written: \(error.localizedDescription)")
        }
    }

    /// The logged-in user (`GET /api/v1/auth/me`); remembered for ``today(date:)``.
    public func me() async throws(HelpPetError) -> User {
        let user = try await send(Request<User>(path: "/api/v1/auth/me"))
        cachedUser = user
        return user
    }

    /// The logged-in user, asking the server only the first time.
    public func currentUser() async throws(HelpPetError) -> User {
        if let cachedUser { return cachedUser }
        return try await me()
    }
}
