import Foundation

/// Golden JSON: every response of a fixed scenario, normalised and written as pretty-printed JSON under
/// `Tests/<Target>Tests/Golden/<profile>/`, one file per endpoint (method + path template), compared byte for byte
/// with what the code answers today (docs/golden-json.md).
///
/// `GOLDEN_RECORD=1` rewrites the files instead of comparing them.

// MARK: - A JSON value that keeps what Foundation's parsers lose

/// A parsed JSON document that keeps each number's literal text (`25` and `25.0` differ on the wire) and each
/// object's key order (kept for completeness; the server's encoder does not have a stable order, see the docs).
public indirect enum GoldenValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([GoldenValue])
    case object([(String, GoldenValue)])

    public static func == (lhs: GoldenValue, rhs: GoldenValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

public struct GoldenParseError: Error, CustomStringConvertible {
    public let description: String
}

/// A strict RFC 8259 parser (no trailing commas, no comments, one top-level value).
public enum GoldenJSONParser {
    public static func parse(_ data: Data) throws -> GoldenValue {
        var parser = Parser(bytes: Array(data))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("trailing characters") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func error(_ message: String) -> GoldenParseError {
            GoldenParseError(description: "invalid JSON at byte \(index): \(message)")
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws {
            let expected = Array(literal.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("expected \(literal)")
            }
            index += expected.count
        }

        mutating func value() throws -> GoldenValue {
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var items: [GoldenValue] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipWhitespace()
                    items.append(try value())
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw error("expected , or ]")
                }
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, GoldenValue)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipWhitespace()
                    try expect(":")
                    skipWhitespace()
                    let member = try value()
                    if members.contains(where: { $0.0 == key }) { throw error("duplicate key \(key)") }
                    members.append((key, member))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                    throw error("expected , or }")
                }
            default:
                return .number(try number())
            }
        }

        mutating func number() throws -> String {
            let start = index
            let allowed = Set("+-0123456789.eE".utf8)
            while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard !text.isEmpty,
                text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
            else { throw error("bad number \(text)") }
            return text
        }

        mutating func string() throws -> String {
            index += 1  // opening quote
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty { scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw = [] }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    flush()
                    return String(scalars)
                }
                if byte == UInt8(ascii: "\\") {
                    flush()
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                        scalars.append(scalar)
                    default: throw error("bad escape")
                    }
                    continue
                }
                if byte < 0x20 { throw error("control character in string") }
                raw.append(byte)
                index += 1
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw error("bad \\u escape") }
            index += 4
            return code
        }
    }
}

// MARK: - Normalisation

/// Turns values generated at run time into shape tokens and leaves everything else verbatim (docs/golden-json.md).
public struct GoldenNormaliser: Sendable {
    /// Run-time ids the scenario knows by name: `<uuid:name>` (so a golden also pins which object an id points at).
    public var labels: [String: String]
    /// Ids the dataset fixes (demo ids, ids derived from the fixed day): kept verbatim.
    public var fixedIDs: Set<String>

    public init(labels: [String: String] = [:], fixedIDs: Set<String> = []) {
        self.labels = labels
        self.fixedIDs = fixedIDs
    }

    static let uuidPattern = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    static let dateTimePattern = #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?"#

    public static let datasetInstantKeys: Set<String> = ["start_at", "end_at"]

    /// Keys whose datetimes are instants recorded by the server (row timestamps, approvals, leases, expiries):
    /// `…_at` and a few names without the suffix.
    public static func isInstantKey(_ key: String?) -> Bool {
        guard let key else { return false }
        // Instants the dataset sets (an availability window's bounds): kept verbatim.
        if datasetInstantKeys.contains(key) { return false }
        return key.hasSuffix("_at") || key.hasSuffix("At") || ["time", "timestamp", "last_seen", "expires", "expiration"].contains(key)
    }

    /// Lists of ids the contract sorts by id ascending (`practice_ids`): ids made at run time are random, so their
    /// place in the list is too; the golden holds the normalised entries sorted, pinning the set, not the order.
    public static let idSortedKeys: Set<String> = ["practice_ids"]

    public func normalise(_ value: GoldenValue, key: String? = nil) -> GoldenValue {
        switch value {
        case .string(let text): return .string(normalise(string: text, key: key))
        case .array(let items) where key.map(Self.idSortedKeys.contains) == true:
            let normalised = items.map { normalise($0, key: key) }
            return .array(normalised.sorted { GoldenPrinter.compact($0) < GoldenPrinter.compact($1) })
        case .array(let items): return .array(items.map { normalise($0, key: key) })
        case .object(let members): return .object(members.map { ($0.0, normalise($0.1, key: $0.0)) })
        default: return value
        }
    }

