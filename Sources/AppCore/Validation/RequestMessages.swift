/// The wording and the few reading rules in which one product's contract answers a bad request, kept as data so
/// that one `FieldReader` and one `QueryParameters` serve both products. HelpPet (§1.7) names the field first
/// (`name must be a string`, `name is required`); AutoDetail Hub (§1.5) labels it (`Invalid field: name (must be a
/// string)`, `Missing required fields: a, b`) and reads blank query values as missing.
public struct RequestMessages: Sendable {
    /// A body field with a bad value: `(field, reason)`.
    public let invalidField: @Sendable (String, String) -> String
    /// Required body fields that are missing, in the order asked for.
    public let missingFields: @Sendable ([String]) -> String
    /// A query parameter with a bad value: `(parameter, reason)`.
    public let invalidParameter: @Sendable (String, String) -> String
    /// Required query parameters that are missing.
    public let missingParameters: @Sendable ([String]) -> String
    /// The reason given for an explicit `null` where none is allowed.
    public let nullReason: String
    /// True when a query value that is blank after trimming counts as absent (and values are trimmed).
    public let blankParameterIsMissing: Bool
    /// The `date` query parameter (a calendar day) did not parse: `(parameter) -> message`.
    public let invalidDayParameter: @Sendable (String) -> String
    /// Query booleans: whether only the exact `true`/`false` are accepted, and the reason otherwise.
    public let strictBooleanParameters: Bool
    public let booleanParameterReason: String
    /// `offset`'s upper bound; `nil` for none. A bounded offset (and a non-integer limit or offset) answers with
    /// the range as the reason; an unbounded one says `must be an integer` / `must be at least 0`.
    public let maxOffset: Int?
    /// A body that is not strict JSON or not an object, in `Request.limitedJSONObject`.
    public let invalidJSONBody: String

    /// HelpPet (`/api/v1`, contract §1.7).
    public static let helpPet = RequestMessages(
        invalidField: { "\($0) \($1)" },
        missingFields: { "\($0.first ?? "field") is required" },
        invalidParameter: { "\($0) \($1)" },
        missingParameters: { "\($0.first ?? "parameter") is required" },
        nullReason: "cannot be null",
        blankParameterIsMissing: false,
        invalidDayParameter: { _ in "Invalid date format. Use YYYY-MM-DD" },
        strictBooleanParameters: false,
        booleanParameterReason: "must be true or false",
        maxOffset: nil,
        invalidJSONBody: "Malformed JSON body")

    /// AutoDetail Hub (`/api`, contract §1.5 and §1.8).
    public static let autoDetail = RequestMessages(
        invalidField: { "Invalid field: \($0) (\($1))" },
        missingFields: { "Missing required fields: " + $0.joined(separator: ", ") },
        invalidParameter: { "Invalid parameter: \($0) (\($1))" },
        missingParameters: { "Missing required parameters: " + $0.joined(separator: ", ") },
        nullReason: "must not be null",
        blankParameterIsMissing: true,
        invalidDayParameter: { "Invalid parameter: \($0) (must be a date YYYY-MM-DD)" },
        strictBooleanParameters: true,
        booleanParameterReason: "must be a boolean",
        maxOffset: 2_147_483_647,
        invalidJSONBody: "Invalid JSON body")
}
