import AppCore
import Foundation
import Testing

/// The YAML → JSON conversion behind `/openapi.json` and `/openapi/autodetail.json`: YAML's implicit types must not
/// change what the document says (a quoted `'200'` stays a string key, an example date stays text).
@Suite("OpenAPI YAML to JSON")
struct YAMLOpenAPIDocumentTests {
    @Test("keys keep their order and scalars their JSON types")
    func scalarsAndOrder() throws {
        let yaml = """
            openapi: 3.1.0
            paths: {}
            zeta: 1
            alpha:
              - true
              - null
              - 0.5
              - '200'
              - "yes"
              - 2025-01-15T10:00:00Z
              - "tab\\there"
            text: |
              two
              lines
            last: x
            """
        let json = try String(decoding: YAMLOpenAPIDocument(yaml: yaml).json, as: UTF8.self)
        #expect(json == #"{"openapi":"3.1.0","paths":{},"zeta":1,"alpha":[true,null,0.5,"200","yes","2025-01-15T10:00:00Z","tab\there"],"text":"two\nlines\n","last":"x"}"#)
    }

    @Test("quotes, backslashes and control characters are escaped")
    func escaping() throws {
        let yaml = #"pattern: '^[A-Za-z0-9._-]{1,128}$'"# + "\n" + #"detail: 'say "hi" \ back'"#
        let json = try YAMLOpenAPIDocument(yaml: yaml).json
        let object = try JSONSerialization.jsonObject(with: json) as? [String: String]
        #expect(object?["pattern"] == "^[A-Za-z0-9._-]{1,128}$")
        #expect(object?["detail"] == #"say "hi" \ back"#)
    }

    @Test("an empty document and a non-scalar key are refused")
    func refusesWhatJSONCannotSay() {
        #expect(throws: YAMLOpenAPIDocumentError.self) { try YAMLOpenAPIDocument(yaml: "") }
        #expect(throws: YAMLOpenAPIDocumentError.self) { try YAMLOpenAPIDocument(yaml: "? [a]\n: 1\n") }
    }
}