    /// The shape token of one ISO-8601 datetime: `<datetime>` plus `:fractional<n>` and the zone form.
    public static func dateTimeToken(_ text: String) -> String {
        var parts: [String] = []
        if let dot = text.firstIndex(of: ".") {
            let digits = text[text.index(after: dot)...].prefix(while: \.isNumber)
            parts.append("fractional\(digits.count)")
        }
        if text.hasSuffix("Z") {
            parts.append("Z")
        } else if text.range(of: #"[+-][0-9]{2}:[0-9]{2}$"#, options: .regularExpression) != nil {
            parts.append("offset")
        } else if text.range(of: #"[+-][0-9]{4}$"#, options: .regularExpression) != nil {
            parts.append("offset-compact")
        } else {
            parts.append("local")
        }
        return "<datetime:" + parts.joined(separator: "-") + ">"
    }

    public func normalise(string text: String, key: String?) -> String {
        if text.range(of: "^" + Self.uuidPattern + "$", options: .regularExpression) != nil {
            return uuidToken(text)
        }
        if Self.isInstantKey(key), text.range(of: "^" + Self.dateTimePattern + "$", options: .regularExpression) != nil {
            return Self.dateTimeToken(text)
        }
        // Base64 of a JSON document (an upload policy): the document, normalised, so its conditions stay pinned.
        if text.count >= 40, text.range(of: "^[A-Za-z0-9+/]+=*$", options: .regularExpression) != nil,
            let data = Data(base64Encoded: text), let inner = try? GoldenJSONParser.parse(data)
        {
            return "<base64-json:" + GoldenPrinter.compact(normalise(inner)) + ">"
        }
        var out = text
        // AutoDetail API keys and their shown prefixes: `org_<unix seconds of the mint>_<random hex>`.
        out = Self.replace(#"(?<![0-9a-zA-Z])(org|ios)_[0-9]{10}_[0-9a-f]+(?![0-9a-zA-Z])"#, in: out) { match in
            let hex = match.count - 15
            return match.prefix(4) + "<unix>_" + (hex >= 24 ? "<hex\(hex)>" : "<hex\(hex)>")
        }
        // SigV4 request times (`X-Amz-Date`, `x-amz-date`): the server clock at the request.
        out = Self.replace(#"(?<![0-9])[0-9]{8}T[0-9]{6}Z"#, in: out) { _ in "<amz-datetime>" }
        // JSON Web Tokens.
        out = Self.replace(#"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"#, in: out) { _ in "<jwt>" }
        // Ids inside longer text (storage keys, URLs, messages).
        out = Self.replace(Self.uuidPattern, in: out) { uuidToken($0) }
        // Signatures, hashes, random key material: long lowercase hex runs.
        out = Self.replace("(?<![0-9a-zA-Z])[0-9a-f]{24,}(?![0-9a-zA-Z])", in: out) { "<hex\($0.count)>" }
        // Datetimes inside text of instant keys.
        if Self.isInstantKey(key) { out = Self.replace(Self.dateTimePattern, in: out) { Self.dateTimeToken($0) } }
        return out
    }

    func uuidToken(_ text: String) -> String {
        let lower = text.lowercased()
        let cased = text == lower ? "uuid" : (text == text.uppercased() ? "UUID" : "Uuid-mixed-case")
        if fixedIDs.contains(lower) { return text }
        if let label = labels[lower] { return "<\(cased):\(label)>" }
        return "<\(cased)>"
    }

    static func replace(_ pattern: String, in text: String, with transform: (String) -> String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let ns = text as NSString
        var result = ""
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            result += ns.substring(with: NSRange(location: last, length: match.range.location - last))
            result += transform(ns.substring(with: match.range))
            last = match.range.location + match.range.length
        }
        result += ns.substring(from: last)
        return result
    }
}

// MARK: - Writing

public enum GoldenPrinter {
    /// Pretty-printed, two spaces, keys sorted (the server's key order is not stable between processes), numbers as
    /// their literal text, strings escaped as Foundation's encoder does (slashes unescaped).
    public static func print(_ value: GoldenValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return quote(s)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + print($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let sorted = members.sorted { $0.0 < $1.0 }
            return "{\n" + sorted.map { inner + quote($0.0) + ": " + print($0.1, indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "}"
        }
    }

    /// One line, keys sorted.
    public static func compact(_ value: GoldenValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map(compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.0 < $1.0 }.map { quote($0.0) + ":" + compact($0.1) }.joined(separator: ",") + "}"
        default: return print(value)
        }
    }

    public static func quote(_ s: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(s)) ?? Data("\"?\"".utf8), as: UTF8.self)
    }
}

