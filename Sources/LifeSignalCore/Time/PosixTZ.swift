/// A POSIX TZ string such as `GMT0BST,M3.5.0/1,M10.5.0` (POSIX.1 §8.3 with the RFC 8536 §3.3.1
/// extensions): standard time and, optionally, daylight saving time with the yearly rules that
/// switch between them. Owns the parsing of such strings and the local time type they give at
/// any instant; a TZif footer is one, and so is a `TZ` variable that names no file.
public struct PosixTZ: Hashable, Sendable {
    public var standard: LocalTimeType
    public var daylight: Daylight?

    /// Daylight saving time and when it starts and ends each year.
    public struct Daylight: Hashable, Sendable {
        public var type: LocalTimeType
        /// Given in standard local time.
        public var start: YearlyRule
        /// Given in daylight saving local time.
        public var end: YearlyRule
    }

    /// A day of the year and a time on it: `M3.5.0/1` is the last Sunday of March at 01:00.
    public struct YearlyRule: Hashable, Sendable {
        public enum Day: Hashable, Sendable {
            /// `Jn`: day 1…365, February 29 never counted, so `J60` is always March 1.
            case julian(Int64)
            /// `n`: day 0…365, February 29 counted in leap years.
            case zeroBased(Int64)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = the last) of month `m`.
            case monthWeek(month: Int64, week: Int64, weekday: Int64)
        }
        public var day: Day
        /// Seconds after local midnight, −167…167 hours (RFC 8536 §3.3.1): Gaza's `M3.4.4/50`
        /// is two days after a Thursday midnight, Nuuk's `M3.5.0/-1` the hour before a Sunday.
        public var time: Int64
    }

    /// Parses the whole of `text`; anything left over, or missing, is an error at its offset.
    public init(parsing text: [UInt8]) throws(ZoneDataError) {
        var scanner = TZScanner(text)
        let standardName = try scanner.name()
        standard = LocalTimeType(utOffset: try scanner.offset(), isDST: false, abbreviation: standardName)
        if scanner.atEnd {
            daylight = nil
            return
        }
        let name = try scanner.name()
        // The DST offset is optional and defaults to one hour ahead of standard time.
        var offset = standard.utOffset + 3600
        if !scanner.atEnd && scanner.peek != UInt8(ascii: ",") { offset = try scanner.offset() }
        guard scanner.peek == UInt8(ascii: ",") else {
            // POSIX leaves the rules of a bare `EST5EDT` to the implementation; RFC 8536 footers
            // always have them, so guessing (say, today's US rules) would only hide a bad file.
            throw scanner.error(scanner.atEnd ? "daylight saving time without rules" : "expected ','")
        }
        scanner.skip()
        let start = try scanner.rule()
        guard scanner.peek == UInt8(ascii: ",") else { throw scanner.error("expected ',' before the end rule") }
        scanner.skip()
        let end = try scanner.rule()
        guard scanner.atEnd else { throw scanner.error("unexpected character after the end rule") }
        daylight = Daylight(
            type: LocalTimeType(utOffset: offset, isDST: true, abbreviation: name), start: start, end: end)
    }

    /// The local time type at `time`: the last yearly change at or before it, looking at the
    /// years around it, since a rule's time may push a change into the neighbouring year.
    public func type(at time: Timestamp) -> LocalTimeType {
        guard daylight != nil else { return standard }
        let year = Civil(seconds: Self.clamped(time.seconds) &+ standard.utOffset).year
        return yearlyChanges(from: year - 1, through: year + 1).last { $0.at <= time }?.type ?? standard
    }

    /// The changes in `after < at <= through`, each with the type it starts.
    public func changes(after start: Timestamp, through end: Timestamp) -> [(at: Timestamp, type: LocalTimeType)] {
        guard daylight != nil, start < end else { return [] }
        let first = Civil(seconds: Self.clamped(start.seconds)).year - 1
        let last = Civil(seconds: Self.clamped(end.seconds)).year + 1
        var found: [(at: Timestamp, type: LocalTimeType)] = []
        var current = type(at: start)
        for change in yearlyChanges(from: first, through: last) where change.at > start && change.at <= end {
            if change.type != current { found.append(change) }
            current = change.type
        }
        return found
    }

    /// Both changes of each year in order. When DST ends at the instant it starts again (a
    /// year-round DST rule such as `EST5EDT,0/0,J365/25`), the start sorts last and wins.
    private func yearlyChanges(from first: Int64, through last: Int64) -> [(at: Timestamp, type: LocalTimeType)] {
        guard let daylight, first <= last else { return [] }
        var changes: [(at: Int64, order: Int, type: LocalTimeType)] = []
        for year in first...last {
            let start = Self.day(of: daylight.start.day, in: year) * 86_400 + daylight.start.time - standard.utOffset
            let end = Self.day(of: daylight.end.day, in: year) * 86_400 + daylight.end.time - daylight.type.utOffset
            changes.append((start, 1, daylight.type))
            changes.append((end, 0, standard))
        }
        changes.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        // Of two changes at one instant only the later counts.
        return changes.indices.filter { $0 + 1 == changes.count || changes[$0 + 1].at != changes[$0].at }
            .map { (Timestamp(seconds: changes[$0].at), changes[$0].type) }
    }

    /// Days since 1970-01-01 of the rule's day in `year`.
    static func day(of day: YearlyRule.Day, in year: Int64) -> Int64 {
        let january1 = Civil.daysFromCivil(year: year, month: 1, day: 1)
        switch day {
        case .julian(let n):
            let leap = Civil.daysInMonth(year: year, month: 2) == 29
            return january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeek(let month, let week, let weekday):
            let first = Civil.daysFromCivil(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (weekday 4).
            let firstWeekday = ((first + 4) % 7 + 7) % 7
            var date = first + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            while date >= first + Civil.daysInMonth(year: year, month: month) { date -= 7 }
            return date
        }
    }

    /// Keeps calendar arithmetic far from overflow: ±2^55 seconds is a billion years either way,
    /// further than any question about a time zone.
    static func clamped(_ seconds: Int64) -> Int64 { min(max(seconds, -(1 << 55)), 1 << 55) }
}

