import AppCore
import Fluent
import Foundation
import Vapor

/// A vet's availability windows (the iPhone app's work-schedule screen, `scheduling-unix` in the original backend):
/// stored as UTC instants and listed for the windows that overlap one local day of a given zone
/// (docs/iphone-app-compatibility.md). Staff only; a member manages the vets of their own practice, ADMIN every vet.
struct VetAvailabilityController: RouteCollection {
    /// One path parameter name for the three routes below: the router cannot tell two names at one position apart.
    /// It is the vet's id for GET and the window's id for PUT and DELETE (as in the app's calls).
    func boot(routes: any RoutesBuilder) throws {
        let availability = routes.grouped("scheduling-unix", "vet-availability")
        availability.post(use: create)
        availability.get(":id", use: listForDay)
        availability.put(":id", use: update)
        availability.delete(":id", use: delete)
    }

    @Sendable func listForDay(req: Request) async throws -> Response {
        let caller = try req.caller
        let vetID = try req.pathID("id", .vetUser)
        let query = req.queryParameters
        let requestedDay = try query.day()
        let zoneID = try Self.zoneIdentifier(query)
        let wantsSlots = try query.optionalBool("slots") ?? false
        let (_, practice) = try await req.vetAvailability.vet(vetID, for: caller)
        // The zone the app's device is in; without one, the practice's.
        let zone = zoneID.flatMap(TimeZone.init(identifier:)) ?? practice.timeZone
        let day = requestedDay ?? LocalDay.day(containing: req.now, in: zone)
        let window = LocalDay.window(of: day, in: zone)
        let windows = try await req.vetAvailability.activeWindows(
            vet: vetID, practice: practice.id!, overlapping: window.lowerBound..<window.upperBound)
        if wantsSlots {
            return try JSONResponse.make(try await VetAvailabilitySlots.response(
                vetID: vetID, practice: practice, day: day, zone: zone, windows: windows, on: req.db))
        }
        return try JSONResponse.make(windows.map(VetAvailabilityResponse.init))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let vetID = try fields.requiredUUID("vet_user_id", kind: .vetUser)
        let requestedPractice = try fields.optionalUUID("practice_id", kind: .practice, nullable: true).valueIfPresent
        let input = try VetAvailabilityRequest(fields, creating: true)
        let (_, practice) = try await req.vetAvailability.vet(vetID, for: caller)
        if let requestedPractice, requestedPractice != practice.id {
            throw APIError.badRequest("practice_id must be the vet's practice")
        }
        let now = req.now
        let window = VetAvailability()
        window.id = UUID()
        window.vetUserID = vetID
        window.practiceID = practice.id!
        window.startAt = input.startAt!
        window.endAt = input.endAt!
        window.availabilityType = (input.availabilityType ?? .available).rawValue
        window.notes = input.notes.valueIfPresent
        window.isActive = input.isActive ?? true
        window.createdAt = now
        window.updatedAt = now
        try await req.vetAvailability.create(window)
        return try JSONResponse.make(VetAvailabilityResponse(window), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("id", .availability)
        let fields = try req.jsonObject()
        try fields.requireUnchanged("id", current: id.lowercased)
        let input = try VetAvailabilityRequest(fields, creating: false)
        guard fields.containsAny(of: VetAvailabilityRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let updated = try await req.vetAvailability.update(id, for: caller, now: req.now) { window in
            try fields.requireUnchanged("vet_user_id", current: window.vetUserID.lowercased)
            try fields.requireUnchanged("practice_id", current: window.practiceID.lowercased)
            if let start = input.startAt { window.setIfChanged(\.startAt, start) }
            if let end = input.endAt { window.setIfChanged(\.endAt, end) }
            guard window.endAt > window.startAt else { throw APIError.badRequest("end_at must be after start_at") }
            try VetAvailabilityRequest.checkLength(from: window.startAt, to: window.endAt)
            if let type = input.availabilityType { window.setIfChanged(\.availabilityType, type.rawValue) }
            window.setIfChanged(\.notes, input.notes.applied(to: window.notes))
            if let isActive = input.isActive { window.setIfChanged(\.isActive, isActive) }
        }
        return try JSONResponse.make(VetAvailabilityResponse(updated))
    }

    @Sendable func delete(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("id", .availability)
        try await req.vetAvailability.delete(id, for: caller)
        return Response(status: .noContent)
    }

    /// `timezone` as the app sends it (the device's zone: `Area/City`, or `Etc/UTC` on a device set to UTC): a tz
    /// database name, or 400. Blank is absent, as for every optional query parameter.
    static func zoneIdentifier(_ query: QueryParameters) throws -> String? {
        guard let raw = query.values["timezone"], !raw.isEmpty else { return nil }
        guard LocalDay.isAcceptedDeviceZoneIdentifier(raw) else {
            throw APIError.badRequest("timezone must be an IANA time zone name such as America/Los_Angeles")
        }
        return raw
    }
}

extension IDKind {
    static let availability = IDKind(invalidMessage: "Invalid availability ID format")
}
