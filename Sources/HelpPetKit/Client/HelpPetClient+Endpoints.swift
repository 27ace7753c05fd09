import Foundation

extension HelpPetClient {
    // MARK: Dashboard

    /// Today's work summary of the logged-in vet (`GET /api/v1/dashboard/vet/{id}/today`): the appointments of the
    /// practice-local day `date` (`YYYY-MM-DD`, default today in the practice's time zone), the next and the current
    /// appointment, and counts.
    public func today(date: String? = nil) async throws(HelpPetError) -> DashboardResponse {
        let user = try await currentUser()
        return try await today(vetId: user.id, date: date)
    }

    /// The work summary of the vet `vetId` (ADMIN may ask for any vet; a vet only for themselves).
    public func today(vetId: String, date: String? = nil) async throws(HelpPetError) -> DashboardResponse {
        try await send(
            Request(path: "/api/v1/dashboard/vet/\(Self.segment(vetId))/today", query: date.map { [("date", $0)] } ?? []))
    }

    /// The schedule with stats of the vet `vetId` (`GET /api/v1/dashboard/vet/{id}`).
    public func schedule(vetId: String, date: String? = nil) async throws(HelpPetError) -> VetSchedule {
        try await send(Request(path: "/api/v1/dashboard/vet/\(Self.segment(vetId))", query: date.map { [("date", $0)] } ?? []))
    }

    // MARK: Appointments

    /// One appointment with its pets (`GET /api/v1/appointments/{id}`).
    public func appointment(id: String) async throws(HelpPetError) -> Appointment {
        try await send(Request(path: "/api/v1/appointments/\(Self.segment(id))"))
    }

    /// Changes an appointment (`PUT /api/v1/appointments/{id}`, partial update).
    public func updateAppointment(id: String, _ update: AppointmentUpdateRequest) async throws(HelpPetError) -> Appointment {
        let request: Request<Appointment>
        do {
            request = try Request(method: .put, path: "/api/v1/appointments/\(Self.segment(id))", json: update)
        } catch {
            throw .invalid(detail: "cannot encode the update: \(error)")
        }
        return try await send(request)
    }

    /// Sets an appointment's status (transitions: contract §5.2; an illegal one is ``HelpPetError/conflict(detail:)``).
    public func updateAppointmentStatus(id: String, to status: AppointmentStatus) async throws(HelpPetError) -> Appointment {
        try await updateAppointment(id: id, AppointmentUpdateRequest(status: status))
    }

    /// Starts the visit: status `in_progress` (seed 003 "Start Visit").
    public func startAppointment(id: String) async throws(HelpPetError) -> Appointment {
        try await updateAppointmentStatus(id: id, to: .inProgress)
    }

    /// Ends the visit: status `completed` (seed 003 "End Visit"). Recordings are unaffected.
    public func completeAppointment(id: String) async throws(HelpPetError) -> Appointment {
        try await updateAppointmentStatus(id: id, to: .completed)
    }

    /// The appointments of a pet owner, newest first (`GET /api/v1/appointments/pet-owner/{id}`).
    public func appointments(petOwnerId: String, limit: Int? = nil, offset: Int? = nil) async throws(HelpPetError) -> [Appointment] {
        try await send(
            Request(path: "/api/v1/appointments/pet-owner/\(Self.segment(petOwnerId))", query: Self.page(limit, offset)))
    }

    // MARK: Pets and medical records

    /// One pet with its owner (`GET /api/v1/pets/{id}`).
    public func pet(id: String) async throws(HelpPetError) -> Pet {
        try await send(Request(path: "/api/v1/pets/\(Self.segment(id))"))
    }

    /// The pets of an owner (`GET /api/v1/pets/owner/{id}`).
    public func pets(ownerId: String, includeInactive: Bool = false) async throws(HelpPetError) -> [Pet] {
        try await send(
            Request(
                path: "/api/v1/pets/owner/\(Self.segment(ownerId))",
                query: [("include_inactive", includeInactive ? "true" : "false")]))
    }

