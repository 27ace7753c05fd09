import Foundation

extension UUID {
    /// Parses only the canonical 8-4-4-4-12 form (hex in any case). Foundation's initializer would do too,
    /// but the contract rejects braces and `urn:uuid:` prefixes explicitly, so the shape is checked first.
    public init?(canonical string: String) {
        let utf8 = Array(string.utf8)
        guard utf8.count == 36 else { return nil }
        for (index, byte) in utf8.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
            default:
                let isHex = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
                guard isHex else { return nil }
            }
        }
        self.init(uuidString: string)
    }

    /// The lowercase form every response uses.
    public var lowercased: String { uuidString.lowercased() }
}
