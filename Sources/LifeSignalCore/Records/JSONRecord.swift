/// The JSON coders of the record schema: how events and a device's folded state look in the
/// circle's logs. The writer appends compact JSON straight to one buffer — byte for byte what
/// `JSON.serialized(pretty: false)` gives for the same fields — and the reader checks every
/// field of a parsed file, naming the JSON path of whatever is wrong.

/// Writes records as compact JSON: `{"key":value,…}`.
public struct JSONRecordWriter: FieldCoder {
    public typealias Failure = CannotFail
    public static var reads: Bool { false }
    public static var sortsEntries: Bool { true }

    public var bytes: [UInt8]
    /// True until the current record has a field (no comma before the first).
    private var empty = true

    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Records and raw text

    public mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        empty = true
    }

    public mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    /// JSON text as it was read, written back unchanged (a record this version does not know).
    public mutating func raw(_ text: [UInt8]) {
        bytes.append(contentsOf: text)
        empty = false
    }

    /// A field of the current record whose value is JSON text as it was read.
    public mutating func rawField(_ key: String, _ text: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: text)
    }

    /// Opens an event's record with the fields every event has.
    mutating func envelope(seq: Int64, at: Timestamp, clock: Int64, type: String) {
        open()
        key("seq")
        number(seq)
        key("at")
        JSON.writeString(at.rfc3339, to: &bytes)
        key("clock")
        number(clock)
        key("type")
        JSON.writeString(type, to: &bytes)
    }

    /// Starts a field of the current record: its key; the value is written next.
    public mutating func key(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSON.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func number(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }

    private mutating func null(_ key: String, _ when: Optionality) {
        if when != .omitted {
            self.key(key)
            bytes.append(contentsOf: "null".utf8)
        }
    }

    // MARK: FieldCoder

    public mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>) {
        self.key(key)
        number(value)
    }

    public mutating func optionalInt(
        _ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality
    ) {
        guard let value else { return null(key, when) }
        self.key(key)
        number(value)
    }

    public mutating func bool(_ key: String, _ value: inout Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func string(_ key: String, _ value: inout String) {
        self.key(key)
        JSON.writeString(value, to: &bytes)
    }

    public mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality) {
        guard let value else { return null(key, when) }
        self.key(key)
        JSON.writeString(value, to: &bytes)
    }

    public mutating func strings(_ key: String, _ value: inout [String]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (i, text) in value.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSON.writeString(text, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func id(_ key: String, _ value: inout String) { string(key, &value) }

    public mutating func stamp(_ value: inout Stamp) {
        key("at")
        JSON.writeString(value.at.rfc3339, to: &bytes)
        key("clock")
        number(value.clock)
        key("seq")
        number(value.seq)
    }

    public mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout JSONRecordWriter, inout T) throws(CannotFail) -> Void
    ) throws(CannotFail) {
        guard var record = value else { return null(key, when) }
        self.key(key)
        open()
        try fields(&self, &record)
        close()
    }

    public mutating func list(
        _ key: String, count: Int, omitEmpty: Bool,
        _ element: (inout JSONRecordWriter, Int, Int) throws(CannotFail) -> Void
    ) throws(CannotFail) {
        if count == 0, omitEmpty { return }
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            open()
            try element(&self, index, count)
            close()
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

/// Reads records from a parsed file, checking every field; errors carry the JSON path.
public struct JSONRecordReader: FieldCoder {
    public typealias Failure = JSONShapeError
    public static var reads: Bool { true }
    public static var sortsEntries: Bool { false }

    private var object: JSONObjectCursor
    /// The device whose log this is: every stamp in a log is its own.
    private let device: String
    /// How deep in nested records the description is (0: the outermost).
    private var depth = 0
    /// The keys the description looked up in the outermost record, when counted, and how
    /// many of them were there.
    private var consulted: [String]?
    private var found = 0

    public init(_ object: JSONObjectCursor, device: String) {
        self.object = object
        self.device = device
    }

    /// The value under `key`; nil when it is missing or null, unless it is required.
    private mutating func find(_ key: String, _ when: Optionality) throws(JSONShapeError) -> JSONCursor? {
        let cursor = when == .required ? try object.required(key) : object.optional(key)
        if depth == 0, consulted != nil {
            consulted?.append(key)
            if cursor != nil { found += 1 }
        }
        return cursor
    }

    private func failure(_ key: String, _ problem: String) -> JSONShapeError {
        JSONCursor(.null, parent: object.node, step: .key(key)).fail(problem)
    }

    // MARK: FieldCoder

    public mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>)
        throws(JSONShapeError)
    {
        var read: Int64? = value
        try optionalInt(key, &read, in: range, .required)
        if let read { value = read }
    }

    public mutating func optionalInt(
        _ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality
    ) throws(JSONShapeError) {
        guard let cursor = try find(key, when) else {
            value = nil
            return
        }
        let number = try cursor.int()
        guard range.contains(number) else {
            throw cursor.fail("must be from \(range.lowerBound) to \(range.upperBound)")
        }
        value = number
    }

    public mutating func bool(_ key: String, _ value: inout Bool) throws(JSONShapeError) {
        value = try find(key, .required)?.bool() ?? value
    }

    public mutating func string(_ key: String, _ value: inout String) throws(JSONShapeError) {
        value = try find(key, .required)?.string() ?? value
    }

    public mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality)
        throws(JSONShapeError)
    {
        value = try find(key, when)?.string()
    }

    public mutating func strings(_ key: String, _ value: inout [String]) throws(JSONShapeError) {
        guard let cursor = try find(key, .required) else { return }
        value = try cursor.array().map { c throws(JSONShapeError) in try c.string() }
    }

    public mutating func id(_ key: String, _ value: inout String) throws(JSONShapeError) {
        guard let cursor = try find(key, .required) else { return }
        value = try cursor.id()
    }

    public mutating func stamp(_ value: inout Stamp) throws(JSONShapeError) {
        value.device = device
        try int("clock", &value.clock, in: 0...Limits.counter)
        try int("seq", &value.seq, in: 1...Limits.counter)
        guard let at = try find("at", .required) else { return }
        value.at = try at.timestamp()
    }

    public mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout JSONRecordReader, inout T) throws(JSONShapeError) -> Void
    ) throws(JSONShapeError) {
        guard let cursor = try find(key, when) else {
            value = nil
            return
        }
        let outer = object
        object = try cursor.object()
        depth += 1
        var record = seed()
        try fields(&self, &record)
        depth -= 1
        object = outer
        value = record
    }

    public mutating func list(
        _ key: String, count: Int, omitEmpty: Bool,
        _ element: (inout JSONRecordReader, Int, Int) throws(JSONShapeError) -> Void
    ) throws(JSONShapeError) {
        guard let cursor = try find(key, omitEmpty ? .omitted : .required) else { return }
        let elements = try cursor.array()
        let outer = object
        depth += 1
        for (index, entry) in elements.enumerated() {
            object = try entry.object()
            try element(&self, index, elements.count)
        }
        depth -= 1
        object = outer
    }

    public mutating func check(
        _ condition: @autoclosure () -> Bool, _ key: String, _ problem: @autoclosure () -> String
    )
        throws(JSONShapeError)
    {
        guard condition() else { throw failure(key, problem()) }
    }
}

