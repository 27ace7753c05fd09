import Foundation
import Vapor

/// Outermost middleware: assigns the request id, records metrics and writes one log line per request
/// (id, method, route template, status, duration, caller). Paths, queries and headers are never logged,
/// so tokens and presigned signatures cannot leak into logs.
public struct RequestObservationMiddleware: AsyncMiddleware {
    let metrics: MetricsRegistry

    public init(metrics: MetricsRegistry) { self.metrics = metrics }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let started = ContinuousClock.now
        let id = RequestID.resolve(request.headers.first(name: RequestID.header))
        request.requestID = id
        request.logger[metadataKey: "request-id"] = .string(id)

        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            // Only reached if a middleware inside failed without the error middleware; answer generically.
            response = APIErrorMiddleware.response(for: error, request: request, style: ErrorBodyStyle(path: request.url.path))
        }
        response.headers.replaceOrAdd(name: RequestID.header, value: id)

        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let route = Self.routeTemplate(request)
        // A client that went away mid-body is its own status class (docs/transport-safety.md): never a 5xx, and
        // logged at debug, since the server did nothing wrong.
        let status = request.isClientAbort ? MetricsRegistry.clientAbortStatus : String(response.status.code)
        metrics.recordRequest(method: request.method.rawValue, route: route, status: status, seconds: seconds)
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "route": .string(route), "status": .string(status),
            "duration_ms": .string(String(format: "%.1f", seconds * 1000)),
        ]
        if let subject = request.loggedSubject { metadata["user"] = .string(subject) }
        request.logger.log(level: request.isClientAbort ? .debug : .info, "request", metadata: metadata)
        return response
    }

    /// The matched route's template (`/api/v1/pets/:pet_id`), or `unmatched`.
    public static func routeTemplate(_ request: Request) -> String {
        guard let route = request.route else { return "unmatched" }
        return "/" + route.path.map(\.description).joined(separator: "/")
    }
}

private struct ClientAbortKey: StorageKey { typealias Value = Bool }

extension Request {
    /// The client disconnected before its request body was complete (set by `APIErrorMiddleware`).
    public var isClientAbort: Bool { storage[ClientAbortKey.self] ?? false }

    public func markClientAbort() { storage[ClientAbortKey.self] = true }
}
