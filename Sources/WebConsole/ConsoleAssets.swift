import Crypto
import Foundation
import Vapor

/// A console's static files (hand-written CSS and ES modules), read once at start and served from
/// `{mount}/assets/{version}/{name}`, where `version` is a hash of every file's content: a deploy that changes any
/// file changes every URL, so the files can be cached for a year (`immutable`), and modules import each other by
/// relative path (`./console.js`) without a build step rewriting names.
public final class ConsoleAssets: Sendable {
    public struct File: Sendable {
        let data: Data
        let contentType: String
    }

    public let version: String
    private let files: [String: File]
    private let mount: ConsoleMount

    /// `directories`: later folders win on a name clash (a console may override a shared file).
    public init(directories: [URL], mount: ConsoleMount) throws {
        var files: [String: File] = [:]
        for directory in directories {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            for name in names where !name.hasPrefix(".") {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                files[name] = File(data: data, contentType: Self.contentType(of: name))
            }
        }
        var hasher = SHA256()
        for name in files.keys.sorted() {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: files[name]!.data)
        }
        version = hasher.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
        self.files = files
        self.mount = mount
    }

    /// The shared files of every console (layout CSS, the fetch/CSRF/polling module).
    public static var sharedDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Assets", isDirectory: true)
    }

    public func url(_ name: String) -> String {
        precondition(files[name] != nil, "no console asset named \(name)")
        return mount.path("/assets/\(version)/\(name)")
    }

    /// Bytes of the named files together, for the page weight budget (tests).
    public func size(of names: [String]) -> Int { names.compactMap { files[$0]?.data.count }.reduce(0, +) }

    public func register(on routes: any RoutesBuilder) {
        routes.get("assets", ":version", ":name") { [self] request -> Response in
            guard let name = request.parameters.get("name"), let file = files[name] else {
                throw Abort(.notFound)
            }
            let current = request.parameters.get("version") == version
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(type: file.contentType.split(separator: "/")[0].description,
                                                subType: file.contentType.split(separator: "/")[1].split(separator: ";")[0].description,
                                                parameters: file.contentType.contains("charset") ? ["charset": "utf-8"] : [:])
            // An old version's URL (a page cached before a deploy) gets today's file, not cached for long.
            headers.replaceOrAdd(
                name: .cacheControl, value: current ? "public, max-age=31536000, immutable" : "no-cache")
            headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
            return Response(status: .ok, headers: headers, body: .init(data: file.data))
        }
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}