// MARK: - Events and state in a log

extension JSONRecordWriter {
    /// One event as a log stores it.
    public mutating func event(_ event: Event) {
        event.body.writeJSON(seq: event.seq, at: event.at, clock: event.clock, to: &self)
    }

    /// The fold of `member`'s device as a log's `state`, followed by `kept`: fields a newer
    /// lifesignal wrote there, as they were read.
    public mutating func state(_ circle: CircleState, member: String, kept: [RawJSONField]) {
        open()
        var fields = circle
        writing { () throws(CannotFail) in try fields.code(&self, member: member) }
        for field in kept { rawField(field.key, field.text) }
        close()
    }
}

extension JSONRecordReader {
    /// Reads one event. A type this version does not know is not an error: it gives an
    /// `UnknownEvent` holding the event's text, which `raw` supplies.
    public static func event(_ cursor: JSONCursor, raw: () -> [UInt8]) throws(JSONShapeError) -> Event {
        let o = try cursor.object()
        let seqCursor = try o.required("seq")
        let seq = try seqCursor.int()
        guard seq > 0, seq <= Limits.counter else { throw seqCursor.fail("must be from 1 to \(Limits.counter)") }
        let at = try o.required("at").timestamp()
        let clockCursor = try o.required("clock")
        let clock = try clockCursor.int()
        guard clock >= 0 else { throw clockCursor.fail("must not be negative") }
        let type = try o.required("type").string()
        let body: any EventBody
        if let known = EventTypes.named(type) {
            var reader = JSONRecordReader(o, device: "")
            body = try known.readJSON(from: &reader)
        } else {
            body = UnknownEvent(type: type, raw: raw())
        }
        return Event(seq: seq, at: at, clock: clock, body: body)
    }

    /// Reads a log's `state`: the fold of `member`'s device `device`. Also returns the keys
    /// this version does not know (written by a newer one), so that they can be kept.
    public static func state(_ cursor: JSONCursor, member: String, device: String) throws(JSONShapeError)
        -> (state: CircleState, unknownKeys: [String])
    {
        let o = try cursor.object()
        var reader = JSONRecordReader(o, device: device)
        reader.consulted = []
        var state = CircleState()
        try state.code(&reader, member: member)
        // Every key was one the description reads: the common case, told without a search.
        guard o.object.pairs.count > reader.found else { return (state, []) }
        let known = reader.consulted ?? []
        return (state, o.object.pairs.map(\.key).filter { !known.contains($0) })
    }
}

/// A field this version does not know, kept as its JSON text was read.
public struct RawJSONField: Equatable, Sendable {
    public var key: String
    public var text: [UInt8]

    public init(key: String, text: [UInt8]) {
        self.key = key
        self.text = text
    }
}

extension JSONCursor {
    /// A member, device or other lifesignal id (checked: ids end up in paths).
    public func id() throws(JSONShapeError) -> String {
        let text = try string()
        guard Identifier.isValid(text) else { throw fail("\"\(text)\" is not a lifesignal id") }
        return text
    }
}
