import AppCore

/// Draft summaries are machine-written and unapproved: staff see them, pet owners never do (contract §5.1). The
/// rule covers every summary a visit carries: its own and those of its `previous_recordings` entries, which keep
/// the `summary_status` of the recording they were.
enum DraftSummaries {
    static func isDraft(_ object: [String: JSONValue]) -> Bool { object["summary_status"] == .string("draft") }

    /// A visit's metadata as a pet owner sees it: a draft's sectioned note (`clinical_note`) is null, and so
    /// is each previous recording's draft summary and note.
    static func hidden(in metadata: [String: JSONValue]) -> [String: JSONValue] {
        var shown = metadata
        if isDraft(metadata), metadata["clinical_note"] != nil { shown["clinical_note"] = .null }
        // The vet's corrections (with the draft's wrong values) are the practice's working record, not the owner's.
        shown["note_corrections"] = nil
        guard case .array(let entries)? = metadata["previous_recordings"] else { return shown }
        shown["previous_recordings"] = .array(entries.map { entry in
            guard case .object(var fields) = entry, isDraft(fields) else { return entry }
            if fields["summary"] != nil { fields["summary"] = .null }
            if fields["clinical_note"] != nil { fields["clinical_note"] = .null }
            return .object(fields)
        })
        return shown
    }
}
