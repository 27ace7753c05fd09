/// Encodes `nil` as an explicit JSON `null`. Synthesized Codable omits nil optionals, but the contracts require
/// every nullable key to be present.
@propertyWrapper
public struct NullEncodable<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}
