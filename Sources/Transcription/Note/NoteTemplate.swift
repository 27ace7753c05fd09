import Foundation

/// The sections a note is drafted into. Each section says which kinds of sentence it collects, so a practice can
/// rename, reorder and re-hint sections without teaching the drafter anything: the drafter only knows the four roles.
/// Which template a visit gets (by appointment type, the practice's own versions) is the product's business
/// (HelpPetAPI's `NoteTemplates`); the server hands it to the worker with the job.
public struct NoteTemplate: Codable, Sendable, Equatable {
    /// What a sentence of a visit says, as the drafter reads it.
    public enum Role: String, Codable, Sendable, CaseIterable {
        /// History and what the owner reports.
        case subjective
        /// Examination findings and measurements.
        case objective
        /// The vet's reading of it: diagnosis, differentials.
        case assessment
        /// Treatment, medications, instructions, follow-up.
        case plan
    }

    public struct Section: Codable, Sendable, Equatable {
        public var key: String
        public var title: String
        /// What the section should hold, shown to the vet while reviewing.
        public var hint: String
        public var collects: [Role]

        public init(key: String, title: String, hint: String, collects: [Role]) {
            self.key = key
            self.title = title
            self.hint = hint
            self.collects = collects
        }
    }

    public var key: String
    public var version: Int
    public var title: String
    public var sections: [Section]

    public init(key: String, version: Int, title: String, sections: [Section]) {
        self.key = key
        self.version = version
        self.title = title
        self.sections = sections
    }

    /// The section a sentence of `role` goes to: the first that collects it, else the last section (nothing said
    /// is ever dropped from a draft).
    func sectionIndex(for role: Role) -> Int {
        sections.firstIndex { $0.collects.contains(role) } ?? (sections.count - 1)
    }
}
