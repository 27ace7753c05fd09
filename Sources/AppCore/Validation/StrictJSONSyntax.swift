import Foundation

/// RFC 8259 syntax check of a request body before it is decoded. Foundation's parsers accept trailing commas
/// (`{"a":1,}`), which the contract calls malformed; this scanner also bounds the nesting depth, so a deeply
/// nested body is refused with a 400 instead of exhausting the stack.
public enum StrictJSONSyntax {
    public static let maxDepth = 64

    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.index == bytes.count
    }

    public static func isValid<Bytes: ContiguousBytes>(_ data: Bytes) -> Bool {
        data.withUnsafeBytes { isValid($0) }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { index += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for i in 0..<count where bytes[index + i] != text.utf8Start[i] { return false }
            index += count
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard let c = current else { return false }
            switch c {
            case UInt8(ascii: "{"): return depth < StrictJSONSyntax.maxDepth && object(depth: depth + 1)
            case UInt8(ascii: "["): return depth < StrictJSONSyntax.maxDepth && array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Bool {
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard string() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "}")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "]")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func string() -> Bool {
            guard consume(UInt8(ascii: "\"")) else { return false }
            while let c = current {
                index += 1
                switch c {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let e = current else { return false }
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let h = current, isHex(h) else { return false }
                            index += 1
                        }
                    default: return false
                    }
                case 0x00...0x1F: return false
                default: continue
                }
            }
            return false
        }

        mutating func number() -> Bool {
            _ = consume(UInt8(ascii: "-"))
            guard let first = current, isDigit(first) else { return false }
            index += 1
            if first != UInt8(ascii: "0") { while let c = current, isDigit(c) { index += 1 } }
            if consume(UInt8(ascii: ".")) {
                guard let c = current, isDigit(c) else { return false }
                while let c = current, isDigit(c) { index += 1 }
            }
            if let e = current, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                index += 1
                if let s = current, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
                guard let c = current, isDigit(c) else { return false }
                while let c = current, isDigit(c) { index += 1 }
            }
            return true
        }

        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66) }
    }
}
