/// The shape of a described record: every field a reader reads, in order, with its key, its
/// kind, its bounds and whether it may be missing; records and lists with the shape of what
/// they hold. Two descriptions have the same shape exactly when a file written by one is read
/// by the other field for field, so a format named after the shape of its records changes
/// whenever a field does (see `Store`'s cache, which derives its format id from it).
///
/// It runs a description as a reader does (`reads` is true): a reader's path is the format,
/// whatever the values, and each list's element is described once.
public struct SchemaShape: FieldCoder {
    public typealias Failure = CannotFail
    public static var reads: Bool { true }
    public static var sortsEntries: Bool { false }

    /// The shape as text, one field after another.
    public private(set) var text = ""

    public init() {}

    /// The shape of `describe`'s fields.
    public static func of(_ describe: (inout SchemaShape) throws(CannotFail) -> Void) -> String {
        var shape = SchemaShape()
        writing { () throws(CannotFail) in try describe(&shape) }
        return shape.text
    }

    private mutating func field(_ kind: String, _ key: String, _ detail: String = "") {
        text += "\(key):\(kind)\(detail);"
    }

    private static func missing(_ when: Optionality) -> String {
        switch when {
        case .required: ""
        case .omitted: "?omitted"
        case .null: "?null"
        }
    }

    public mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>) {
        field("int", key, "[\(range.lowerBound),\(range.upperBound)]")
    }

    public mutating func optionalInt(
        _ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality
    ) {
        field("int", key, "[\(range.lowerBound),\(range.upperBound)]" + Self.missing(when))
    }

    public mutating func bool(_ key: String, _ value: inout Bool) { field("bool", key) }

    public mutating func string(_ key: String, _ value: inout String) { field("string", key) }

    public mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality) {
        field("string", key, Self.missing(when))
    }

    public mutating func strings(_ key: String, _ value: inout [String]) { field("strings", key) }

    public mutating func id(_ key: String, _ value: inout String) { field("id", key) }

    public mutating func stamp(_ value: inout Stamp) { field("stamp", "") }

    public mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout SchemaShape, inout T) throws(CannotFail) -> Void
    ) {
        field("record", key, Self.missing(when))
        text += "{"
        var record = seed()
        writing { () throws(CannotFail) in try fields(&self, &record) }
        text += "}"
    }

    public mutating func list(
        _ key: String, count: Int, omitEmpty: Bool, _ element: (inout SchemaShape, Int, Int) throws(CannotFail) -> Void
    ) {
        field("list", key, omitEmpty ? "?empty" : "")
        text += "["
        writing { () throws(CannotFail) in try element(&self, 0, 1) }
        text += "]"
    }
}

extension CircleState {
    /// The shape of the circle's state as the private cache keeps it: each member's state, then
    /// the facts between members (see `BinaryWriter.circle`).
    public static var shape: String {
        let members = SchemaShape.of { c throws(CannotFail) in
            var member = MemberEntry()
            try member.code(&c)
        }
        let facts = SchemaShape.of { c throws(CannotFail) in
            var circle = CircleState()
            try circle.codeFacts(&c)
        }
        return "members:[\(members)]facts:{\(facts)}"
    }
}
