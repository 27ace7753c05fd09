import Foundation

/// APIManager's coders: its one decoder (dates from strings only, five formats tried in order) and the encoders of
/// the calls the tests make.
enum AppCoding {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let dateString = try container.decode(String.self)
            let formatters = [
                formatter("yyyy-MM-dd'T'HH:mm:ss'Z'", utc: true),
                formatter("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", utc: true),
                formatter("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXXXX", utc: false),
                formatter("yyyy-MM-dd'T'HH:mm:ssZ", utc: false),
                formatter("yyyy-MM-dd", utc: true),
            ]
            for formatter in formatters {
                if let date = formatter.date(from: dateString) { return date }
            }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot decode date string \(dateString)")
        }
        return decoder
    }()

    static func formatter(_ format: String, utc: Bool) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.dateFormat = format
        if utc { formatter.timeZone = TimeZone(abbreviation: "UTC") }
        return formatter
    }

    /// `.convertToSnakeCase` with dates as `format` in UTC (createPet/updatePet: `yyyy-MM-dd`; appointments:
    /// `yyyy-MM-dd'T'HH:mm:ss'Z'`; medical records: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`); `nil` = no date strategy.
    static func encoder(dates format: String?) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        if let format {
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(formatter(format, utc: true).string(from: date))
            }
        }
        return encoder
    }

    static let petEncoder = encoder(dates: "yyyy-MM-dd")
    static let appointmentEncoder = encoder(dates: "yyyy-MM-dd'T'HH:mm:ss'Z'")
    static let medicalRecordEncoder = encoder(dates: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
    static let plainSnakeCaseEncoder = encoder(dates: nil)
}
