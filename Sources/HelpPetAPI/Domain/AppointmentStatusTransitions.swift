/// The appointment status table of contract §5.2, plus `scheduled`/`confirmed` → `completed`: the iPhone app's
/// status picker offers it and clinics use it when the vet forgot to press start (docs/iphone-app-compatibility.md).
enum AppointmentStatusTransitions {
    enum Outcome: Equatable { case noOp, allowed, refused }

    static func outcome(from: AppointmentStatus, to: AppointmentStatus) -> Outcome {
        if from == to { return .noOp }
        switch (from, to) {
        case (.scheduled, .confirmed), (.scheduled, .inProgress), (.scheduled, .cancelled),
            (.confirmed, .inProgress), (.confirmed, .cancelled),
            (.inProgress, .completed), (.inProgress, .cancelled),
            (.scheduled, .completed), (.confirmed, .completed):
            return .allowed
        default:
            return .refused
        }
    }

    /// Completed and cancelled appointments only accept changes of their texts.
    static func isClosed(_ status: AppointmentStatus) -> Bool { status == .completed || status == .cancelled }
}
