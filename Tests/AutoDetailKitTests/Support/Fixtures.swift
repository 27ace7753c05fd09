import AutoDetailKit
import Foundation

/// Test data shared by the suites.
enum Fixtures {
    /// The studio-local date `days` after today in Europe/Moscow (the default zone), `YYYY-MM-DD`. Tomorrow is
    /// always inside the booking window and past the lead time.
    static func studioDate(daysFromNow days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Moscow")!
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// A booking of `slot` with the seed's sample values.
    static func booking(_ slot: String, serviceName: String = "Car Washing", clientName: String = "Test User") -> BookingRequest {
        BookingRequest(
            startIso: slot, clientName: clientName, phone: "+1234567890", carMake: "BMW", carPlate: "ABC123",
            serviceName: serviceName, notes: "")
    }

    /// A small file with JPEG magic bytes and some random content (the server does not inspect images).
    static func jpegFile(in directory: URL, name: String = "photo.jpg", size: Int = 48 * 1024) throws -> (URL, Data) {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        bytes.reserveCapacity(size)
        while bytes.count < size - 2 { bytes.append(UInt8.random(in: 0...255)) }
        bytes += [0xFF, 0xD9]
        let data = Data(bytes)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return (url, data)
    }
}
