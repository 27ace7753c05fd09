import Foundation

/// HTTP methods the two APIs use. Public because it is part of each kit's `Request` (each kit re-exports it under
/// its own name with a typealias).
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

/// The answer of requests whose body is ignored (or that have none, 204).
public struct EmptyResponse: Decodable, Sendable, Hashable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}
