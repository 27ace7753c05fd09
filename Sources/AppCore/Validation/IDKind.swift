/// The entity an id refers to; decides the contract's "Invalid ... ID format" message.
public struct IDKind: Sendable {
    public let invalidMessage: String
    public init(invalidMessage: String) { self.invalidMessage = invalidMessage }
}
