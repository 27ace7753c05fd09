/// A configuration problem found at start; the server prints it and exits with a non-zero code.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "configuration error: \(message)" }
}