/// Reads a TZ string left to right, reporting the offset of whatever it cannot accept.
private struct TZScanner {
    let text: [UInt8]
    var index = 0

    init(_ text: [UInt8]) { self.text = text }

    var atEnd: Bool { index >= text.count }
    var peek: UInt8? { atEnd ? nil : text[index] }
    mutating func skip() { index += 1 }

    func error(_ problem: String) -> ZoneDataError { ZoneDataError(problem, at: .tzString(index)) }

    /// `GMT` (three or more letters) or `<+0530>` (three or more of letters, digits, + and −).
    mutating func name() throws(ZoneDataError) -> String {
        let quoted = peek == UInt8(ascii: "<")
        if quoted { skip() }
        let start = index
        while let byte = peek, Self.isLetter(byte) || (quoted && (Self.isDigit(byte) || byte == 43 || byte == 45)) {
            skip()
        }
        let name = String(decoding: text[start..<index], as: UTF8.self)
        guard index - start >= 3 else { throw error("a zone abbreviation needs at least three characters") }
        if quoted {
            guard peek == UInt8(ascii: ">") else { throw error("expected '>' to close the abbreviation") }
            skip()
        }
        return name
    }

    /// A POSIX offset, `[+-]hh[:mm[:ss]]` with hours 0…24, positive west of Greenwich; returned
    /// as seconds east of UT, the way TZif and `LocalTimeType` count.
    mutating func offset() throws(ZoneDataError) -> Int64 {
        -(try signedTime(maxHours: 24))
    }

    /// `start[/time]` or `end[/time]`; the time defaults to 02:00.
    mutating func rule() throws(ZoneDataError) -> PosixTZ.YearlyRule {
        let day: PosixTZ.YearlyRule.Day
        if peek == UInt8(ascii: "J") {
            skip()
            day = .julian(try number(in: 1...365, what: "a Julian day"))
        } else if peek == UInt8(ascii: "M") {
            skip()
            let month = try number(in: 1...12, what: "a month")
            try expect(UInt8(ascii: "."))
            let week = try number(in: 1...5, what: "a week")
            try expect(UInt8(ascii: "."))
            day = .monthWeek(month: month, week: week, weekday: try number(in: 0...6, what: "a weekday"))
        } else {
            day = .zeroBased(try number(in: 0...365, what: "a day of the year"))
        }
        guard peek == UInt8(ascii: "/") else { return PosixTZ.YearlyRule(day: day, time: 7200) }
        skip()
        return PosixTZ.YearlyRule(day: day, time: try signedTime(maxHours: 167))
    }

    /// `[+-]h[:mm[:ss]]` in seconds, sign included.
    private mutating func signedTime(maxHours: Int64) throws(ZoneDataError) -> Int64 {
        var sign: Int64 = 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            if peek == UInt8(ascii: "-") { sign = -1 }
            skip()
        }
        var seconds = try number(in: 0...maxHours, what: "an hour") * 3600
        if peek == UInt8(ascii: ":") {
            skip()
            seconds += try number(in: 0...59, what: "minutes") * 60
            if peek == UInt8(ascii: ":") {
                skip()
                seconds += try number(in: 0...59, what: "seconds")
            }
        }
        return sign * seconds
    }

    /// Up to three decimal digits, which must fall in `range`.
    private mutating func number(in range: ClosedRange<Int64>, what: String) throws(ZoneDataError) -> Int64 {
        let start = index
        var value: Int64 = 0
        while let byte = peek, Self.isDigit(byte), index - start < 3 {
            value = value * 10 + Int64(byte - 48)
            skip()
        }
        guard index > start else { throw error("expected \(what)") }
        guard range.contains(value), !(peek.map(Self.isDigit) ?? false) else {
            index = start
            throw error("\(what) must be \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) throws(ZoneDataError) {
        guard peek == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        skip()
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
