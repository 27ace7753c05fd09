/// The S3 error document every `/storage/` error answers with.
public enum S3ErrorXML {
    public static func render(code: String, message: String, requestID: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(escape(code))</Code><Message>\(escape(message))</Message><RequestId>\(escape(requestID))</RequestId></Error>"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