    /// A pet's medical records (`GET /api/v1/medical-records/pet/{id}`): every version by default, only current
    /// versions with `includeHistorical: false`, the single latest current record with `latestOnly: true`.
    public func medicalRecords(
        petId: String, includeHistorical: Bool = true, latestOnly: Bool = false, limit: Int? = nil, offset: Int? = nil
    ) async throws(HelpPetError) -> MedicalRecordsResponse {
        try await send(
            Request(
                path: "/api/v1/medical-records/pet/\(Self.segment(petId))",
                query: [
                    ("include_historical", includeHistorical ? "true" : "false"),
                    ("latest_only", latestOnly ? "true" : "false"),
                ] + Self.page(limit, offset)))
    }

    /// Every version of every record of a pet, grouped by record (`GET /api/v1/medical-records/pet/{id}/history`).
    public func medicalRecordHistory(petId: String, limit: Int? = nil, offset: Int? = nil) async throws(HelpPetError)
        -> MedicalRecordsResponse
    {
        try await send(
            Request(path: "/api/v1/medical-records/pet/\(Self.segment(petId))/history", query: Self.page(limit, offset)))
    }

    /// One record version with its pet and author (`GET /api/v1/medical-records/{id}`).
    public func medicalRecord(id: String) async throws(HelpPetError) -> MedicalRecord {
        try await send(Request(path: "/api/v1/medical-records/\(Self.segment(id))"))
    }

    // MARK: Visit transcripts

    /// A pet's visits, newest first (`GET /api/v1/visit-transcripts/pet/{id}`). Pending visits (initiated, nothing
    /// uploaded yet) only with `includePending`.
    public func visitTranscripts(
        petId: String, state: VisitState? = nil, includePending: Bool = false, limit: Int? = nil, offset: Int? = nil
    ) async throws(HelpPetError) -> [VisitTranscript] {
        var query: [(String, String)] = [("include_pending", includePending ? "true" : "false")]
        if let state { query.append(("state", state.rawValue)) }
        return try await send(
            Request(path: "/api/v1/visit-transcripts/pet/\(Self.segment(petId))", query: query + Self.page(limit, offset)))
    }

    /// The visits of an appointment, at most one per pet (`GET /api/v1/visit-transcripts/appointments/{id}/visits`).
    public func visitTranscripts(
        appointmentId: String, petId: String? = nil, includePending: Bool = false, limit: Int? = nil, offset: Int? = nil
    ) async throws(HelpPetError) -> [VisitTranscript] {
        var query: [(String, String)] = [("include_pending", includePending ? "true" : "false")]
        if let petId { query.append(("pet_id", petId)) }
        return try await send(
            Request(
                path: "/api/v1/visit-transcripts/appointments/\(Self.segment(appointmentId))/visits",
                query: query + Self.page(limit, offset)))
    }

    /// One visit (`GET /api/v1/visit-transcripts/{id}`), pending ones included.
    public func visitTranscript(id: String) async throws(HelpPetError) -> VisitTranscript {
        try await send(Request(path: "/api/v1/visit-transcripts/\(Self.segment(id))"))
    }

    /// Creates a typed transcript without audio (`POST /api/v1/visit-transcripts`, seed 003 "Record Visit").
    public func createVisitTranscript(_ body: VisitTranscriptCreateRequest) async throws(HelpPetError) -> VisitTranscript {
        let request: Request<VisitTranscript>
        do {
            request = try Request(method: .post, path: "/api/v1/visit-transcripts", json: body)
        } catch {
            throw .invalid(detail: "cannot encode the transcript: \(error)")
        }
        return try await send(request)
    }

    static func page(_ limit: Int?, _ offset: Int?) -> [(String, String)] {
        var query: [(String, String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let offset { query.append(("offset", String(offset))) }
        return query
    }
}
