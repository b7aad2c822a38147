import Testing

@testable import LifeSignalCore

/// A format named after the shape of its records changes whenever a field does: each kind of
/// change to a description gives another shape, and an unchanged one always the same.
@Suite struct SchemaShapeTests {
    /// A record described in one of several ways, as a field's author might change it.
    struct Sample: Schema {
        enum Change: CaseIterable { case none, added, removed, renamed, moved, bounds, optionality, kind, nested }
        var change = Change.none
        var count: Int64 = 0
        var note: String?
        var tags: [String: String] = [:]

        init() {}
        init(_ change: Change) { self.change = change }

        mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
            switch change {
            case .moved:
                try c.optionalString("note", &note, .omitted)
                try c.int("count", &count, in: 0...100)
            case .none, .added, .removed, .renamed, .bounds, .optionality, .kind, .nested:
                if change == .renamed {
                    try c.int("total", &count, in: 0...100)
                } else if change == .bounds {
                    try c.int("count", &count, in: 0...1000)
                } else if change == .kind {
                    var flag = false
                    try c.bool("count", &flag)
                } else {
                    try c.int("count", &count, in: 0...100)
                }
                if change != .removed {
                    try c.optionalString("note", &note, change == .optionality ? .null : .omitted)
                }
            }
            if change == .added {
                var extra: [String] = []
                try c.strings("extra", &extra)
            }
            try c.entries("tags", &tags, as: TagEntry.self, omitEmpty: true)
            if change == .nested {
                var inner: Stamped<String>? = nil
                try c.stamped("inner", &inner, seed: "") { c, value throws(C.Failure) in try c.string("v", &value) }
            }
        }
    }

    struct TagEntry: KeyedEntry {
        var key = ""
        var value = ""
        init() {}
        init(key: String, value: String) { (self.key, self.value) = (key, value) }
        mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
            try c.string("tag", &key)
            try c.string("value", &value)
        }
    }

    static func shape(_ change: Sample.Change) -> String {
        SchemaShape.of { c throws(CannotFail) in
            var sample = Sample(change)
            try sample.code(&c)
        }
    }

    @Test func everyKindOfChangeGivesAnotherShape() {
        let shapes = Sample.Change.allCases.map(Self.shape)
        #expect(Set(shapes).count == Sample.Change.allCases.count, "\(shapes.joined(separator: "\n"))")
        #expect(Self.shape(.none) == Self.shape(.none))
    }

    /// A list's element and a record's fields are described even when the value holds none.
    @Test func listsAndRecordsAreDescribedInside() {
        let shape = Self.shape(.nested)
        #expect(shape.contains("tags:list?empty;[tag:string;value:string;]"), "\(shape)")
        #expect(shape.contains("inner:record?omitted;{v:string;:stamp;}"), "\(shape)")
    }

    /// The circle's shape names every field its JSON form does: nothing the cache keeps is
    /// left out of what names its format.
    @Test func theCirclesShapeNamesEveryField() throws {
        let shape = CircleState.shape
        for key in [
            "member", "name", "interval", "reminder", "lastCheckIn", "note", "alerts", "preferences", "relations",
            "externals", "pings", "deliveries", "acknowledgements", "vouches", "sides", "checkIns",
            "devices", "pins", "tokens", "phoneTaps", "ackTokens", "withdrawn", "tiers", "schedule",
        ] {
            #expect(shape.contains("\(key):"), "\(key) is not in the shape")
        }
        #expect(shape == CircleState.shape, "the same description gives the same shape")
    }
}
