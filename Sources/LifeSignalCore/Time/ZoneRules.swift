/// One way of telling local time: its offset from UT, whether it is daylight saving time, and
/// the abbreviation people see (`BST`, `EST`, `+1030`). A row of a TZif file's type table, or
/// one half of a POSIX TZ string.
public struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UT: London in summer is 3600, New York in winter −18000.
    public var utOffset: Int64
    public var isDST: Bool
    public var abbreviation: String
}

/// A change of local time type at an instant: from `at` on, `types[type]` applies.
public struct ZoneTransition: Hashable, Sendable {
    public var at: Timestamp
    /// An index into the owning `ZoneRules.types`.
    public var type: Int
}

/// What is wrong with a time zone file or TZ string, and where: the byte of the file, or the
/// character of a TZ string given on its own. Zone files come from disk and are untrusted, so
/// every defect is reported this way rather than trapping.
public struct ZoneDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is, in the coordinates of what was being parsed.
    public enum Place: Hashable, Sendable {
        /// A byte offset in a TZif file (a footer problem points into the footer).
        case byte(Int)
        /// A character offset in a TZ string parsed on its own.
        case tzString(Int)
    }
    public var problem: String
    public var place: Place

    public init(_ problem: String, at place: Place) {
        self.problem = problem
        self.place = place
    }

    public var description: String {
        switch place {
        case .byte(let offset): "byte \(offset): \(problem)"
        case .tzString(let offset): "character \(offset + 1): \(problem)"
        }
    }
}

/// The complete rules of one time zone: the historical transitions of a TZif file and the POSIX
/// TZ rule that continues them (RFC 8536). Owns the answer to "what is the local time here at
/// instant T"; everything calendar-like (wall times, gaps, next 09:00) is built on that in
/// `ZoneRules+WallClock.swift`.
public struct ZoneRules: Hashable, Sendable {
    /// Sorted, strictly ascending.
    public var transitions: [ZoneTransition]
    /// Never empty. Type 0 also applies before the first transition (RFC 8536 §3.2).
    public var types: [LocalTimeType]
    /// For instants after the last transition (or all instants when there are none); nil when
    /// the file has no footer (version 1) or an empty one, and the last type then stays.
    public var footer: PosixTZ?
    /// The footer as written, e.g. `GMT0BST,M3.5.0/1,M10.5.0`; empty when there is none.
    public var footerText: String

    public init(transitions: [ZoneTransition], types: [LocalTimeType], footer: PosixTZ?, footerText: String) {
        self.transitions = transitions
        self.types = types
        self.footer = footer
        self.footerText = footerText
    }

    /// Rules given by a POSIX TZ string alone (`EST5EDT,M3.2.0,M11.1.0`, `<+0530>-5:30`), as
    /// found in the `TZ` environment variable when it names no file.
    public init(posixTZ text: String) throws(ZoneDataError) {
        let footer = try PosixTZ(parsing: Array(text.utf8))
        self.init(transitions: [], types: [footer.standard], footer: footer, footerText: text)
    }

    /// Coordinated Universal Time, needing no file.
    public static let utc = ZoneRules(
        transitions: [], types: [LocalTimeType(utOffset: 0, isDST: false, abbreviation: "UTC")], footer: nil,
        footerText: "")

    /// The local time type in effect at `time`.
    public func type(at time: Timestamp) -> LocalTimeType {
        if let footer, transitions.last.map({ time > $0.at }) ?? true {
            return footer.type(at: time)
        }
        // The last transition at or before `time`, by binary search.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].at <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? types[0] : types[transitions[low - 1].type]
    }

    /// The offset east of UT, the abbreviation and the DST flag at `time`.
    public func offset(at time: Timestamp) -> (seconds: Int64, abbreviation: String, isDST: Bool) {
        let local = type(at: time)
        return (local.utOffset, local.abbreviation, local.isDST)
    }

    /// `2026-03-29 09:00 BST`: the instant as people in this zone read it.
    public func local(_ time: Timestamp) -> String {
        let local = type(at: time)
        return time.local(utcOffset: local.utOffset) + " " + local.abbreviation
    }

    /// Every change of local time type in `after < at <= through`, with the type that starts,
    /// from the table and then from the footer. Changes that change nothing are left out.
    /// Meant for windows of days or years: the footer's part is worked out year by year.
    public func changes(after start: Timestamp, through end: Timestamp) -> [(at: Timestamp, type: LocalTimeType)] {
        guard start < end else { return [] }
        var found: [(at: Timestamp, type: LocalTimeType)] = []
        var current = type(at: start)
        func add(_ at: Timestamp, _ next: LocalTimeType) {
            if next != current { found.append((at, next)) }
            current = next
        }
        for transition in transitions where transition.at > start && transition.at <= end {
            add(transition.at, types[transition.type])
        }
        if let footer {
            let from = max(start, transitions.last?.at ?? start)
            for change in footer.changes(after: from, through: end) { add(change.at, change.type) }
        }
        return found
    }
}

extension ZoneRules {
    /// The first instant in `start...end` at which the footer rule alone (what a daily schedule
    /// stores, so that every device computes the same deadlines) gives another UTC offset than
    /// this zone's own table: nil when they agree throughout, or there is no footer. A zone
    /// whose next clock changes were decided as exceptions (America/Havana in tzdata 2026f)
    /// lists them in its table while its rule says what the years after do.
    public func ruleDisagrees(from start: Timestamp, through end: Timestamp) -> Timestamp? {
        guard let footer else { return nil }
        let rule = ZoneRules(transitions: [], types: [footer.standard], footer: footer, footerText: footerText)
        return disagreement(with: rule, from: start, through: end)
    }

    /// The first instant in `start...end` at which `other` gives another UTC offset than these
    /// rules (nil: the same throughout): offsets change only where either changes.
    public func disagreement(with other: ZoneRules, from start: Timestamp, through end: Timestamp) -> Timestamp? {
        let instants =
            [start] + (changes(after: start, through: end) + other.changes(after: start, through: end)).map(\.at)
        return instants.sorted().first { offset(at: $0).seconds != other.offset(at: $0).seconds }
    }
}
