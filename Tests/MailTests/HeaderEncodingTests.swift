import Foundation
import Testing

@testable import Mail

@Suite struct HeaderEncodingTests {
    @Test func asciiSubjectsStayReadable() {
        #expect(HeaderEncoding.unstructured("Your appointment on Monday") == "Your appointment on Monday")
    }

    @Test func nonASCIISubjectsBecomeEncodedWordsThatDecodeBack() throws {
        let subject = "Termin für Bello und Müsli – Bestätigung 🐶"
        let encoded = HeaderEncoding.unstructured(subject)
        #expect(encoded.hasPrefix("=?UTF-8?B?"))
        let bytes = try encoded.components(separatedBy: "\r\n ").flatMap { word -> [UInt8] in
            let base64 = String(word.dropFirst("=?UTF-8?B?".count).dropLast(2))
            let data = try #require(Data(base64Encoded: base64))
            return Array(data)
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        #expect(decoded == subject)
    }

    @Test func noEncodedWordIsLongerThan75CharactersNorSplitsACharacter() {
        let long = String(repeating: "Ünïcödé 🐱 ", count: 20)
        let words = HeaderEncoding.encodedWords(long)
        #expect(words.count > 1)
        for word in words {
            #expect(word.count <= 75)
            let base64 = String(word.dropFirst(10).dropLast(2))
            // Each word alone is valid UTF-8: no character was cut in two.
            #expect(Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) } != nil)
        }
    }

    @Test func displayNamesWithSpecialsAreQuotedAndNonASCIINamesEncoded() {
        #expect(MailAddress("a@b.org", displayName: "Smith, Jane").headerValue == "\"Smith, Jane\" <a@b.org>")
        #expect(MailAddress("a@b.org", displayName: "Jane Smith").headerValue == "Jane Smith <a@b.org>")
        #expect(MailAddress("a@b.org", displayName: "Zoë").headerValue == "=?UTF-8?B?Wm/Dqw==?= <a@b.org>")
        #expect(MailAddress("a@b.org").headerValue == "a@b.org")
    }

    @Test func lineBreaksCannotInjectHeaders() {
        #expect(!HeaderEncoding.unstructured("Hi\r\nBcc: x@y.org").contains("\n"))
    }
}
