import Testing

@testable import Mail

@Suite struct SMTPConfigurationTests {
    @Test func smtpMeansSTARTTLSOnPort587AndCredentialsArePercentDecoded() throws {
        let config = try SMTPConfiguration.parse("smtp://mailer%40clinic.test:p%3Ass@mail.clinic.test")
        #expect(config.security == .startTLS)
        #expect(config.port == 587)
        #expect(config.username == "mailer@clinic.test")
        #expect(config.password == "p:ss")
        #expect(!config.isLoopback)
    }

    @Test func smtpsMeansImplicitTLSOnPort465() throws {
        let config = try SMTPConfiguration.parse("smtps://u:p@mail.clinic.test")
        #expect(config.security == .implicitTLS)
        #expect(config.port == 465)
    }

    @Test func loopbackAddressesAreRecognised() throws {
        #expect(try SMTPConfiguration.parse("smtp://127.0.0.1:2525").isLoopback)
        #expect(try SMTPConfiguration.parse("smtp://localhost:2525").isLoopback)
        #expect(try SMTPConfiguration.parse("smtp://[::1]:2525").isLoopback)
        #expect(try !SMTPConfiguration.parse("smtp://10.0.0.1:2525").isLoopback)
    }

    @Test func otherSchemesAndMissingHostsAreRefusedWithoutEchoingTheURL() {
        for bad in ["http://u:secret@host", "smtp://", "not a url", "smtp://u:secret@host:99999"] {
            do {
                _ = try SMTPConfiguration.parse(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(!String(describing: error).contains("secret"))
            }
        }
    }

    @Test func theRedactedDescriptionHidesCredentials() throws {
        let config = try SMTPConfiguration.parse("smtps://user:secret@mail.clinic.test:465")
        #expect(config.redactedDescription == "smtps://***@mail.clinic.test:465")
    }
}
