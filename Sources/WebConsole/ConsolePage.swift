import Foundation
import Vapor

/// A page of a console, its address written once, in the manner of SwiftPackageIndex-Server's `SiteURL`: the router
/// is given `pathComponents` and links are built from `path`, both from the same `segments`. A link therefore cannot
/// point at an address no route serves, and renaming a page's path is one edit.
public protocol ConsolePage: Sendable {
    /// The page's path below the console's mount, one segment at a time.
    var segments: [ConsolePathSegment] { get }
}

/// One segment of a console page's path.
public enum ConsolePathSegment: Sendable, ExpressibleByStringLiteral {
    /// A fixed word ("pets").
    case literal(String)
    /// A parameter named `name` (read by the page as `request.parameters.get(name)`): `:name` for the router, the
    /// value in a link, or `{id}` in a link a script completes.
    case parameter(name: String, PageParameter<String>)

    public init(stringLiteral value: String) { self = .literal(value) }

    /// A UUID parameter, written in lowercase in links (the API's and the console's spelling of ids).
    public static func id(_ name: String, _ parameter: PageParameter<UUID>) -> ConsolePathSegment {
        switch parameter {
        case .key: return .parameter(name: name, .key)
        case .placeholder: return .parameter(name: name, .placeholder)
        case .value(let id): return .parameter(name: name, .value(id.uuidString.lowercased()))
        }
    }
}

/// What a parameter of a page's path stands for where the path is used.
public enum PageParameter<Value: Sendable>: Sendable {
    /// In the route: the router's `:name`.
    case key
    /// In a link: this value.
    case value(Value)
    /// In a link that the page's script completes with the id the API returns: `{id}`.
    case placeholder
}

extension ConsolePage {
    /// The path below the mount, parameters filled in ("/pets/3f2c…"); "/" for the console's home.
    public var path: String {
        let parts = segments.map { segment -> String in
            switch segment {
            case .literal(let word): return word
            case .parameter(let name, .key): return ":" + name
            case .parameter(_, .placeholder): return "{id}"
            case .parameter(_, .value(let value)):
                return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The route's components: words as they are, parameters as `:name`.
    public var pathComponents: [PathComponent] {
        segments.map { segment in
            switch segment {
            case .literal(let word): return .constant(word)
            case .parameter(let name, _): return .parameter(name)
            }
        }
    }
}

extension ConsoleMount {
    /// A page's URL below this mount, with an optional query (names and values percent-encoded, in the order given;
    /// a nil value leaves its name out).
    public func url(_ page: some ConsolePage, query: KeyValuePairs<String, String?> = [:]) -> String {
        let base = path(page.path)
        let pairs = query.compactMap { name, value in value.map { (name, $0) } }
        guard !pairs.isEmpty else { return base }
        return base + "?" + pairs.map { "\(Self.queryEncoded($0))=\(Self.queryEncoded($1))" }.joined(separator: "&")
    }

    private static let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(["&", "=", "+", "?", "#"])

    private static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}

extension RoutesBuilder {
    /// Serves `page` for GET.
    @discardableResult
    public func get<Response: AsyncResponseEncodable>(
        _ page: some ConsolePage, use closure: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        get(page.pathComponents, use: closure)
    }

    /// Serves `page` for POST.
    @discardableResult
    public func post<Response: AsyncResponseEncodable>(
        _ page: some ConsolePage, use closure: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        post(page.pathComponents, use: closure)
    }
}
