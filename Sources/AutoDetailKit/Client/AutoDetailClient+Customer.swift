import Foundation

extension AutoDetailClient {
    // MARK: Keys

    /// Checks a key (`POST /api/auth/validate-key`, the seed's call): `key`, or the stored key when nil.
    /// A wrong, unknown or revoked key throws ``AutoDetailError/unauthorized(message:)``, a blocked install
    /// ``AutoDetailError/forbidden(message:)``.
    @discardableResult
    public func validateKey(_ key: String? = nil) async throws(AutoDetailError) -> ValidateKeyResponse {
        let stored = try await credentials().apiKey
        guard let key = key ?? stored else {
            throw .unauthorized(message: "No API key to validate")
        }
        return try await send(
            Request(method: .post, path: "/api/auth/validate-key", json: ValidateKeyRequest(apiKey: key), authentication: .none))
    }

    /// Mints a new install identity (`POST /api/ios/init`) and stores its key. Call it only when no key is stored
    /// or the stored one was rejected with 401: every call creates a new customer.
    @discardableResult
    public func initInstall() async throws(AutoDetailError) -> InstallInitResponse {
        let response = try await send(
            Request<InstallInitResponse>(method: .post, path: "/api/ios/init", authentication: .none))
        try await useAPIKey(response.apiKey, installId: response.installId)
        return response
    }

    // MARK: Catalogue

    /// The active services, sorted by name (`GET /api/client/services`, public).
    public func services() async throws(AutoDetailError) -> [Service] {
        try await send(Request(path: "/api/client/services", authentication: .none))
    }

    /// One active service (`GET /api/client/services/{id}`).
    public func service(id: String) async throws(AutoDetailError) -> Service {
        try await send(Request(path: "/api/client/services/\(Self.segment(id))", authentication: .none))
    }

    /// The slots of a service on a studio-local date `YYYY-MM-DD` (`GET /api/client/availability`, public).
    public func availability(serviceId: String, date: String) async throws(AutoDetailError) -> Availability {
        try await send(
            Request(path: "/api/client/availability", query: [("serviceId", serviceId), ("date", date)], authentication: .none))
    }

    // MARK: Appointments

    /// Books a slot (`POST /api/client/appointments`). A full slot throws ``AutoDetailError/conflict(message:)``
    /// (`Time slot is no longer available`); a start that is not a bookable slot ``AutoDetailError/invalid(message:)``
    /// (`Invalid time slot`).
    /// - Parameter idempotencyKey: makes a repeat of the same booking (after a lost answer) return the first one
    ///   instead of booking twice. With a key the kit itself repeats the booking after a transport failure or a 5xx
    ///   (a proxy's 502 when the node behind it died); without one it never does, as a repeat could book twice.
    public func book(_ booking: BookingRequest, idempotencyKey: String? = nil) async throws(AutoDetailError) -> Appointment {
        try await send(
            Request(
                method: .post, path: "/api/client/appointments", json: booking, authentication: .apiKey,
                headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:], isRetryable: idempotencyKey != nil))
    }

    /// One appointment with freshly signed photo URLs (`GET /api/client/appointments/{id}`). Another customer's
    /// appointment throws ``AutoDetailError/notFound(message:)``, as an unknown id does.
    public func appointment(id: String) async throws(AutoDetailError) -> Appointment {
        try await send(Request(path: "/api/client/appointments/\(Self.segment(id))", authentication: .apiKey))
    }

    /// The key's appointments, latest start first (`GET /api/client/appointments`).
    public func appointments(
        status: AppointmentStatus? = nil, phone: String? = nil, limit: Int? = nil, offset: Int? = nil
    ) async throws(AutoDetailError) -> Page<Appointment> {
        var query: [(String, String)] = []
        if let status { query.append(("status", status.rawValue)) }
        if let phone { query.append(("phone", phone)) }
        return try await sendPage(
            Request(path: "/api/client/appointments", query: query + Self.page(limit, offset), authentication: .apiKey))
    }

    /// Cancels before the start (`POST /api/client/appointments/{id}/cancel`); cancelling twice is harmless.
    public func cancelAppointment(id: String) async throws(AutoDetailError) -> Appointment {
        try await send(
            Request(method: .post, path: "/api/client/appointments/\(Self.segment(id))/cancel", authentication: .apiKey))
    }

    // MARK: Install profile and messages (install keys only)

    /// The install's profile (`GET /api/ios/profile`).
    public func profile() async throws(AutoDetailError) -> InstallProfile {
        try await send(Request(path: "/api/ios/profile", authentication: .apiKey))
    }

    /// Creates or replaces the install's profile (`POST /api/ios/profile`).
    public func updateProfile(_ profile: ProfileRequest) async throws(AutoDetailError) -> InstallProfile {
        try await send(Request(method: .post, path: "/api/ios/profile", json: profile, authentication: .apiKey))
    }

    /// Messages from the studio, newest first (`GET /api/ios/messages`).
    public func messages(unreadOnly: Bool = false, limit: Int? = nil, offset: Int? = nil) async throws(AutoDetailError)
        -> MessageList
    {
        try await send(
            Request(
                path: "/api/ios/messages", query: [("unreadOnly", unreadOnly ? "true" : "false")] + Self.page(limit, offset),
                authentication: .apiKey))
    }

    /// Marks a message read (`POST /api/ios/messages/{id}/read`).
    @discardableResult
    public func markMessageRead(id: String) async throws(AutoDetailError) -> Message {
        try await send(Request(method: .post, path: "/api/ios/messages/\(Self.segment(id))/read", authentication: .apiKey))
    }
}
