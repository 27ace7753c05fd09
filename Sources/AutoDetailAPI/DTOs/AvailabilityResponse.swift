import AppCore
import Foundation

/// `GET /api/client/availability` (contract §4.3).
struct AvailabilityResponse: Encodable, Sendable {
    struct Slot: Encodable, Sendable {
        let startIso: Date
        let endIso: Date
        let startTime: String
        let endTime: String
        let available: Bool
        let remaining: Int
        @NullEncodable var unavailableReason: String?
    }

    let date: String
    let serviceId: String
    let timezone: String
    let durationMinutes: Int
    let capacity: Int
    @NullEncodable var workingHours: DayHoursResponse?
    let slots: [Slot]
}

/// Written without `JSONEncoder`: a day's grid is a few hundred slot objects, and encoding them through Foundation's
/// value tree was the largest share of the endpoint's CPU (profile in docs/read-path-autodetail.md).
/// `JSONWriterTests` compare this with the `Encodable` form.
extension AvailabilityResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("date", date)
            json.member("serviceId", serviceId)
            json.member("timezone", timezone)
            json.member("durationMinutes", durationMinutes)
            json.member("capacity", capacity)
            json.key("workingHours")
            if let hours = workingHours {
                json.object { json in
                    json.member("open", hours.open)
                    json.member("close", hours.close)
                }
            } else {
                json.null()
            }
            json.key("slots")
            json.array(slots) { json, slot in
                json.object { json in
                    json.member("startIso", slot.startIso)
                    json.member("endIso", slot.endIso)
                    json.member("startTime", slot.startTime)
                    json.member("endTime", slot.endTime)
                    json.member("available", slot.available)
                    json.member("remaining", slot.remaining)
                    json.member("unavailableReason", slot.unavailableReason)
                }
            }
        }
    }
}
