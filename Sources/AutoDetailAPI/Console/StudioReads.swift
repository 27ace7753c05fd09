import AppCore
import Foundation
import Vapor

/// Everything the studio console's pages read, through the same stores and domain rules as `/api/admin` (so a page
/// and the API cannot disagree). Reads only: the pages' writes are calls of their scripts to the admin API.
package enum StudioReads {
    package static func settings(_ request: Request) async throws -> StudioSettingsValues {
        StudioSettingsValues(try await request.studioSettings.current())
    }

    package static func services(_ request: Request) async throws -> [StudioService] {
        try await request.services.all(active: nil).map(StudioService.init)
    }

    package static func service(_ id: UUID, _ request: Request) async throws -> StudioService? {
        try await request.services.find(id).map(StudioService.init)
    }

    /// Organisation keys, newest first (the console shows at most 200; revoked ones too).
    package static func apiKeys(_ request: Request) async throws -> [StudioKey] {
        try await request.apiKeys.organisationKeys(revoked: nil, limit: 200, offset: 0).items.map(StudioKey.init)
    }

    // MARK: Days

    /// Studio-local today.
    package static func today(_ request: Request) async throws -> CalendarDay {
        try await request.studioSettings.current().clock.day(of: request.now)
    }

    /// The studio-local days `first …< first + count`, each with its real start and end (DST-correct) and opening
    /// hours resolved as §6 does.
    package static func days(from first: CalendarDay, count: Int, _ request: Request) async throws -> [StudioDay] {
        let settings = try await request.studioSettings.current()
        let clock = settings.clock
        return (0..<count).map { offset in
            let day = first.adding(days: offset)
            let weekday = Weekday(day)
            let hours = settings.hours.hours(on: weekday)
            return StudioDay(
                day: day, weekday: weekday.rawValue, start: clock.startOfDay(day),
                end: clock.startOfDay(day.adding(days: 1)),
                opens: hours.flatMap { clock.instant(on: day, at: $0.open) ?? clock.closingInstant(on: day, at: $0.open) },
                closes: hours.map { clock.closingInstant(on: day, at: $0.close) })
        }
    }

    /// The studio-local day and minutes since that day's start (elapsed, so DST days are 23 or 25 hours long) of
    /// an instant.
    package static func localPosition(_ instant: Date, zone timezone: String) -> (day: CalendarDay, minute: Int) {
        let clock = StudioClock(zone: TimeZone.stored(timezone))
        let day = clock.day(of: instant)
        return (day, Int(instant.timeIntervalSince(clock.startOfDay(day)) / 60))
    }

    /// The wall-clock time (`HH:mm`) of an instant in the studio zone.
    package static func wallTime(_ instant: Date, zone timezone: String) -> String {
        StudioClock(zone: TimeZone.stored(timezone)).wallTime(of: instant).text
    }

    // MARK: Bookings

    /// Bookings overlapping `[from, to)`, cancelled ones only when asked, by start.
    package static func calendar(from: Date, to: Date, includeCancelled: Bool, _ request: Request) async throws
        -> [StudioBooking]
    {
        try await request.bookings.calendar(from: from, to: to, includeCancelled: includeCancelled)
            .map { StudioBooking($0.appointment) }
    }

    /// The filtered list: status, studio-local date range (inclusive), service, search (as the admin API's
    /// `search`: client name, plate, phone or service name).
    package static func list(
        status: String?, from: CalendarDay?, to: CalendarDay?, serviceID: UUID?, search: String?, limit: Int,
        _ request: Request
    ) async throws -> [StudioBooking] {
        let clock = try await request.studioSettings.current().clock
        var filter = AppointmentFilter()
        filter.status = status.flatMap { AppointmentStatus(rawValue: $0)?.rawValue }
        filter.search = search.map { $0.lowercased() }
        filter.startFrom = from.map(clock.startOfDay)
        filter.startBefore = to.map { clock.startOfDay($0.adding(days: 1)) }
        return try await request.bookings.consoleList(filter, serviceID: serviceID, limit: limit)
            .map(StudioBooking.init)
    }

    /// One booking with its photos (the §7.5 integrity check applied, URLs freshly signed).
    package static func booking(_ id: UUID, _ request: Request) async throws -> StudioBooking? {
        guard let item = try await request.bookings.appointment(id, scope: .everything) else { return nil }
        var view = StudioBooking(item.appointment)
        let photos = await AppointmentAssembler.verifyExpired(item.photos, req: request)
        view.photos = photos.map { photo in
            StudioPhoto(
                id: photo.id, kind: photo.kind, url: request.photoStorage.presignDownload(key: photo.objectKey, for: request),
                createdAt: photo.createdAt, sizeBytes: photo.sizeBytes, mismatch: photo.mismatch)
        }
        return view
    }

    /// The object key of a photo of a booking (thumbnails), nil when there is no such photo.
    static func photoObjectKey(_ photoID: UUID, booking: UUID, _ request: Request) async throws -> String? {
        try await request.bookings.appointment(booking, scope: .everything)?.photos.first { $0.id == photoID }?.objectKey
    }

    /// Attention list: bookings still unconfirmed from today on, and work of the last 14 days missing before/after
    /// photos.
    package static func attention(_ request: Request) async throws
        -> (unconfirmed: [StudioBooking], missingPhotos: [(StudioBooking, before: Bool, after: Bool)])
    {
        let clock = try await request.studioSettings.current().clock
        let today = clock.startOfDay(clock.day(of: request.now))
        let unconfirmed = try await request.bookings.unconfirmed(from: today, limit: 50).map(StudioBooking.init)
        let missing = try await request.bookings.missingPhotos(since: today.addingTimeInterval(-14 * 86_400), limit: 50)
            .map { (StudioBooking($0.0), before: $0.missingBefore, after: $0.missingAfter) }
        return (unconfirmed, missing)
    }

    /// Per studio-local day of `days`: non-cancelled bookings starting that day, and the revenue of the `done` ones.
    package static func dailyTotals(_ days: [StudioDay], _ request: Request) async throws -> [StudioDayTotal] {
        guard let first = days.first, let last = days.last else { return [] }
        let bookings = try await request.bookings.calendar(from: first.start, to: last.end)
        return days.map { day in
            let starting = bookings.filter { $0.appointment.startAt >= day.start && $0.appointment.startAt < day.end }
            return StudioDayTotal(
                day: day.day, bookings: starting.count,
                revenueRub: starting.filter { $0.appointment.status == "done" }.reduce(0) { $0 + $1.appointment.priceRub })
        }
    }

    // MARK: Reschedule

    /// The slots of `day` a booking could move to: the §6 grid for the booking's own length, the admin day range
    /// (rule 16), and the bays left with the booking itself not counted; only slots with a free bay.
    package static func rescheduleSlots(_ id: UUID, day: CalendarDay, _ request: Request) async throws -> [StudioSlot] {
        guard let item = try await request.bookings.appointment(id, scope: .everything) else {
            throw APIError.appointmentNotFound
        }
        let booking = item.appointment
        let settings = try await request.studioSettings.current()
        let minutes = Int(booking.endAt.timeIntervalSince(booking.startAt) / 60)
        let grid = SlotGrid(settings: settings, durationMinutes: minutes)
        let clock = settings.clock
        let occupied = try await request.bookings.occupiedIntervals(
            from: clock.startOfDay(day), to: clock.startOfDay(day.adding(days: 1)).addingTimeInterval(Double(minutes) * 60))
        let others = Self.withoutOwn(occupied, booking)
        let now = request.now
        return grid.slots(on: day).slots.compactMap { slot in
            guard grid.adminBookableSlot(slot.start, now: now) != nil, slot.start != booking.startAt else { return nil }
            let remaining = Occupancy.remaining(start: slot.start, end: slot.end, capacity: settings.capacity, occupied: others)
            guard remaining > 0 else { return nil }
            return StudioSlot(start: slot.start, end: slot.end, startTime: slot.startTime.text,
                                  endTime: slot.endTime.text, remaining: remaining)
        }
    }

    /// The occupied intervals less one occurrence of the booking's own.
    static func withoutOwn(_ occupied: [Range<Date>], _ booking: AppointmentRow) -> [Range<Date>] {
        var others = occupied
        if booking.status != "cancelled", let own = others.firstIndex(of: booking.startAt..<booking.endAt) {
            others.remove(at: own)
        }
        return others
    }

    // MARK: Customers

    package static func customers(search: String?, _ request: Request) async throws -> (items: [StudioCustomer], total: Int) {
        let page = try await request.installs.page(search: search?.lowercased(), priority: nil, limit: 200, offset: 0)
        return (page.items.map(StudioCustomer.init), page.total)
    }

    package static func customer(_ id: UUID, _ request: Request) async throws
        -> (customer: StudioCustomer, messages: [StudioMessage], bookings: [StudioBooking])?
    {
        guard let row = try await request.installs.iosUser(id) else { return nil }
        let messages = try await request.messages.latest(of: id, limit: 100).map {
            StudioMessage(id: $0.id!, text: $0.text, createdAt: $0.createdAt, readAt: $0.readAt)
        }
        var filter = AppointmentFilter()
        filter.installID = id
        let bookings = try await request.bookings.consoleList(filter, serviceID: nil, limit: 200).map(StudioBooking.init)
        return (StudioCustomer(row), messages, bookings)
    }
}
