import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A test request's answer, as read off the wire.
public struct WireAnswer: Sendable {
    public let status: HTTPResponseStatus
    public let headers: HTTPHeaders
    public let body: Data
}

/// Executes `request` against a real server, retrying `503` + `Retry-After` the way a real client does.
///
/// A 503 with `Retry-After` is the server's documented answer to a pool wait over 2 s (shared surface rule); on a
/// loaded CI machine a burst of parallel requests can meet it. The tests retry it (up to 20 times) so that a race
/// test checks the outcome of the race rather than the machine's speed. The request's body must be in memory.
public func executeRetryingUnavailable(
    _ request: HTTPClientRequest, timeout: TimeAmount, maxBodyBytes: Int
) async throws -> WireAnswer {
    for attempt in 0...20 {
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        var buffer = try await response.body.collect(upTo: maxBodyBytes)
        let answer = WireAnswer(
            status: response.status, headers: response.headers, body: buffer.readData(length: buffer.readableBytes) ?? Data())
        guard attempt < 20, answer.status == .serviceUnavailable,
            let retryAfter = answer.headers.first(name: "Retry-After").flatMap(Int.init)
        else { return answer }
        try await Task.sleep(for: .seconds(retryAfter))
    }
    preconditionFailure("unreachable: the last attempt always returns")
}
