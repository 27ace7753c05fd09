import Foundation
import Vapor

extension Request {
    /// The collected body bytes (empty when there is none).
    public var bodyData: Data {
        guard var buffer = body.data else { return Data() }
        return buffer.readData(length: buffer.readableBytes) ?? Data()
    }

    /// True when the request's media type is `type/subType` (parameters such as charset allowed).
    public func hasMediaType(_ type: String, _ subType: String) -> Bool {
        guard let ct = headers.contentType else { return false }
        return ct.type.lowercased() == type && ct.subType.lowercased() == subType
    }

    /// Parses a required JSON object body with the contract's checks: media type, then syntax, then shape.
    public func jsonObject(contentTypeMessage: String = "Content-Type must be application/json") throws -> FieldReader {
        guard hasMediaType("application", "json") else { throw APIError.badRequest(contentTypeMessage) }
        return FieldReader(try JSONValue.parseObject(bodyData))
    }

    /// Like `jsonObject()` but an empty body (with or without a content type) reads as `{}`.
    public func optionalJSONObject() throws -> FieldReader {
        let data = bodyData
        if data.isEmpty { return FieldReader([:]) }
        guard hasMediaType("application", "json") else {
            throw APIError.badRequest("Content-Type must be application/json")
        }
        return FieldReader(try JSONValue.parseObject(data))
    }
}
