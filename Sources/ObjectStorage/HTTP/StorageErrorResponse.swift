import Vapor

/// S3's XML error document (contract §7.5), built by the storage routes themselves so each failure keeps its
/// precise S3 code (the app's error middleware only knows generic ones).
enum StorageErrorResponse {
    static func make(_ error: StorageError, requestID: String, method: HTTPMethod, extraHeaders: HTTPHeaders = [:]) -> Response {
        var headers = extraHeaders
        headers.replaceOrAdd(name: .contentType, value: "application/xml")
        // A HEAD answer has no body (S3 sends the status and headers only).
        if method == .HEAD {
            return Response(status: error.status, headers: headers, body: .empty)
        }
        let body = xml(code: error.code, message: error.message, requestID: requestID)
        return Response(status: error.status, headers: headers, body: .init(string: body))
    }

    static func xml(code: String, message: String, requestID: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(escape(code))</Code><Message>\(escape(message))</Message><RequestId>\(escape(requestID))</RequestId></Error>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
