import Testing

@testable import Mail

@Suite struct SMTPReplyParserTests {
    @Test func aMultiLineReplyEndsAtTheLineWithASpace() throws {
        var parser = SMTPReply.Parser()
        #expect(try parser.add("250-mail.example.org greets you\r") == nil)
        #expect(try parser.add("250-STARTTLS") == nil)
        let reply = try parser.add("250 AUTH PLAIN LOGIN")
        #expect(reply == SMTPReply(code: 250, lines: ["mail.example.org greets you", "STARTTLS", "AUTH PLAIN LOGIN"]))
    }

    @Test func theParserStartsAfreshAfterAReply() throws {
        var parser = SMTPReply.Parser()
        _ = try parser.add("220 ready")
        #expect(try parser.add("354 go ahead")?.code == 354)
    }

    @Test func aBareCodeIsAReply() throws {
        var parser = SMTPReply.Parser()
        #expect(try parser.add("250") == SMTPReply(code: 250, lines: [""]))
    }

    @Test func garbageIsAProtocolViolation() {
        var parser = SMTPReply.Parser()
        #expect(throws: MailDeliveryError.self) { try parser.add("hello there") }
        var mixed = SMTPReply.Parser()
        _ = try? mixed.add("250-first")
        #expect(throws: MailDeliveryError.self) { try mixed.add("251 second") }
    }

    @Test func fourHundredsAreTransientAndFiveHundredsPermanentWithTheServersReason() {
        let busy = MailDeliveryError.classify(SMTPReply(code: 451, lines: ["try later"]), during: "RCPT TO")
        #expect(busy == .transient(code: 451, reason: "RCPT TO: 451 try later"))
        #expect(!busy.isPermanent)
        let refused = MailDeliveryError.classify(SMTPReply(code: 550, lines: ["no such user"]), during: "RCPT TO")
        #expect(refused == .permanent(code: 550, reason: "RCPT TO: 550 no such user"))
        #expect(refused.isPermanent)
        #expect(!MailDeliveryError.classify(SMTPReply(code: 250, lines: ["ok"]), during: "DATA").isPermanent)
    }
}
