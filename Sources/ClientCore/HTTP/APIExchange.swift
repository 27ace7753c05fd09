import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A kit's error type as the shared transport needs it: retry classification plus the mapping of `URLSession`
/// errors. The kits' public error enums conform; the conformance is not part of their public API.
package protocol ClientFailure: RetryClassifiedError {
    /// Maps an error thrown by `URLSession` (or a hook) to this type.
    static func fromTransport(_ error: any Error) -> Self
}

/// What differs between the kits around one API call; every hook has a do-nothing default.
package struct APIExchangeHooks<Failure: ClientFailure> {
    /// Before each attempt (retries included): may change the request, or throw to stop it.
    package var willSend: (inout URLRequest, _ attempt: Int) async throws -> Void = { _, _ in }
    /// True for a transport failure that proves the request never reached the server, after which even a request
    /// that is not safe to repeat may be sent again.
    package var neverReachedServer: (Failure) -> Bool = { _ in false }
    /// Maps a non-2xx answer to the kit's error (and may tell the app about it).
    package var failure: (_ status: Int, _ body: Data, _ response: HTTPURLResponse) async -> Failure
    /// Before the pause of a retry.
    package var willPause: (Failure, _ attempt: Int, _ delay: TimeInterval) async -> Void = { _, _, _ in }

    package init(failure: @escaping (_ status: Int, _ body: Data, _ response: HTTPURLResponse) async -> Failure) {
        self.failure = failure
    }
}

/// Sends one API request on `session` and returns its 2xx answer, retrying after transport failures and retryable
/// statuses when the request is safe to repeat (`isRetryable`), as `policy` allows. Nothing is retried after a 4xx.
package func performAPIExchange<Failure: ClientFailure>(
    _ request: URLRequest, on session: URLSession, isRetryable: Bool, policy: BackoffRetryPolicy<Failure>,
    hooks: APIExchangeHooks<Failure>, isolation: isolated (any Actor)? = #isolation
) async throws(Failure) -> (Data, HTTPURLResponse) {
    try await policy.run(willPause: hooks.willPause) { attempt -> AttemptOutcome<(Data, HTTPURLResponse), Failure> in
        var attemptRequest = request
        do {
            try await hooks.willSend(&attemptRequest, attempt)
        } catch {
            return .final(Failure.fromTransport(error))
        }
        let data: Data
        let http: HTTPURLResponse
        do {
            let (body, response) = try await session.data(for: attemptRequest)
            guard let response = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            (data, http) = (body, response)
        } catch {
            let mapped = Failure.fromTransport(error)
            return isRetryable || hooks.neverReachedServer(mapped) ? .retryable(mapped, retryAfter: nil) : .final(mapped)
        }
        if (200..<300).contains(http.statusCode) { return .success((data, http)) }
        let error = await hooks.failure(http.statusCode, data, http)
        guard isRetryable else { return .final(error) }
        let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
        return .retryable(error, retryAfter: retryAfter)
    }
}
