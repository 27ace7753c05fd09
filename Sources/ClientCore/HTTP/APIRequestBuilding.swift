import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Building the `URLRequest` of an API call: the parts both kits do the same way. Authentication and the body's
/// encoding stay in the kits (their APIs differ there).
package enum APIRequestBuilding {
    /// The text of `base` + `path` (+ query), with exactly one `/` between the root and the path. The kits parse it
    /// and name it in their own "Invalid URL" error when it is not a URL.
    package static func urlText(base: URL, path: String, query: [(String, String)] = []) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path.hasPrefix("/") ? path : "/" + path
        if !query.isEmpty { text += "?" + PercentEncoding.form(query) }
        return text
    }

    /// A request with the method, timeout, `Accept: application/json` and `User-Agent` every API call carries.
    package static func request(
        url: URL, method: HTTPMethod, timeout: TimeInterval, userAgent: String
    ) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        return request
    }

    /// The session of a client's API calls: ephemeral (no cookies or cache on disk), never answered from a cache.
    package static func makeSession(requestTimeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }
}
