import HelpPetAPI
import Transcription

extension NoteTemplate {
    /// HelpPet's template (the product decides which one a visit gets) in the form the worker's drafter reads. The
    /// two stay separate types because HelpPetAPI and Transcription do not import each other (docs/architecture.md).
    package init(_ template: ClinicalNoteTemplate) {
        self.init(
            key: template.key, version: template.version, title: template.title,
            sections: template.sections.map {
                .init(key: $0.key, title: $0.title, hint: $0.hint, collects: $0.collects.compactMap(Role.init(rawValue:)))
            })
    }
}
