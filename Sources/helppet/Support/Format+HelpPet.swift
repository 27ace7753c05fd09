import CLISupport
import Foundation

/// HelpPet's own human format: appointment times in the practice's zone.
extension Format {
    static func time(_ date: Date, timeZone: TimeZone?, withDate: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone ?? .current
        formatter.dateFormat = withDate ? "yyyy-MM-dd HH:mm zzz" : "HH:mm"
        return formatter.string(from: date)
    }
}
