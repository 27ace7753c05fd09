/// Column types per engine for the hand-written DDL (the migrations need partial and expression indexes and
/// CHECK constraints, which Fluent's schema builder cannot express on both engines).
public struct SchemaTypes: Sendable {
    public let uuid: String
    public let timestamp: String
    public let json: String
    public let bool: String
    public let double: String
    public let text: String
    public let int: String
    public let bigint: String
    public let `true`: String
    public let `false`: String

    public init(_ engine: DatabaseEngine) {
        switch engine {
        case .postgres:
            self.init(uuid: "UUID", timestamp: "TIMESTAMPTZ", json: "JSONB", bool: "BOOLEAN",
                      double: "DOUBLE PRECISION", text: "TEXT", int: "INTEGER", bigint: "BIGINT",
                      true: "TRUE", false: "FALSE")
        case .sqlite:
            self.init(uuid: "TEXT", timestamp: "REAL", json: "TEXT", bool: "INTEGER", double: "REAL", text: "TEXT",
                      int: "INTEGER", bigint: "INTEGER", true: "1", false: "0")
        }
    }

    init(uuid: String, timestamp: String, json: String, bool: String, double: String, text: String, int: String,
         bigint: String, true t: String, false f: String) {
        self.uuid = uuid; self.timestamp = timestamp; self.json = json; self.bool = bool; self.double = double
        self.text = text; self.int = int; self.bigint = bigint; self.true = t; self.false = f
    }
}
