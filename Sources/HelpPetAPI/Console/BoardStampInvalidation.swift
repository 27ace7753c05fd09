import Vapor

/// Drops the cached day-board stamps after every request that may have written (any method but GET and HEAD), once
/// its response is ready, that is after its commit: a change made through this process is on the next poll of
/// every board, however short ago the stamp was read (ReadPathCaches.boardStamps).
struct BoardStampInvalidation: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method != .GET, request.method != .HEAD else { return try await next.respond(to: request) }
        defer { request.readPathCaches.boardStamps.invalidateAll() }
        return try await next.respond(to: request)
    }
}
