import Vapor

/// Reads S3's `<Error><Code>…</Code><Message>…</Message></Error>` into a `StorageError`. A plain string scan is
/// enough for this fixed shape and avoids FoundationXML, which is a separate module on Linux.
enum S3ErrorDocument {
    static func storageError(status: HTTPResponseStatus, body: String?) -> StorageError {
        let code = body.flatMap { element("Code", in: $0) } ?? defaultCode(status)
        let message = body.flatMap { element("Message", in: $0) } ?? "S3 answered \(status.code)."
        return StorageError(status: status, code: code, message: message)
    }

    /// The code S3 means when it answers a HEAD (which has no body).
    static func defaultCode(_ status: HTTPResponseStatus) -> String {
        switch status.code {
        case 301, 307: return "PermanentRedirect"
        case 400: return "BadRequest"
        case 403: return "AccessDenied"
        case 404: return "NotFound"
        case 412: return "PreconditionFailed"
        case 416: return "InvalidRange"
        case 503: return "ServiceUnavailable"
        default: return "InternalError"
        }
    }

    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Network failures and timeouts: the store could not be asked at all.
    static let unreachable = StorageError(
        status: .serviceUnavailable, code: "ServiceUnavailable", message: "The object store could not be reached.")
}
