import AppCore
import Foundation

/// A vet's correction of a drafted clinical note before approval (`PUT /api/v1/visit-transcripts/{id}/note`, and the
/// console's "Correct the note" form, which calls it). Every part is optional: a part left out stays as drafted.
///
///     {"sections": {"plan": "Start carprofen 50 mg twice daily."},
///      "vitals": {"weight": {"value": 4.5, "unit": "kg"}, "heart_rate": null},
///      "medications": [{"name": "carprofen", "brand": "Rimadyl", "dose": 50, "unit": "mg", "frequency": "twice daily"}],
///      "follow_up": {"interval_days": 14, "reason": "recheck"}}
///
/// `sections` replaces a section's sentences; `medications` replaces the whole list (so a drug can be removed);
/// `null` removes a vital or the follow-up. What the vet changed is kept in `metadata.note_corrections`, each entry
/// with the parts before and after, so the draft the recording gave is never lost. A sentence or medication the vet
/// kept keeps its audio sources; a new one has none, which is how the console shows it was typed, not heard.
/// Pure: values in, values out.
struct NoteCorrection: Sendable {
    static let units = ["mg", "mg/kg", "mcg", "ml", "g", "units", "tablet", "capsule", "drop"]
    static let routes = ["oral", "subcutaneous", "intramuscular", "intravenous", "topical", "otic", "ophthalmic"]
    static let vitalUnits: [(key: String, units: [String], max: Double)] = [
        ("temperature", ["°F", "°C"], 120), ("weight", ["kg", "lb"], 2_000), ("heart_rate", ["bpm"], 500),
        ("respiratory_rate", ["breaths/min"], 300),
    ]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let updatableKeys = ["sections", "vitals", "medications", "follow_up"]

    var sections: [String: String]?
    /// A vital's key → its new measurement, or nil to remove it.
    var vitals: [String: [String: JSONValue]?]?
    var medications: [[String: JSONValue]]?
    var followUp: FieldPatch<[String: JSONValue]> = .absent

