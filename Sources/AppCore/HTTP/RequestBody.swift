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

    /// A body of at most `maxBytes` (413 past it, by the declared length or the bytes), read as `{}` when empty
    /// whatever its content type, else `application/json` (415) holding one strict-syntax JSON object
    /// (`messages.invalidJSONBody`). AutoDetail Hub reads every body this way (§1.7 step 5).
    public func limitedJSONObject(maxBytes: Int, messages: RequestMessages) throws -> FieldReader {
        if let declared = headers.first(name: .contentLength).flatMap(Int.init), declared > maxBytes {
            throw APIError.payloadTooLarge
        }
        let data = bodyData
        if data.count > maxBytes { throw APIError.payloadTooLarge }
        if data.isEmpty { return FieldReader([:], messages: messages) }
        guard hasMediaType("application", "json") else {
            throw APIError(.unsupportedMediaType, "Content-Type must be application/json")
        }
        // Strict RFC 8259 syntax first (Foundation accepts trailing commas; the scanner also bounds nesting).
        guard StrictJSONSyntax.isValid(data), let value = try? JSONDecoder().decode(JSONValue.self, from: data),
            case .object(let object) = value
        else {
            throw APIError.badRequest(messages.invalidJSONBody)
        }
        return FieldReader(object, messages: messages)
    }
}
