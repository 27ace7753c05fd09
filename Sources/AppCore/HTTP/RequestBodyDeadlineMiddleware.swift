import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Gives a client `timeout` to deliver a request body that the route will collect into memory (JSON, forms);
/// a body that stalls is answered `408 Request timed out` with `Connection: close`, so a slow or hostile client
/// cannot hold a connection and a handler open indefinitely (slowloris).
///
/// Streamed uploads (the embedded store's `/storage/...`, HelpPet's legacy multipart upload) are exempt: they carry
/// up to 100 MiB, read their bodies chunk by chunk and register their paths in `StreamingBodyPaths`. Header and
/// idle-connection timeouts belong to the reverse proxy in front of the server (README, "Production").
public struct RequestBodyDeadlineMiddleware: AsyncMiddleware {
    let timeout: TimeAmount
    let streamingPaths: StreamingBodyPaths

    public init(timeout: TimeAmount, streamingPaths: StreamingBodyPaths) {
        self.timeout = timeout
        self.streamingPaths = streamingPaths
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard Self.hasPendingBody(request), !streamingPaths.contains(request.url.path) else {
            return try await next.respond(to: request)
        }
        let limit = request.application.routes.defaultMaxBodySize.value
        // A declared length over the limit is refused before a byte of the body is read, and before authentication:
        // waiting for (or reading) gigabytes a client announced costs more than answering 413 to an unauthenticated
        // caller (a reverse proxy's client_max_body_size does the same). The body stays unread, so the connection
        // cannot be reused.
        if let declared = request.headers.first(name: .contentLength).flatMap(Int.init), declared > limit {
            throw APIError(.payloadTooLarge, "Request body too large", headers: ["Connection": "close"])
        }
        // Collected here with a deadline; the route's own collection then finds the body in memory. The size
        // limit is the routes' default, so an oversized chunked body still gets the usual 413.
        let collected = request.body.collect(max: limit)
        let deadline = request.eventLoop.makePromise(of: Void.self)
        let timer = request.eventLoop.scheduleTask(in: timeout) {
            deadline.fail(Abort(.requestTimeout, headers: ["Connection": "close"]))
        }
        collected.whenComplete { result in
            timer.cancel()
            switch result {
            case .success: deadline.succeed(())
            case .failure(let error): deadline.fail(error)
            }
        }
        try await deadline.futureResult.get()
        return try await next.respond(to: request)
    }

    /// A body is on its way: declared with a length, or chunked, and not yet in memory.
    static func hasPendingBody(_ request: Request) -> Bool {
        guard request.body.data == nil else { return false }
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init) { return length > 0 }
        return request.headers.contains(name: .transferEncoding)
    }
}

/// The path prefixes whose routes stream their bodies (registered by the modules while they configure routes).
public final class StreamingBodyPaths: Sendable {
    private let prefixes = NIOLockedValueBox<[String]>([])

    public init() {}

    /// Exempts every path equal to `prefix`, or below it when `prefix` ends with `/`.
    public func register(_ prefix: String) { prefixes.withLockedValue { $0.append(prefix) } }

    func contains(_ path: String) -> Bool {
        prefixes.withLockedValue { list in
            list.contains { prefix in
                prefix.hasSuffix("/") ? path.hasPrefix(prefix) : (path == prefix || path == prefix + "/")
            }
        }
    }
}
