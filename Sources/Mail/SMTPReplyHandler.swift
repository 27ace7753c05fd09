import NIOCore

/// The inbound end of an SMTP connection: splits the byte stream into lines, assembles replies and hands each one
/// to the command waiting for it. Lives on its channel's event loop; every method is called there.
final class SMTPReplyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// A server that sends a line longer than this without a line end is not an SMTP server.
    static let maxLineBytes = 64 * 1024

    private var pending = ByteBuffer()
    private var parser = SMTPReply.Parser()
    private var received: [Result<SMTPReply, MailDeliveryError>] = []
    private var waiting: EventLoopPromise<SMTPReply>?
    private var closedError: MailDeliveryError?

    /// The next reply: one that already arrived (the greeting arrives before anyone asks), or the next to arrive.
    func nextReply(promise: EventLoopPromise<SMTPReply>) {
        if !received.isEmpty {
            promise.completeWith(received.removeFirst().mapError { $0 as any Error })
        } else if let closedError {
            promise.fail(closedError)
        } else {
            waiting = promise
        }
    }

    /// The waiting command ran out of time.
    func timeOut(_ promise: EventLoopPromise<SMTPReply>, step: String) {
        guard let waiting, waiting.futureResult === promise.futureResult else { return }
        self.waiting = nil
        waiting.fail(MailDeliveryError.connection("no reply to \(step) in time"))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        pending.writeBuffer(&incoming)
        while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - pending.readerIndex + 1
            guard let line = pending.readString(length: length) else { break }
            do {
                if let reply = try parser.add(String(line.dropLast())) { deliver(.success(reply)) }
            } catch let error as MailDeliveryError {
                fail(error, context: context)
                return
            } catch {
                fail(.protocolViolation("unreadable reply"), context: context)
                return
            }
        }
        pending.discardReadBytes()
        if pending.readableBytes > Self.maxLineBytes {
            fail(.protocolViolation("reply line too long"), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.connection(String(describing: type(of: error)) + ": \(error)"), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if closedError == nil { closedError = .connection("the server closed the connection") }
        if let waiting {
            self.waiting = nil
            waiting.fail(closedError!)
        }
        context.fireChannelInactive()
    }

    private func deliver(_ result: Result<SMTPReply, MailDeliveryError>) {
        if let waiting {
            self.waiting = nil
            waiting.completeWith(result.mapError { $0 as any Error })
        } else {
            received.append(result)
        }
    }

    private func fail(_ error: MailDeliveryError, context: ChannelHandlerContext) {
        if closedError == nil { closedError = error }
        deliver(.failure(error))
        context.close(promise: nil)
    }
}
