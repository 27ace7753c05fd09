import Foundation

extension AutoDetailClient {
    // MARK: Session

    /// Logs in to the console API (`POST /api/admin/login`) and stores the token (valid 12 hours).
    @discardableResult
    public func adminLogin(username: String, password: String) async throws(AutoDetailError) -> AdminLoginResponse {
        let response = try await send(
            Request<AdminLoginResponse>(
                method: .post, path: "/api/admin/login", json: AdminLoginRequest(username: username, password: password),
                authentication: .none))
        try await updateCredentials {
            $0.adminToken = response.token
            $0.adminTokenExpiresAt = response.expiresAt
        }
        return response
    }

    /// Revokes the token on the server (`POST /api/admin/logout`) and forgets it; a token the server no longer
    /// accepts is forgotten too.
    public func adminLogout() async throws(AutoDetailError) {
        do {
            _ = try await send(Request<EmptyResponse>(method: .post, path: "/api/admin/logout", authentication: .admin))
        } catch .unauthorized {
            // Already expired or revoked: forgetting it is all that is left to do.
        }
        try await updateCredentials {
            $0.adminToken = nil
            $0.adminTokenExpiresAt = nil
        }
    }

    /// Changes the admin password (`POST /api/admin/password`); every other session is revoked.
    public func changeAdminPassword(current: String, new: String) async throws(AutoDetailError) {
        _ = try await send(
            Request<EmptyResponse>(
                method: .post, path: "/api/admin/password", json: ["currentPassword": current, "newPassword": new],
                authentication: .admin))
    }

    // MARK: Organisation keys

    /// Creates an organisation key (`POST /api/admin/api-keys`); the answer's ``APIKey/key`` is the only time the
    /// full key is shown.
    public func createAPIKey(name: String, fullAccess: Bool = false) async throws(AutoDetailError) -> APIKey {
        try await send(
            Request(
                method: .post, path: "/api/admin/api-keys", json: APIKeyCreateRequest(name: name, fullAccess: fullAccess),
                authentication: .admin))
    }

    /// Organisation keys, newest first (`GET /api/admin/api-keys`).
    public func apiKeys(revoked: Bool? = nil, limit: Int? = nil, offset: Int? = nil) async throws(AutoDetailError)
        -> Page<APIKey>
    {
        let query = (revoked.map { [("revoked", $0 ? "true" : "false")] } ?? []) + Self.page(limit, offset)
        return try await sendPage(Request(path: "/api/admin/api-keys", query: query, authentication: .admin))
    }

    /// One key (`GET /api/admin/api-keys/{id}`).
    public func apiKey(id: String) async throws(AutoDetailError) -> APIKey {
        try await send(Request(path: "/api/admin/api-keys/\(Self.segment(id))", authentication: .admin))
    }

    /// Revokes an organisation key for good (`DELETE /api/admin/api-keys/{id}`); harmless when already revoked.
    public func revokeAPIKey(id: String) async throws(AutoDetailError) {
        _ = try await send(
            Request<EmptyResponse>(method: .delete, path: "/api/admin/api-keys/\(Self.segment(id))", authentication: .admin))
    }

    // MARK: Services

    /// Every service, inactive ones included unless `active` filters (`GET /api/admin/services`).
    public func adminServices(active: Bool? = nil) async throws(AutoDetailError) -> [Service] {
        try await send(
            Request(
                path: "/api/admin/services", query: active.map { [("active", $0 ? "true" : "false")] } ?? [],
                authentication: .admin))
    }

    /// One service, also when inactive (`GET /api/admin/services/{id}`).
    public func adminService(id: String) async throws(AutoDetailError) -> Service {
        try await send(Request(path: "/api/admin/services/\(Self.segment(id))", authentication: .admin))
    }

    /// Creates a service (`POST /api/admin/services`); a name clash throws ``AutoDetailError/conflict(message:)``.
    public func createService(_ body: ServiceCreateRequest) async throws(AutoDetailError) -> Service {
        try await send(Request(method: .post, path: "/api/admin/services", json: body, authentication: .admin))
    }

    /// Changes a service (`PUT /api/admin/services/{id}`, partial). Existing bookings keep their snapshots.
    public func updateService(id: String, _ body: ServiceUpdateRequest) async throws(AutoDetailError) -> Service {
        try await send(
            Request(method: .put, path: "/api/admin/services/\(Self.segment(id))", json: body, authentication: .admin))
    }

    /// Soft-deletes a service (`DELETE /api/admin/services/{id}`): hidden from the catalogue, not bookable.
    public func deleteService(id: String) async throws(AutoDetailError) {
        _ = try await send(
            Request<EmptyResponse>(method: .delete, path: "/api/admin/services/\(Self.segment(id))", authentication: .admin))
    }

    // MARK: Appointments

