import AppCore
import Foundation

/// Where a browser uploads to and plays media from: the console's own origin with the embedded store; the S3
/// endpoint (path-style and virtual-hosted) otherwise. Added to a page's `connect-src`, `img-src`, `media-src`.
public enum StorageOrigin {
    public static func connectSources(_ config: AppConfig) -> [String] {
        guard config.storage.backend == .s3 else { return [] }
        guard let endpoint = config.storage.s3Endpoint, let url = URL(string: endpoint), let scheme = url.scheme,
            let host = url.host
        else { return ["https://*.amazonaws.com"] }
        let port = url.port.map { ":\($0)" } ?? ""
        return ["\(scheme)://\(host)\(port)", "\(scheme)://*.\(host)\(port)"]
    }
}
