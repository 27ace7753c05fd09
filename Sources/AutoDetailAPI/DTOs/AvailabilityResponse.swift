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
            json.key("date")
            json.string(date)
            json.key("serviceId")
            json.string(serviceId)
            json.key("timezone")
            json.string(timezone)
            json.key("durationMinutes")
            json.int(durationMinutes)
            json.key("capacity")
            json.int(capacity)
            json.key("workingHours")
            if let hours = workingHours {
                json.object { json in
                    json.key("open")
                    json.string(hours.open)
                    json.key("close")
                    json.string(hours.close)
                }
            } else {
                json.null()
            }
            json.key("slots")
            json.array(slots) { json, slot in
                json.object { json in
                    json.key("startIso")
                    json.date(slot.startIso)
                    json.key("endIso")
                    json.date(slot.endIso)
                    json.key("startTime")
                    json.string(slot.startTime)
                    json.key("endTime")
                    json.string(slot.endTime)
                    json.key("available")
                    json.bool(slot.available)
                    json.key("remaining")
                    json.int(slot.remaining)
                    json.key("unavailableReason")
                    json.string(slot.unavailableReason)
                }
            }
        }
    }
}
