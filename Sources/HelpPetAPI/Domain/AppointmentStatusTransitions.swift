/// The appointment status table of contract §5.2. Requests in the legacy client profile (the shipped iPhone app) may
/// also go `scheduled`/`confirmed` → `completed`: the app's status picker offers it and clinics use it when the vet
/// forgot to press start. Everyone else — the kits and their CLI included, whose end-to-end tests pin the contract's
/// 409 — keeps the contract's table (docs/iphone-app-compatibility.md).
enum AppointmentStatusTransitions {
    enum Outcome: Equatable { case noOp, allowed, refused }

    static func outcome(from: AppointmentStatus, to: AppointmentStatus, profile: ClientProfile) -> Outcome {
        if from == to { return .noOp }
        switch (from, to) {
        case (.scheduled, .confirmed), (.scheduled, .inProgress), (.scheduled, .cancelled),
            (.confirmed, .inProgress), (.confirmed, .cancelled),
            (.inProgress, .completed), (.inProgress, .cancelled):
            return .allowed
        case (.scheduled, .completed), (.confirmed, .completed):
            return profile == .iosLegacy ? .allowed : .refused
        default:
            return .refused
        }
    }

    /// Completed and cancelled appointments only accept changes of their texts.
    static func isClosed(_ status: AppointmentStatus) -> Bool { status == .completed || status == .cancelled }
}
