import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reading the error answers both kits turn into their typed errors. Which status becomes which case stays in each
/// kit: the two contracts differ there.
package enum ErrorResponses {
    /// The server's message: the string member `field` of a JSON object body (`detail` for HelpPet, `error` for
    /// AutoDetail), else the first 500 bytes of the body as text, else the status's standard phrase.
    package static func message(in body: Data, field: String, status: Int) -> String {
        message(in: body, json: try? JSONDecoder().decode(JSONValue.self, from: body), field: field, status: status)
    }

    /// The same, for a caller that has already parsed the body (to read other members too).
    package static func message(in body: Data, json: JSONValue?, field: String, status: Int) -> String {
        json?[field]?.stringValue
            ?? String(data: body.prefix(500), encoding: .utf8).flatMap { $0.isEmpty ? nil : $0 }
            ?? HTTPURLResponse.localizedString(forStatusCode: status)
    }

    /// `Code` and `Message` of an S3-style XML error body (object storage), with the standard phrase of `status`
    /// when there is no code and the whole text when there is no message.
    package static func storageError(status: Int, body: Data) -> (code: String, message: String) {
        let text = String(data: body.prefix(4096), encoding: .utf8) ?? ""
        let code = xmlElement("Code", in: text) ?? HTTPURLResponse.localizedString(forStatusCode: status)
        return (code, xmlElement("Message", in: text) ?? text)
    }

    private static func xmlElement(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// What an error thrown by `URLSession` (or by the task around it) means, before a kit wraps it in its own type.
package enum TransportFailure {
    /// The task or the request was cancelled.
    case cancelled
    /// A URL-loading error: no HTTP answer (refused, lost, timed out, DNS…).
    case network(code: URLError.Code?, message: String)
    /// Anything else.
    case other(any Error)

    package init(_ error: any Error) {
        if error is CancellationError {
            self = .cancelled
        } else if let urlError = error as? URLError {
            self = urlError.code == .cancelled ? .cancelled : .network(code: urlError.code, message: urlError.localizedDescription)
        } else if (error as NSError).domain == NSURLErrorDomain {
            let nsError = error as NSError
            let code = URLError.Code(rawValue: nsError.code)
            self = code == .cancelled ? .cancelled : .network(code: code, message: nsError.localizedDescription)
        } else {
            self = .other(error)
        }
    }
}
