import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends one message per connection over SMTP (RFC 5321): EHLO, STARTTLS or implicit TLS, AUTH PLAIN/LOGIN,
/// MAIL FROM, RCPT TO, DATA, QUIT. Every wait has a time limit. Replies decide the outcome: 4yz → transient,
/// 5yz → permanent (see `MailDeliveryError`). Credentials are never part of an error or a log line.
public struct SMTPClient: Sendable {
    public let configuration: SMTPConfiguration
    let group: any EventLoopGroup

    public init(configuration: SMTPConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.group = group
    }

    /// Delivers `data` (a rendered message) from `sender` to `recipients`; returns the server's final reply text.
    @discardableResult
    public func send(_ data: String, from sender: String, to recipients: [String]) async throws -> String {
        let tlsContext = try makeTLSContext()
        let session = try await connect(tlsContext: configuration.security == .implicitTLS ? tlsContext : nil)
        do {
            let result = try await converse(session, tlsContext: tlsContext, data: data, sender: sender, recipients: recipients)
            // The message is accepted: the caller records it now, while QUIT goes out. Waiting for QUIT's reply first
            // would leave an accepted message unrecorded for up to a command timeout, and a worker killed in that
            // window would send it again.
            Task {
                _ = try? await session.command("QUIT\r\n", step: "QUIT")
                try? await session.channel.close()
            }
            return result
        } catch {
            try? await session.channel.close()
            throw error
        }
    }

    private func converse(
        _ session: Session, tlsContext: NIOSSLContext, data: String, sender: String, recipients: [String]
    ) async throws -> String {
        try await session.expect(220, reply: try await session.command(nil, step: "greeting"), step: "greeting")
        var capabilities = try await ehlo(session)
        if configuration.security == .startTLS {
            if capabilities.contains("STARTTLS") {
                try await session.expect(220, reply: try await session.command("STARTTLS\r\n", step: "STARTTLS"), step: "STARTTLS")
                try await session.startTLS(context: tlsContext, hostname: sniHostname)
                capabilities = try await ehlo(session)
            } else if !configuration.isLoopback {
                throw MailDeliveryError.refused("the SMTP server does not offer STARTTLS; plain SMTP is allowed only to loopback addresses")
            }
        }
        if let username = configuration.username {
            try await authenticate(session, username: username, password: configuration.password ?? "", capabilities: capabilities)
        }
        for address in [sender] + recipients where !MailAddress.isPlausible(address) {
            throw MailDeliveryError.refused("not a usable email address")
        }
        try await session.expect(250, reply: try await session.command("MAIL FROM:<\(sender)>\r\n", step: "MAIL FROM"), step: "MAIL FROM")
        for recipient in recipients {
            let reply = try await session.command("RCPT TO:<\(recipient)>\r\n", step: "RCPT TO")
            guard reply.code == 250 || reply.code == 251 else { throw MailDeliveryError.classify(reply, during: "RCPT TO") }
        }
        try await session.expect(354, reply: try await session.command("DATA\r\n", step: "DATA"), step: "DATA")
        // The end of data may take the server a while (content checks); allow it more time than a command.
        let final = try await session.command(SMTPData.encode(data), step: "end of data", timeout: configuration.commandTimeout * 4)
        try await session.expect(250, reply: final, step: "end of data")
        return "\(final.code) \(final.text)"
    }

    /// EHLO; the keywords the server announced (first word of each line after the first, upper-cased).
    private func ehlo(_ session: Session) async throws -> Set<String> {
        let reply = try await session.command("EHLO \(configuration.heloName)\r\n", step: "EHLO")
        try await session.expect(250, reply: reply, step: "EHLO")
        var keywords = Set<String>()
        for line in reply.lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            keywords.insert(first)
            if first == "AUTH" { for mechanism in words.dropFirst() { keywords.insert("AUTH=\(mechanism)") } }
        }
        return keywords
    }

    private func authenticate(_ session: Session, username: String, password: String, capabilities: Set<String>) async throws {
        if capabilities.contains("AUTH=PLAIN") || !capabilities.contains("AUTH=LOGIN") {
            let token = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
            let reply = try await session.command("AUTH PLAIN \(token)\r\n", step: "AUTH PLAIN")
            try await session.expect(235, reply: reply, step: "AUTH PLAIN")
        } else {
            try await session.expect(334, reply: try await session.command("AUTH LOGIN\r\n", step: "AUTH LOGIN"), step: "AUTH LOGIN")
            let user = Data(username.utf8).base64EncodedString()
            try await session.expect(334, reply: try await session.command("\(user)\r\n", step: "AUTH LOGIN"), step: "AUTH LOGIN")
            let pass = Data(password.utf8).base64EncodedString()
            try await session.expect(235, reply: try await session.command("\(pass)\r\n", step: "AUTH LOGIN"), step: "AUTH LOGIN")
        }
    }

    /// System roots, or only `SMTP_TLS_CA_FILE`'s certificates; full verification either way.
    private func makeTLSContext() throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let file = configuration.trustedCAFile { tls.trustRoots = .file(file) }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw MailDeliveryError.refused("the TLS configuration cannot be used (SMTP_TLS_CA_FILE?)")
        }
    }

    /// SNI takes a name, not an address; for an address NIOSSL checks the certificate against the peer's IP.
    private var sniHostname: String? {
        let host = configuration.host
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return isAddress ? nil : host
    }

    private func connect(tlsContext: NIOSSLContext?) async throws -> Session {
        let hostname = sniHostname
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.milliseconds(Int64(configuration.connectTimeout * 1000)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tlsContext {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tlsContext, serverHostname: hostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler())
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw MailDeliveryError.connection("cannot connect to the SMTP server: \(type(of: error))")
        }
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self), eventLoop: channel.eventLoop)
        }.get()
        return Session(channel: channel, handler: handler, timeout: configuration.commandTimeout)
    }

    /// One connection: write a command, wait for its reply.
    struct Session: Sendable {
        let channel: any Channel
        let handler: NIOLoopBound<SMTPReplyHandler>
        let timeout: Double

        func command(_ line: String?, step: String, timeout: Double? = nil) async throws -> SMTPReply {
            let channel = self.channel
            let handler = self.handler
            let seconds = timeout ?? self.timeout
            let loop = channel.eventLoop
            let future = loop.flatSubmit { () -> EventLoopFuture<SMTPReply> in
                let promise = loop.makePromise(of: SMTPReply.self)
                handler.value.nextReply(promise: promise)
                if let line { channel.writeAndFlush(channel.allocator.buffer(string: line), promise: nil) }
                let timer = loop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                    handler.value.timeOut(promise, step: step)
                }
                promise.futureResult.whenComplete { _ in timer.cancel() }
                return promise.futureResult
            }
            do {
                return try await future.get()
            } catch let error as MailDeliveryError {
                throw error
            } catch {
                throw MailDeliveryError.connection("\(step): \(type(of: error))")
            }
        }

        func expect(_ code: Int, reply: SMTPReply, step: String) throws {
            guard reply.code == code else { throw MailDeliveryError.classify(reply, during: step) }
        }

        func startTLS(context: NIOSSLContext, hostname: String?) async throws {
            let channel = self.channel
            do {
                try await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: hostname), position: .first)
                }.get()
            } catch {
                throw MailDeliveryError.connection("STARTTLS: \(type(of: error))")
            }
        }
    }
}
