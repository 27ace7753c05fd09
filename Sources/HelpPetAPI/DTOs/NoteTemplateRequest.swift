import AppCore
import Foundation

/// The body of `PUT /practices/{id}/note-templates/{key}` (ADMIN): the template's new title and sections, whole.
///
///     {"title": "SOAP", "sections": [{"key": "subjective", "title": "History", "hint": "…",
///                                    "collects": ["subjective"]}, …]}
///
/// 1 to 12 sections; a section key is 1–40 of `a-z 0-9 _` starting with a letter, unique in the template; a title
/// 1–60 characters, a hint up to 300; `collects` names one or more of subjective, objective, assessment, plan, and
/// every one of the four is collected by some section, so no sentence of a visit can fall out of a note.
struct NoteTemplateRequest {
    static let maxSections = 12

    let title: String
    let sections: [ClinicalNoteTemplate.Section]

    init(_ fields: FieldReader, defaultTitle: String) throws {
        title = try fields.optionalString("title", trim: true, min: 1, max: 60, nullable: false).valueIfPresent
            ?? defaultTitle
        guard let raw = try fields.optionalArray("sections") else { throw APIError.badRequest("sections is required") }
        guard (1...Self.maxSections).contains(raw.count) else {
            throw APIError.badRequest("sections must hold 1 to \(Self.maxSections) entries")
        }
        var keys = Set<String>()
        var sections: [ClinicalNoteTemplate.Section] = []
        for (index, value) in raw.enumerated() {
            guard case .object(let object) = value else {
                throw APIError.badRequest("sections[\(index)] must be an object")
            }
            let section = try Self.section(object, at: "sections[\(index)]")
            guard keys.insert(section.key).inserted else {
                throw APIError.badRequest("sections[\(index)].key \(section.key) is used twice")
            }
            sections.append(section)
        }
        let collected = Set(sections.flatMap(\.collects))
        if let missing = ClinicalNoteTemplate.roles.first(where: { !collected.contains($0) }) {
            throw APIError.badRequest("No section collects \(missing): every one of subjective, objective, assessment and plan needs a section")
        }
        self.sections = sections
    }

    static func section(_ object: [String: JSONValue], at path: String) throws -> ClinicalNoteTemplate.Section {
        func string(_ key: String, min: Int, max: Int) throws -> String? {
            guard let raw = object[key], !raw.isNull else { return nil }
            guard case .string(let text) = raw else { throw APIError.badRequest("\(path).\(key) must be a string") }
            return try FieldReader.checkString(text, field: "\(path).\(key)", trim: true, min: min, max: max)
        }
        guard let key = try string("key", min: 1, max: 40) else { throw APIError.badRequest("\(path).key is required") }
        guard key.first.map({ $0 >= "a" && $0 <= "z" }) == true,
            key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else {
            throw APIError.badRequest("\(path).key must be lower-case letters, digits and _ and start with a letter")
        }
        guard let title = try string("title", min: 1, max: 60) else {
            throw APIError.badRequest("\(path).title is required")
        }
        let hint = try string("hint", min: 0, max: 300) ?? ""
        guard case .array(let collectsRaw)? = object["collects"], !collectsRaw.isEmpty else {
            throw APIError.badRequest("\(path).collects must name at least one of subjective, objective, assessment, plan")
        }
        var collects: [String] = []
        for value in collectsRaw {
            guard case .string(let role) = value, ClinicalNoteTemplate.roles.contains(role) else {
                throw APIError.badRequest("\(path).collects may only hold subjective, objective, assessment, plan")
            }
            if !collects.contains(role) { collects.append(role) }
        }
        return .init(key: key, title: title, hint: hint, collects: collects)
    }
}
