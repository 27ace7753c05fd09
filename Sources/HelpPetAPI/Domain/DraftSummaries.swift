import AppCore

/// Draft summaries are machine-written and unapproved: staff see them, pet owners never do (contract §5.1). The
/// rule covers every summary a visit carries: its own and those of its `previous_recordings` entries, which keep
/// the `summary_status` of the recording they were (issue 12, item 8).
enum DraftSummaries {
    static func isDraft(_ object: [String: JSONValue]) -> Bool { object["summary_status"] == .string("draft") }

    /// A visit's metadata as a pet owner sees it: each previous recording's draft summary is null.
    static func hidden(in metadata: [String: JSONValue]) -> [String: JSONValue] {
        guard case .array(let entries)? = metadata["previous_recordings"] else { return metadata }
        var shown = metadata
        shown["previous_recordings"] = .array(entries.map { entry in
            guard case .object(var fields) = entry, isDraft(fields), fields["summary"] != nil else { return entry }
            fields["summary"] = .null
            return .object(fields)
        })
        return shown
    }
}
