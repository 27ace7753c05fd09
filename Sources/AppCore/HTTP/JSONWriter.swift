import Foundation

/// JSON written straight into bytes, for the few responses whose Foundation encoding is most of their cost (the
/// availability grid: a few hundred objects, encoded through `JSONEncoder`'s value tree on every request). The
/// output is what `JSONCoding.encoder` writes for the same value, key for key and value for value (its key order is
/// not fixed: Foundation's keyed container is a hash table, so any order is already what clients accept); members
/// come in the order they are written. `JSONWriterTests` compare the two for every type that conforms.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// Whether the container just opened has no member yet (no comma before the next one).
    private var atFirstMember = true

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// `{ … }`, with `body` writing its members through `key(_:)` and a value each.
    public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        atFirstMember = true
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
        atFirstMember = false
    }

    /// `[ … ]`, one value per element written by `element`.
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) throws -> Void
    ) rethrows {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            try element(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
        atFirstMember = false
    }

    /// A member's name (a literal the code owns, so it needs no escaping); its value follows.
    public mutating func key(_ name: StaticString) {
        if !atFirstMember { bytes.append(UInt8(ascii: ",")) }
        atFirstMember = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case ..<0x20:
                let hex = Self.hexDigits
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    public mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    public mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// An instant as the wire writes it (`WireTime.format`, the encoder's date strategy).
    public mutating func date(_ value: Date) { string(WireTime.format(value)) }

    // A member and its value in one call.
    public mutating func member(_ name: StaticString, _ value: String?) { key(name); string(value) }
    public mutating func member(_ name: StaticString, _ value: Int) { key(name); int(value) }
    public mutating func member(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func member(_ name: StaticString, _ value: Date) { key(name); date(value) }
}

/// A response type that writes its own JSON (`JSONResponse.make` then skips `JSONEncoder`). It stays `Encodable`,
/// so the tests can compare both encodings.
public protocol JSONWritable: Encodable {
    func write(to json: inout JSONWriter)
}

extension JSONWritable {
    /// The bytes `write(to:)` produces.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}
