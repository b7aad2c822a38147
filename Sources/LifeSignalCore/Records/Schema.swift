/// The record schema: each stored record — an event, the folded state — is described once,
/// by a `code` function that names its fields in order, and every file format is a coder that
/// runs that description.
///
/// The same description written out by `JSONRecordWriter` is a log's JSON, read back by
/// `JSONRecordReader` it is checked field by field, and run by `BinaryWriter` and
/// `BinaryReader` it is the private cache. So a field is added in one place and no format can
/// forget it; the tests round-trip every field through both.
///
/// The coders live in this module beside the descriptions on purpose: the compiler then
/// specialises each description for each coder (no generic dispatch, no generic metadata made
/// at run time), which `status` — a cache read on every run — depends on.
public protocol Schema {
    /// An empty value, for a reader to fill in.
    init()
    /// Runs `c` over every field, in the order they are stored.
    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure)
}

/// Whether a value may be missing, and how a missing one is written.
public enum Optionality: Sendable {
    /// Never missing: a reader refuses a record without it.
    case required
    /// Left out when nil.
    case omitted
    /// Written as null when nil.
    case null
}

/// A reader or writer of records. A description calls the same methods whatever the
/// direction: a writer takes each value from the `inout` argument and puts it out, a reader
/// overwrites the argument with what it read (and checks it). Keys matter to JSON only; the
/// binary cache keeps the order alone.
public protocol FieldCoder {
    associatedtype Failure: Error
    /// True for readers, which fill values in; false for writers.
    static var reads: Bool { get }
    /// True when the entries of a collection are written in key order (JSON: the same state
    /// gives the same file); false when any order will do (the cache).
    static var sortsEntries: Bool { get }

    /// A whole number in `range`.
    mutating func int(_ key: String, _ value: inout Int64, in range: ClosedRange<Int64>) throws(Failure)
    mutating func optionalInt(_ key: String, _ value: inout Int64?, in range: ClosedRange<Int64>, _ when: Optionality)
        throws(Failure)
    mutating func bool(_ key: String, _ value: inout Bool) throws(Failure)
    mutating func string(_ key: String, _ value: inout String) throws(Failure)
    mutating func optionalString(_ key: String, _ value: inout String?, _ when: Optionality) throws(Failure)
    mutating func strings(_ key: String, _ value: inout [String]) throws(Failure)
    /// A member, device or other id: it ends up in paths, so a reader checks its form.
    mutating func id(_ key: String, _ value: inout String) throws(Failure)
    /// The stamp of the event that set a value. Its fields belong to the enclosing record; in
    /// a log the device is the log's own and is not written.
    mutating func stamp(_ value: inout Stamp) throws(Failure)
    /// A record inside this one, described by `fields`. A reader starts from `seed()`.
    mutating func record<T>(
        _ key: String, _ value: inout T?, _ when: Optionality, seed: @autoclosure () -> T,
        _ fields: (inout Self, inout T) throws(Failure) -> Void
    ) throws(Failure)
    /// A list of `count` records (a writer's count; a reader finds its own), each described
    /// by one call of `element` with its index and the list's length. An empty list is left
    /// out when `omitEmpty`.
    mutating func list(
        _ key: String, count: Int, omitEmpty: Bool,
        _ element: (inout Self, _ index: Int, _ count: Int) throws(Failure) -> Void
    ) throws(Failure)
    /// A reader fails with `problem` at `key` unless `condition` holds; a writer checks nothing.
    mutating func check(_ condition: @autoclosure () -> Bool, _ key: String, _ problem: @autoclosure () -> String)
        throws(Failure)
}

/// The failure of a writer, which has none: writers' descriptions run through `writing`.
public enum CannotFail: Error {}

extension FieldCoder where Failure == CannotFail {
    /// A writer checks nothing.
    public mutating func check(
        _ condition: @autoclosure () -> Bool, _ key: String, _ problem: @autoclosure () -> String
    ) {}
}

/// Runs a writer over a description: it cannot fail.
func writing<T>(_ body: () throws(CannotFail) -> T) -> T {
    switch Result(catching: body) {
    case .success(let value): return value
    }
}

/// The limits every stored number is held to, in the logs and in the cache alike.
public enum Limits {
    /// The largest sequence number, clock or count a file may hold (2^53, the largest integer
    /// every JSON reader keeps exact). Appending adds to these, so a hand-edited or damaged
    /// Int64.max must be refused as damage rather than trap on overflow later.
    public static var counter: Int64 { 1 << 53 }
    /// The longest interval or reminder a file may hold (a century).
    public static var span: Int64 { 100 * 366 * 86_400 }
}

// MARK: - Shapes built from the primitives

extension FieldCoder {
    /// A record of a type that describes itself.
    public mutating func record<T: Schema>(_ key: String, _ value: inout T?, _ when: Optionality) throws(Failure) {
        try record(key, &value, when, seed: T()) { c, v throws(Failure) in try v.code(&c) }
    }

    public mutating func record<T: Schema>(_ key: String, _ value: inout T) throws(Failure) {
        var optional: T? = value
        try record(key, &optional, .required)
        if Self.reads, let optional { value = optional }
    }

    /// An instant, as RFC 3339 text (what a person reading a log expects).
    public mutating func time(_ key: String, _ value: inout Timestamp) throws(Failure) {
        var text = value.rfc3339
        try string(key, &text)
        let parsed = Timestamp(rfc3339: text)
        try check(parsed != nil, key, "must be an RFC 3339 time such as 2026-03-01T09:00:00Z")
        if let parsed { value = parsed }
    }

