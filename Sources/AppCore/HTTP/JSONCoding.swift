import Foundation

/// The one JSON encoder of the server: datetimes as `yyyy-MM-dd'T'HH:mm:ss'Z'`, `/` unescaped (§1.4, §1.6).
public enum JSONCoding {
    public static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(WireTime.format(date))
        }
        return e
    }
}
