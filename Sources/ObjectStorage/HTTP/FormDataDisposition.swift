/// The `name` and `filename` of a form part's `Content-Disposition: form-data; name="…"; filename="…"`.
struct FormDataDisposition: Equatable {
    var name: String?
    var filename: String?

    static func parse(_ value: String) -> FormDataDisposition {
        var result = FormDataDisposition()
        var chars = Substring(value)
        // Skip the disposition type ("form-data").
        guard let firstSemicolon = chars.firstIndex(of: ";") else { return result }
        chars = chars[chars.index(after: firstSemicolon)...]
        while !chars.isEmpty {
            chars = chars.drop(while: { $0 == " " || $0 == "\t" || $0 == ";" })
            guard let equals = chars.firstIndex(of: "=") else { break }
            let key = chars[..<equals].trimmingSpaces.lowercased()
            chars = chars[chars.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            var parameter = ""
            if chars.first == "\"" {
                // Quoted string; a backslash escapes the next character.
                chars = chars.dropFirst()
                var escaped = false
                while let c = chars.first {
                    chars = chars.dropFirst()
                    if escaped { parameter.append(c); escaped = false; continue }
                    if c == "\\" { escaped = true; continue }
                    if c == "\"" { break }
                    parameter.append(c)
                }
                chars = chars.drop(while: { $0 != ";" })
            } else {
                let end = chars.firstIndex(of: ";") ?? chars.endIndex
                parameter = String(chars[..<end]).trimmingSpaces
                chars = chars[end...]
            }
            if key == "name", result.name == nil { result.name = parameter }
            if key == "filename", result.filename == nil { result.filename = parameter }
        }
        return result
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