    /// An instant as whole seconds since the epoch, not before it.
    mutating func seconds(_ key: String, _ value: inout Timestamp) throws(Failure) {
        var seconds = value.seconds
        try int(key, &seconds, in: 0...Limits.counter)
        value = Timestamp(seconds: seconds)
    }

    /// An interval or reminder lead: a positive number of seconds, at most a century.
    public mutating func span(_ key: String, _ value: inout TimeSpan) throws(Failure) {
        var seconds = value.seconds
        try int(key, &seconds, in: Int64.min...Int64.max)
        try check(seconds >= 1 && seconds <= Limits.span, key, "must be a positive number of seconds")
        value = TimeSpan(seconds: seconds)
    }

    public mutating func optionalSpan(_ key: String, _ value: inout TimeSpan?, _ when: Optionality) throws(Failure) {
        var seconds = value?.seconds
        try optionalInt(key, &seconds, in: Int64.min...Int64.max, when)
        try check(seconds.map { $0 >= 1 && $0 <= Limits.span } ?? true, key, "must be a positive number of seconds")
        value = seconds.map(TimeSpan.init(seconds:))
    }

    /// One of an enumeration's cases, stored as its raw text.
    public mutating func rawValue<E: RawRepresentable>(_ key: String, _ value: inout E, _ what: String)
        throws(Failure) where E.RawValue == String
    {
        var text = value.rawValue
        try string(key, &text)
        try check(E(rawValue: text) != nil, key, "unknown \(what) \"\(text)\"")
        if let known = E(rawValue: text) { value = known }
    }

    public mutating func optionalRawValue<E: RawRepresentable>(
        _ key: String, _ value: inout E?, _ when: Optionality, _ what: String
    ) throws(Failure) where E.RawValue == String {
        var text = value?.rawValue
        try optionalString(key, &text, when)
        try check(text.map { E(rawValue: $0) != nil } ?? true, key, "unknown \(what) \"\(text ?? "")\"")
        value = text.flatMap(E.init(rawValue:))
    }

    /// A setting and the stamp of the event that set it, as one record: `fields` describes
    /// the value (under its own key), the stamp's fields follow. Left out when never set.
    mutating func stamped<V>(
        _ key: String, _ value: inout Stamped<V>?, seed: @autoclosure () -> V,
        _ fields: (inout Self, inout V) throws(Failure) -> Void
    ) throws(Failure) {
        try record(key, &value, .omitted, seed: Stamped(seed(), .unset)) { c, s throws(Failure) in
            try fields(&c, &s.value)
            try c.stamp(&s.stamp)
        }
    }

    /// A keyed collection of the state, as a list of entries each described by `E`.
    mutating func entries<E: SchemaEntry>(
        _ key: String, _ collection: inout E.Collection, as _: E.Type, omitEmpty: Bool
    )
        throws(Failure)
    {
        if Self.reads {
            try list(key, count: 0, omitEmpty: omitEmpty) { c, index, count throws(Failure) in
                if index == 0 { E.reserve(count, in: &collection) }
                var entry = E()
                try entry.code(&c)
                E.insert(entry, into: &collection)
            }
        } else {
            var entries = E.entries(of: collection)
            if Self.sortsEntries { entries.sort { $0.precedes($1) } }
            try list(key, count: entries.count, omitEmpty: omitEmpty) { c, index, _ throws(Failure) in
                try entries[index].code(&c)
            }
        }
    }
}

/// One entry of a keyed collection of the state (the relations, the pings…), described as one
/// record holding its key and its value. A view for coding only.
protocol SchemaEntry: Schema {
    associatedtype Collection
    static func entries(of collection: Collection) -> [Self]
    static func insert(_ entry: Self, into collection: inout Collection)
    static func reserve(_ count: Int, in collection: inout Collection)
    /// The order of a written file.
    func precedes(_ other: Self) -> Bool
}

/// An entry of a plain dictionary.
protocol KeyedEntry: SchemaEntry where Collection == [Key: Value] {
    associatedtype Key: Hashable & Comparable
    associatedtype Value
    init(key: Key, value: Value)
    var key: Key { get }
    var value: Value { get }
}

extension KeyedEntry {
    static func entries(of collection: [Key: Value]) -> [Self] {
        collection.map { Self(key: $0.key, value: $0.value) }
    }
    static func insert(_ entry: Self, into collection: inout [Key: Value]) { collection[entry.key] = entry.value }
    static func reserve(_ count: Int, in collection: inout [Key: Value]) { collection.reserveCapacity(count) }
    func precedes(_ other: Self) -> Bool { key < other.key }
}

/// An entry of a dictionary of dictionaries (contacts by owner, then by id): the outer key,
/// the inner key and the value.
protocol NestedEntry: SchemaEntry where Collection == [String: [String: Value]] {
    associatedtype Value
    init(outer: String, inner: String, value: Value)
    var outer: String { get }
    var inner: String { get }
    var value: Value { get }
}

extension NestedEntry {
    static func entries(of collection: [String: [String: Value]]) -> [Self] {
        var entries: [Self] = []
        for (outer, values) in collection {
            for (inner, value) in values { entries.append(Self(outer: outer, inner: inner, value: value)) }
        }
        return entries
    }
    static func insert(_ entry: Self, into collection: inout [String: [String: Value]]) {
        collection[entry.outer, default: [:]][entry.inner] = entry.value
    }
    static func reserve(_ count: Int, in collection: inout [String: [String: Value]]) {}
    func precedes(_ other: Self) -> Bool { (outer, inner) < (other.outer, other.inner) }
}