    /// Appointments in admin representation, earliest start first (`GET /api/admin/appointments`).
    /// - Parameters:
    ///   - date: one studio-local day `YYYY-MM-DD` (not together with `from`/`to`).
    ///   - search: substring of client name, plate, phone or service name.
    public func adminAppointments(
        date: String? = nil, from: String? = nil, to: String? = nil, status: AppointmentStatus? = nil,
        phone: String? = nil, search: String? = nil, installId: String? = nil, limit: Int? = nil, offset: Int? = nil
    ) async throws(AutoDetailError) -> Page<Appointment> {
        var query: [(String, String)] = []
        let filters: [(String, String?)] = [
            ("date", date), ("from", from), ("to", to), ("status", status?.rawValue), ("phone", phone), ("search", search),
            ("installId", installId),
        ]
        for (name, value) in filters { if let value { query.append((name, value)) } }
        return try await sendPage(
            Request(path: "/api/admin/appointments", query: query + Self.page(limit, offset), authentication: .admin))
    }

    /// One appointment in admin representation (`GET /api/admin/appointments/{id}`).
    public func adminAppointment(id: String) async throws(AutoDetailError) -> Appointment {
        try await send(Request(path: "/api/admin/appointments/\(Self.segment(id))", authentication: .admin))
    }

    /// Changes status and/or notes (`PUT /api/admin/appointments/{id}`). An illegal transition throws
    /// ``AutoDetailError/conflict(message:)`` (`Invalid status transition: done -> confirmed`).
    public func updateAppointment(id: String, _ body: AppointmentUpdateRequest) async throws(AutoDetailError)
        -> Appointment
    {
        try await send(
            Request(method: .put, path: "/api/admin/appointments/\(Self.segment(id))", json: body, authentication: .admin))
    }

    /// Moves an appointment to `status` (confirm, start, done, cancel; contract §5).
    public func setAppointmentStatus(id: String, to status: AppointmentStatus) async throws(AutoDetailError) -> Appointment {
        try await updateAppointment(id: id, AppointmentUpdateRequest(status: status))
    }

    // MARK: Installs

    /// App installations, most recently seen first (`GET /api/admin/ios-users`).
    public func installs(search: String? = nil, priority: String? = nil, limit: Int? = nil, offset: Int? = nil)
        async throws(AutoDetailError) -> Page<IosUser>
    {
        var query: [(String, String)] = []
        if let search { query.append(("search", search)) }
        if let priority { query.append(("priority", priority)) }
        return try await sendPage(
            Request(path: "/api/admin/ios-users", query: query + Self.page(limit, offset), authentication: .admin))
    }

    /// Counts of installs (`GET /api/admin/ios-users/stats`).
    public func installStats() async throws(AutoDetailError) -> InstallStats {
        try await send(Request(path: "/api/admin/ios-users/stats", authentication: .admin))
    }

    /// One install with its latest messages (`GET /api/admin/ios-users/{id}`).
    public func install(id: String) async throws(AutoDetailError) -> IosUser {
        try await send(Request(path: "/api/admin/ios-users/\(Self.segment(id))", authentication: .admin))
    }

    /// Sets an install's priority (`normal`, `high`, `blocked`; `blocked` makes its key answer 403).
    public func setInstallPriority(id: String, priority: String) async throws(AutoDetailError) -> IosUser {
        try await send(
            Request(
                method: .put, path: "/api/admin/ios-users/\(Self.segment(id))/priority", json: ["priority": priority],
                authentication: .admin))
    }

    /// Sends a message to an install (`POST /api/admin/ios-users/{id}/message`).
    public func sendMessage(installId: String, text: String) async throws(AutoDetailError) -> AdminMessage {
        try await send(
            Request(
                method: .post, path: "/api/admin/ios-users/\(Self.segment(installId))/message", json: ["text": text],
                authentication: .admin))
    }

    /// Deletes an install (`DELETE /api/admin/ios-users/{id}`): its key is revoked, its appointments stay.
    public func deleteInstall(id: String) async throws(AutoDetailError) {
        _ = try await send(
            Request<EmptyResponse>(method: .delete, path: "/api/admin/ios-users/\(Self.segment(id))", authentication: .admin))
    }

    // MARK: Settings

    /// The studio settings (`GET /api/admin/settings`).
    public func settings() async throws(AutoDetailError) -> StudioSettings {
        try await send(Request(path: "/api/admin/settings", authentication: .admin))
    }

    /// Changes settings (`PUT /api/admin/settings`, partial at the top level); affects later bookings only.
    public func updateSettings(_ body: SettingsUpdateRequest) async throws(AutoDetailError) -> StudioSettings {
        try await send(Request(method: .put, path: "/api/admin/settings", json: body, authentication: .admin))
    }
}