// MARK: - The book of one scenario

/// Collects the exchanges of one scenario run (one client profile), then records or compares one file per endpoint.
public final class GoldenBook: @unchecked Sendable {
    public struct Operation: Hashable, Comparable, Sendable, CustomStringConvertible {
        public let method: String
        public let path: String
        public init(method: String, path: String) {
            self.method = method
            self.path = path
        }
        public var description: String { "\(method) \(path)" }
        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.path, lhs.method) < (rhs.path, rhs.method) }

        /// `GET /api/v1/pets/{pet_id}` → `GET__api_v1_pets_{pet_id}.json`.
        public var fileName: String {
            let path = self.path.replacingOccurrences(of: "/", with: "_")
            return "\(method)_\(path).json"
        }
    }

    struct Exchange: Sendable {
        let label: String
        let request: String
        let status: Int
        let contentType: String?
        let body: Data
        let bodyNote: String?
    }

    private struct State {
        var exchanges: [(Operation, Exchange)] = []
        var normaliser: GoldenNormaliser
    }

    public let directory: URL
    private let lock = NSLock()
    private var _state: State

    /// `directory`: `Tests/<Target>Tests/Golden/<profile>`.
    public init(directory: URL, normaliser: GoldenNormaliser = .init()) {
        self.directory = directory
        _state = State(normaliser: normaliser)
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&_state)
    }

    public static var recording: Bool { ProcessInfo.processInfo.environment["GOLDEN_RECORD"] == "1" }

    /// Names a run-time id (`<uuid:name>` in the goldens).
    public func label(_ id: String?, _ name: String) {
        guard let id, !id.isEmpty else { return }
        withState { $0.normaliser.labels[id.lowercased()] = name }
    }

    public func fix(_ ids: [String]) {
        withState { $0.normaliser.fixedIDs.formUnion(ids.map { $0.lowercased() }) }
    }

    /// Adds one exchange. `bodyNote`: for bodies that are not pinned here (not JSON, or compared elsewhere); the
    /// golden then holds the note instead of the body.
    public func add(
        _ operation: Operation, label: String, request: String, status: Int, contentType: String?, body: Data,
        bodyNote: String? = nil
    ) {
        withState {
            $0.exchanges.append((operation, Exchange(
                label: label, request: request, status: status, contentType: contentType, body: body, bodyNote: bodyNote)))
        }
    }

    /// A Content-Type with its parameters sorted: the server builds some from a dictionary (`/metrics`), whose
    /// order changes from process to process, and parameter order carries no meaning in HTTP.
    public static func mediaType(_ value: String) -> String {
        let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parts.first else { return value }
        return ([type] + parts.dropFirst().sorted()).joined(separator: "; ")
    }

    public var operations: Set<Operation> { Set(withState { $0.exchanges.map { $0.0 } }) }

    /// The golden text of each file, from the exchanges added so far.
    public func render() throws -> [String: String] {
        let (exchanges, normaliser) = withState { ($0.exchanges, $0.normaliser) }
        var files: [String: [GoldenValue]] = [:]
        var order: [String] = []
        for (operation, exchange) in exchanges {
            var members: [(String, GoldenValue)] = [
                ("case", .string(exchange.label)),
                ("request", .string(normaliser.normalise(string: exchange.request, key: nil))),
                ("status", .number(String(exchange.status))),
                ("content_type", exchange.contentType.map { .string(Self.mediaType($0)) } ?? .null),
            ]
            if let note = exchange.bodyNote {
                members.append(("body_not_pinned", .string(note)))
            } else if exchange.body.isEmpty {
                members.append(("body", .string("<empty>")))
            } else if !(exchange.contentType ?? "").contains("json") {
                // XML errors of the object store, plain text: the text itself, normalised like a JSON string.
                let text = String(decoding: exchange.body, as: UTF8.self)
                let isText = ["xml", "text/"].contains { (exchange.contentType ?? "").contains($0) }
                members.append(("body_text", .string(isText
                    ? normaliser.normalise(string: text, key: nil) : "<\(exchange.body.count) bytes>")))
            } else {
                do {
                    members.append(("body", normaliser.normalise(try GoldenJSONParser.parse(exchange.body))))
                } catch {
                    throw GoldenParseError(description: "\(operation) [\(exchange.label)]: \(error): "
                        + String(decoding: exchange.body.prefix(300), as: UTF8.self))
                }
            }
            let name = operation.fileName
            if files[name] == nil { order.append(name) }
            files[name, default: []].append(.object(members))
        }
        var rendered: [String: String] = [:]
        for name in order {
            // One object per exchange, in the order the scenario made them; `case`/`request`/`status` first for reading.
            let items = files[name]!.map { item -> String in
                guard case .object(let members) = item else { return GoldenPrinter.print(item) }
                let head = members.prefix(4).map { "    " + GoldenPrinter.quote($0.0) + ": " + GoldenPrinter.print($0.1, indent: "    ") }
                let rest = members.dropFirst(4).map { "    " + GoldenPrinter.quote($0.0) + ": " + GoldenPrinter.print($0.1, indent: "    ") }
                return "  {\n" + (head + rest).joined(separator: ",\n") + "\n  }"
            }
            rendered[name] = "[\n" + items.joined(separator: ",\n") + "\n]\n"
        }
        return rendered
    }

    /// Records (`GOLDEN_RECORD=1`) or compares every file; returns one readable problem per mismatching, missing or
    /// stale file (empty when everything matches).
    public func finish() throws -> [String] {
        let rendered = try render()
        let fm = FileManager.default
        let existing = Set((try? fm.contentsOfDirectory(atPath: directory.path))?.filter { $0.hasSuffix(".json") } ?? [])
        if Self.recording {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in existing.subtracting(rendered.keys) { try fm.removeItem(at: directory.appendingPathComponent(name)) }
            for (name, text) in rendered {
                try Data(text.utf8).write(to: directory.appendingPathComponent(name))
            }
            return []
        }
        var problems: [String] = []
        for name in rendered.keys.sorted() {
            let url = directory.appendingPathComponent(name)
            guard let data = fm.contents(atPath: url.path) else {
                problems.append("missing golden \(url.path) (record with GOLDEN_RECORD=1 and review the new file)")
                continue
            }
            let expected = String(decoding: data, as: UTF8.self)
            if expected != rendered[name]! {
                problems.append("golden mismatch \(url.path):\n" + Self.diff(expected: expected, actual: rendered[name]!))
            }
        }
        for name in existing.subtracting(rendered.keys).sorted() {
            problems.append("stale golden \(directory.appendingPathComponent(name).path): no request of the scenario "
                + "produced it (remove it or record with GOLDEN_RECORD=1)")
        }
        return problems
    }

    /// A unified diff (`-` golden, `+` now) of the lines that differ, with two lines of context.
    public static func diff(expected: String, actual: String) -> String {
        let a = expected.components(separatedBy: "\n")
        let b = actual.components(separatedBy: "\n")
        // LCS table (files are small).
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [(Character, String)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append((" ", a[i])); i += 1; j += 1
            } else if j < b.count, i == a.count || table[i][j + 1] >= table[i + 1][j] {
                lines.append(("+", b[j])); j += 1
            } else {
                lines.append(("-", a[i])); i += 1
            }
        }
        var keep = Set<Int>()
        for (index, line) in lines.enumerated() where line.0 != " " {
            for k in max(0, index - 2)...min(lines.count - 1, index + 2) { keep.insert(k) }
        }
        var out: [String] = ["--- golden", "+++ now"]
        var previous = -1
        for index in keep.sorted() {
            if previous >= 0, index != previous + 1 { out.append("@@") }
            out.append("\(lines[index].0)\(lines[index].1)")
            previous = index
        }
        return out.joined(separator: "\n")
    }
}

extension GoldenBook {
    /// `Tests/<Target>Tests/Golden/<profile>` of the test file calling it.
    public static func directory(profile: String, filePath: String = #filePath) -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        // Walk up to the test target's folder (the one directly under Tests/).
        while url.deletingLastPathComponent().lastPathComponent != "Tests", url.path != "/" {
            url = url.deletingLastPathComponent()
        }
        return url.appendingPathComponent("Golden").appendingPathComponent(profile)
    }
}
