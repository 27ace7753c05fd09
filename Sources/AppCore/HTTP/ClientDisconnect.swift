import NIOCore
import NIOHTTP1

/// Errors that mean the client went away in the middle of its request body (closed or reset the connection): a
/// client abort, not a server fault (docs/transport-safety.md, "Client aborts").
public enum ClientDisconnect {
    public static let reason = "The client disconnected before the request body was complete"

    public static func isDisconnect(_ error: any Error) -> Bool {
        if let parser = error as? HTTPParserError, parser == .invalidEOFState { return true }
        if error is IOError { return true }
        if let channelError = error as? ChannelError {
            return channelError == .eof || channelError == .ioOnClosedChannel || channelError == .alreadyClosed
        }
        return false
    }
}