    /// Validates the body; every message names the field (`medications[1].dose …`).
    init(_ body: [String: JSONValue]) throws {
        let fields = FieldReader(body)
        guard fields.containsAny(of: Self.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        if let raw = try fields.optionalObject("sections").valueIfPresent {
            var read: [String: String] = [:]
            for (key, value) in raw {
                guard case .string(let text) = value else { throw fields.invalid("sections.\(key)", "must be a string") }
                read[key] = try FieldReader.checkString(text, field: "sections.\(key)", trim: true, min: 0, max: 10_000)
            }
            sections = read
        }
        if let raw = try fields.optionalObject("vitals").valueIfPresent {
            var read: [String: [String: JSONValue]?] = [:]
            for (key, value) in raw {
                guard let rule = Self.vitalUnits.first(where: { $0.key == key }) else {
                    throw APIError.badRequest(
                        "Unknown vital: '\(key)'. Allowed: " + Self.vitalUnits.map(\.key).joined(separator: ", "))
                }
                if value.isNull { read[key] = .some(nil); continue }
                guard case .object(let measurement) = value else { throw fields.invalid("vitals.\(key)", "must be an object or null") }
                read[key] = try Self.measurement(measurement, field: "vitals.\(key)", units: rule.units, max: rule.max)
            }
            vitals = read
        }
        if let raw = try fields.optionalArray("medications") {
            guard raw.count <= 30 else { throw fields.invalid("medications", "must have at most 30 items") }
            medications = try raw.enumerated().map { index, item in
                guard case .object(let object) = item else {
                    throw fields.invalid("medications[\(index)]", "must be an object")
                }
                return try Self.medication(object, field: "medications[\(index)]")
            }
        }
        switch try fields.optionalObject("follow_up", nullable: true) {
        case .absent: followUp = .absent
        case .null: followUp = .null
        case .value(let object): followUp = .value(try Self.followUp(object))
        }
    }

    /// The corrected note and the parts that changed (`field`, `before`, `after`), or a 400 when a section key is not
    /// one of the note's.
    func apply(to note: [String: JSONValue]) throws -> (note: [String: JSONValue], changes: [JSONValue]) {
        let draftedMedications = note["medications"]?.arrayValue ?? []
        var note = note
        var changes: [JSONValue] = []
        func record(_ field: String, _ before: JSONValue?, _ after: JSONValue?) {
            guard before?.numbersAsDoubles != after?.numbersAsDoubles else { return }
            changes.append(.object(["field": .string(field), "before": before ?? .null, "after": after ?? .null]))
        }
        if let sections {
            guard case .array(var list)? = note["sections"] else {
                throw APIError.badRequest("This note has no sections to correct")
            }
            for key in sections.keys.sorted() {
                guard let index = list.firstIndex(where: { $0.objectValue?["key"] == .string(key) }),
                    case .object(var section) = list[index]
                else {
                    let known = list.compactMap { $0.objectValue?["key"]?.stringValue }.joined(separator: ", ")
                    throw APIError.badRequest("Unknown note section: '\(key)'. Allowed: \(known)")
                }
                let before = section["sentences"]
                let after = Self.sentences(sections[key]!, keeping: before)
                section["sentences"] = after
                list[index] = .object(section)
                record("sections.\(key)", Self.plainText(before), Self.plainText(after))
            }
            note["sections"] = .array(list)
        }
        if let vitals {
            var current = note["vitals"]?.objectValue ?? [:]
            for key in vitals.keys.sorted() {
                let before = current[key]
                let after: JSONValue? = vitals[key]!.map { .object(Self.keepingSources($0, of: before)) }
                current[key] = after
                record("vitals.\(key)", before.map(Self.withoutSources), after.map(Self.withoutSources))
            }
            note["vitals"] = .object(current)
        }
        if let medications {
            let before: [JSONValue] = note["medications"]?.arrayValue ?? []
            let after = medications.map { medication -> JSONValue in
                // A drug the draft named keeps the draft's audio sources (the "play" link in the console).
                let drafted = before.first { $0.objectValue?["name"] == medication["name"] }
                return .object(Self.keepingSources(medication, of: drafted))
            }
            note["medications"] = .array(after)
            record("medications", .array(before.map(Self.withoutSources)), .array(after.map(Self.withoutSources)))
        }
        switch followUp {
        case .absent: break
        case .null:
            record("follow_up", note["follow_up"].map(Self.withoutSources), nil)
            note["follow_up"] = nil
        case .value(var object):
            let before = note["follow_up"]
            // Wording left as drafted while the time changed would contradict the new time: it is written anew.
            let timing = ["interval_days", "date", "weekday"]
            let drafted = before?.objectValue ?? [:]
            let retimed = timing.contains { object[$0]?.numbersAsDoubles != drafted[$0]?.numbersAsDoubles }
            if object["text"] == nil, !retimed, let draftedText = drafted["text"] {
                object["text"] = draftedText
            } else if object["text"] == nil || (retimed && object["text"] == drafted["text"]) {
                object["text"] = .string(Self.followUpText(object))
            }
            let after = JSONValue.object(Self.keepingSources(object, of: before))
            note["follow_up"] = after
            record("follow_up", before.map(Self.withoutSources), Self.withoutSources(after))
        }
        if !changes.isEmpty {
            let earlier = (note["flags"]?.arrayValue ?? []).filter {
                $0.objectValue?["kind"]?.stringValue != Self.disagreementFlag
            }
            note["flags"] = .array(earlier + Self.disagreements(in: note, drafted: draftedMedications))
        }
        return (note, changes)
    }

    static let disagreementFlag = "sentence_disagrees"

    /// A dose corrected in the medication list while a sentence of the note still says the drafted dose: the note
    /// would say two things, so the vet is asked to look ("Check before approving") instead of the server rewriting
    /// the vet's sentences.
    static func disagreements(in note: [String: JSONValue], drafted: [JSONValue]) -> [JSONValue] {
        let sentences = (note["sections"]?.arrayValue ?? []).flatMap { $0.objectValue?["sentences"]?.arrayValue ?? [] }
            .compactMap { $0.objectValue?["text"]?.stringValue }
        var flags: [JSONValue] = []
        for medication in note["medications"]?.arrayValue ?? [] {
            guard let object = medication.objectValue, let name = object["name"]?.stringValue,
                let before = drafted.first(where: { $0.objectValue?["name"]?.stringValue == name })?.objectValue,
                case .number(let old)? = before["dose"]?.numbersAsDoubles,
                object["dose"]?.numbersAsDoubles != .number(old)
            else { continue }
            let oldText = StoredClinicalNote.format(old)
            let names = [name, object["brand"]?.stringValue].compactMap { $0?.lowercased() }
            for sentence in sentences {
                let lower = sentence.lowercased()
                guard names.contains(where: { lower.contains($0) }), Self.containsNumber(oldText, in: lower) else { continue }
                let now = StoredClinicalNote.amount(
                    object["dose"]?.numbersAsDoubles.doubleValue, object["dose_max"]?.numbersAsDoubles.doubleValue,
                    object["unit"]?.stringValue) ?? "no dose"
                flags.append(.object([
                    "kind": .string(disagreementFlag),
                    "message": .string("“\(sentence)” still says \(oldText) for \(name); the medication list says \(now). "
                        + "Correct the sentence too, or the note says both."),
                    "sources": .array([]),
                ]))
            }
        }
        return flags
    }

    /// `number` standing alone in `text` ("2.5" in "2.5 mg", not in "12.5 mg").
    static func containsNumber(_ number: String, in text: String) -> Bool {
        var start = text.startIndex
        while let range = text.range(of: number, range: start..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let isDigitish: (Character?) -> Bool = { $0.map { $0.isNumber || $0 == "." } ?? false }
            if !isDigitish(before) && !(isDigitish(after) && after != "." ) { return true }
            start = range.upperBound
        }
        return false
    }

    /// `metadata.note_corrections` with one more entry (nothing is appended when nothing changed).
    static func history(_ metadata: [String: JSONValue], adding changes: [JSONValue], by userID: UUID, at now: Date)
        -> JSONValue
    {
        var entries = metadata["note_corrections"]?.arrayValue ?? []
        entries.append(.object([
            "corrected_by": .string(userID.lowercased), "corrected_at": .string(WireTime.format(now)),
            "changes": .array(changes),
        ]))
        return .array(entries)
    }

    // MARK: Reading the parts

    private static func measurement(_ object: [String: JSONValue], field: String, units: [String], max: Double) throws
        -> [String: JSONValue]
    {
        let fields = FieldReader(object)
        guard case .value(let value) = try fields.optionalPositiveNumber("value", max: max, nullable: false) else {
            throw APIError.badRequest("\(field).value is required")
        }
        let unit = try fields.requiredString("unit", max: 20)
        guard units.contains(unit) else {
            throw APIError.badRequest("Invalid \(field).unit: '\(unit)'. Allowed: \(units.joined(separator: ", "))")
        }
        return ["value": .number(value), "unit": .string(unit)]
    }

    private static func medication(_ object: [String: JSONValue], field: String) throws -> [String: JSONValue] {
        let fields = FieldReader(object)
        func text(_ key: String, max: Int) throws -> String? {
            guard let raw = object[key], !raw.isNull else { return nil }
            guard case .string(let s) = raw else { throw APIError.badRequest("\(field).\(key) must be a string") }
            let value = try FieldReader.checkString(s, field: "\(field).\(key)", trim: true, min: 0, max: max)
            return value.isEmpty ? nil : value
        }
        func choice(_ key: String, _ allowed: [String]) throws -> String? {
            guard let value = try text(key, max: 40) else { return nil }
            guard allowed.contains(value) else {
                throw APIError.badRequest("Invalid \(field).\(key): '\(value)'. Allowed: \(allowed.joined(separator: ", "))")
            }
            return value
        }
        guard let name = try text("name", max: 100) else { throw APIError.badRequest("\(field).name is required") }
        var result: [String: JSONValue] = ["name": .string(name.lowercased())]
        if let brand = try text("brand", max: 100) { result["brand"] = .string(brand) }
        for key in ["dose", "dose_max"] {
            do {
                if case .value(let amount) = try fields.optionalPositiveNumber(key, max: 100_000) {
                    result[key] = .number(amount)
                }
            } catch { throw APIError.badRequest("\(field).\(key) must be greater than 0 and at most 100000") }
        }
        if result["dose_max"] != nil && result["dose"] == nil {
            throw APIError.badRequest("\(field).dose_max needs a dose")
        }
        if case .number(let low)? = result["dose"], case .number(let high)? = result["dose_max"], high <= low {
            throw APIError.badRequest("\(field).dose_max must be greater than dose")
        }
        if let unit = try choice("unit", units) { result["unit"] = .string(unit) }
        if let route = try choice("route", routes) { result["route"] = .string(route) }
        if let frequency = try text("frequency", max: 100) { result["frequency"] = .string(frequency) }
        if let duration = try text("duration", max: 100) { result["duration"] = .string(duration) }
        return result
    }

    private static func followUp(_ object: [String: JSONValue]) throws -> [String: JSONValue] {
        let fields = FieldReader(object)
        var result: [String: JSONValue] = [:]
        do {
            if case .value(let days) = try fields.optionalInteger("interval_days", range: 1...730, nullable: true) {
                result["interval_days"] = .integer(days)
            }
        } catch { throw APIError.badRequest("follow_up.interval_days must be an integer between 1 and 730") }
        // An empty date is no date, like the empty texts below (a form sends "" for a field left blank).
        if object["date"] != .string(""), case .value(let day) = try fields.optionalDay("date") {
            result["date"] = .string(day.description)
        }
        for (key, max) in [("weekday", 20), ("reason", 200), ("text", 500)] {
            guard let raw = object[key], !raw.isNull else { continue }
            guard case .string(let s) = raw else { throw APIError.badRequest("follow_up.\(key) must be a string") }
            let value = try FieldReader.checkString(s, field: "follow_up.\(key)", trim: true, min: 0, max: max)
            if !value.isEmpty { result[key] = .string(key == "weekday" ? value.lowercased() : value) }
        }
        if let weekday = result["weekday"]?.stringValue, !weekdays.contains(weekday) {
            throw APIError.badRequest("Invalid follow_up.weekday: '\(weekday)'. Allowed: \(weekdays.joined(separator: ", "))")
        }
        guard result["interval_days"] != nil || result["date"] != nil || result["weekday"] != nil else {
            throw APIError.badRequest("follow_up needs interval_days, date or weekday (or null for no follow-up)")
        }
        return result
    }

    /// "Come back in 14 days for recheck.": the line the summary and the records show when the vet typed no
    /// wording of their own.
    private static func followUpText(_ followUp: [String: JSONValue]) -> String {
        var when: String
        if case .integer(let days)? = followUp["interval_days"] {
            when = "in \(days) day\(days == 1 ? "" : "s")"
        } else if let weekday = followUp["weekday"]?.stringValue {
            when = "on " + weekday.prefix(1).uppercased() + weekday.dropFirst()
        } else {
            when = "on " + (followUp["date"]?.stringValue ?? "the date set")
        }
        let reason = followUp["reason"]?.stringValue.map { " for \($0)" } ?? ""
        return "Come back \(when)\(reason)."
    }

    // MARK: Sources

    /// The section's new sentences: one per sentence of `text`; a sentence the draft had word for word keeps its audio.
    private static func sentences(_ text: String, keeping before: JSONValue?) -> JSONValue {
        let drafted = before?.arrayValue ?? []
        return .array(split(text).map { sentence in
            let same = drafted.first { $0.objectValue?["text"] == .string(sentence) }
            return .object(["text": .string(sentence), "sources": same?.objectValue?["sources"] ?? .array([])])
        })
    }

    /// Sentences end at `.`, `!` or `?` followed by a space, or at a line break.
    static func split(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == "\n" {
                result.append(current); current = ""; continue
            }
            current.append(character)
            if ".!?".contains(character), index + 1 == characters.count || characters[index + 1] == " " {
                result.append(current); current = ""
            }
        }
        result.append(current)
        return result.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func plainText(_ sentences: JSONValue?) -> JSONValue? {
        let texts = (sentences?.arrayValue ?? []).compactMap { $0.objectValue?["text"]?.stringValue }
        return texts.isEmpty ? nil : .string(texts.joined(separator: " "))
    }

    private static func keepingSources(_ object: [String: JSONValue], of drafted: JSONValue?) -> [String: JSONValue] {
        var result = object
        result["sources"] = drafted?.objectValue?["sources"] ?? .array([])
        return result
    }

    private static func withoutSources(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object["sources"] = nil
        return .object(object)
    }
}
