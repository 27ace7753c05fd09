import AppCore

/// The status table of contract §5 ("admin" transitions; the client can only cancel, with a clock check).
enum StatusTransitions {
    enum Outcome: Equatable {
        case noOp
        case allowed
        case refused
    }

    static func admin(from: AppointmentStatus, to: AppointmentStatus) -> Outcome {
        if from == to { return .noOp }
        switch (from, to) {
        case (.new, .confirmed), (.new, .cancelled), (.confirmed, .in_progress), (.confirmed, .cancelled),
            (.in_progress, .done):
            return .allowed
        default:
            return .refused
        }
    }

    static func refusal(from: AppointmentStatus, to: AppointmentStatus) -> APIError {
        .conflict("Invalid status transition: \(from.rawValue) -> \(to.rawValue)")
    }
}
