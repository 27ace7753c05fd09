import ClientCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ClientCore: URLs, error bodies and transport errors as both kits read them")
struct SharedPartsTests {
    @Test("URLs: one slash between root and path, strictly percent-encoded query")
    func urlText() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080//"))
        #expect(APIRequestBuilding.urlText(base: base, path: "api/x") == "http://127.0.0.1:8080/api/x")
        #expect(
            APIRequestBuilding.urlText(base: base, path: "/api/x", query: [("phone", "+7 916"), ("q", "a&b=c")])
                == "http://127.0.0.1:8080/api/x?phone=%2B7%20916&q=a%26b%3Dc")
        #expect(PercentEncoding.encode("a/b") == "a%2Fb")
    }

    @Test("error message: the named JSON member, else the body's text, else the status phrase")
    func errorMessage() {
        #expect(ErrorResponses.message(in: Data(#"{"detail":"Pet not found"}"#.utf8), field: "detail", status: 404) == "Pet not found")
        #expect(ErrorResponses.message(in: Data(#"{"error":"x"}"#.utf8), field: "detail", status: 404) == #"{"error":"x"}"#)
        #expect(ErrorResponses.message(in: Data(), field: "error", status: 404) == HTTPURLResponse.localizedString(forStatusCode: 404))
    }

    @Test("S3 error bodies: Code and Message with entities decoded; missing parts fall back")
    func storageError() {
        let body = Data("<Error><Code>AccessDenied</Code><Message>no &amp; &lt;never&gt;</Message></Error>".utf8)
        let parsed = ErrorResponses.storageError(status: 403, body: body)
        #expect(parsed.code == "AccessDenied" && parsed.message == "no & <never>")
        let plain = ErrorResponses.storageError(status: 500, body: Data("oops".utf8))
        #expect(plain.code == HTTPURLResponse.localizedString(forStatusCode: 500) && plain.message == "oops")
    }

    @Test("transport errors: cancellation in any form is .cancelled; URL errors keep their code")
    func transportFailure() {
        guard case .cancelled = TransportFailure(CancellationError()) else { Issue.record("CancellationError"); return }
        guard case .cancelled = TransportFailure(URLError(.cancelled)) else { Issue.record("URLError.cancelled"); return }
        guard case let .network(code, _) = TransportFailure(URLError(.cannotConnectToHost)) else {
            Issue.record("URLError")
            return
        }
        #expect(code == .cannotConnectToHost)
        guard case .other = TransportFailure(CocoaError(.fileNoSuchFile)) else { Issue.record("other"); return }
    }

    @Test("the shared wording of failures and their HTTP status")
    func commonFailure() {
        #expect(CommonFailure.unauthorized("Not logged in").description == "Unauthorized: Not logged in")
        #expect(CommonFailure.rateLimited(retryAfter: 2.2, noun: "requests").description == "Too many requests; try again in 3 seconds.")
        #expect(CommonFailure.refused(status: 409, "Slot taken").httpStatus == 409)
        #expect(CommonFailure.transport("refused").httpStatus == nil)
    }
}
