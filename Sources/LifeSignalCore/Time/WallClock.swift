/// A calendar day as people in some zone name it (proleptic Gregorian): the day a deadline
/// falls on, the date printed in a message. Carries no zone; `ZoneRules` says which day an
/// instant is in a given zone.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int64
    public var month: Int64
    public var day: Int64

    /// A real date in years 1…9999; nil for February 30 and the like.
    public init?(year: Int64, month: Int64, day: Int64) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= Civil.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    init(_ civil: Civil) {
        year = civil.year
        month = civil.month
        day = civil.day
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int64 { Civil.daysFromCivil(year: year, month: month, day: day) }

    public func adding(days: Int64) -> LocalDate {
        LocalDate(Civil(seconds: PosixTZ.clamped((daysSinceEpoch &+ days) &* 86_400)))
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `2026-03-29`.
    public var description: String {
        String(Civil(seconds: daysSinceEpoch * 86_400).text(separator: 0x20, utc: false).prefix(10))
    }
}

/// A time on the clock on the wall, to the minute: `09:00` in `checkin schedule daily 09:00`.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int64
    public var minute: Int64

    public init?(hour: Int64, minute: Int64) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// 00:00, the start of a day.
    public static let midnight = TimeOfDay(validHour: 0, minute: 0)

    private init(validHour hour: Int64, minute: Int64) {
        self.hour = hour
        self.minute = minute
    }

    /// `09:00` or `9:00`, 24-hour clock.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].utf8.count), parts[1].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let hour = Int64(parts[0]), let minute = Int64(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    var seconds: Int64 { hour * 3600 + minute * 60 }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.seconds < rhs.seconds }

    public var description: String { (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)" }
}

/// How a wall time maps to instants in a zone: once, not at all (skipped by a change forward,
/// as 01:30 on the day British Summer Time starts), or twice (repeated by a change back).
public enum WallTimeResolution: Hashable, Sendable {
    case unique(Timestamp)
    /// `instant` is the wall time shifted forward by the length of the gap: 01:30 on the day
    /// London springs forward is taken as 02:30 BST, as far past the gap as it was into it.
    case skipped(instant: Timestamp, gap: TimeSpan)
    case repeated(earlier: Timestamp, later: Timestamp)

    /// The one instant lifesignal uses: the shifted instant for a skipped time, and the
    /// earlier of two for a repeated one, so a daily deadline comes once and never late.
    public var instant: Timestamp {
        switch self {
        case .unique(let time): time
        case .skipped(let time, _): time
        case .repeated(let earlier, _): earlier
        }
    }
}

extension ZoneRules {
    /// The calendar day `time` falls on in this zone.
    public func localDate(of time: Timestamp) -> LocalDate {
        let clamped = PosixTZ.clamped(time.seconds)
        return LocalDate(Civil(seconds: clamped + type(at: Timestamp(seconds: clamped)).utOffset))
    }

    /// Every instant at which the wall clock here reads `time` on `date` (see
    /// `WallTimeResolution` for the gap and the overlap).
    public func resolve(_ date: LocalDate, _ time: TimeOfDay) -> WallTimeResolution {
        // The wall time counted as if it were UT; each candidate instant is wall − offset.
        let wall = date.daysSinceEpoch * 86_400 + time.seconds
        // Offsets stay within ±26 hours, so every instant that could read `wall` is in here.
        let low = Timestamp(seconds: wall - 2 * 86_400)
        let changes = self.changes(after: low, through: Timestamp(seconds: wall + 2 * 86_400))
        let offsets = [type(at: low).utOffset] + changes.map(\.type.utOffset)
        let starts = changes.map(\.at.seconds)
        // Type i applies from starts[i - 1] (or the window's start) up to starts[i].
        var found: [Int64] = []
        for (i, offset) in offsets.enumerated() {
            let candidate = wall - offset
            if (i == 0 || candidate >= starts[i - 1]) && (i == starts.count || candidate < starts[i]) {
                found.append(candidate)
            }
        }
        if let first = found.min(), let last = found.max() {
            return first == last
                ? .unique(Timestamp(seconds: first))
                : .repeated(earlier: Timestamp(seconds: first), later: Timestamp(seconds: last))
        }
        // No instant reads `wall`: find the change that jumped over it.
        for (i, start) in starts.enumerated() where wall - offsets[i] >= start && wall - offsets[i + 1] < start {
            return .skipped(
                instant: Timestamp(seconds: wall - offsets[i]), gap: TimeSpan(seconds: offsets[i + 1] - offsets[i]))
        }
        return .unique(Timestamp(seconds: wall - offsets[0]))  // unreachable: some change must jump over it
    }

    /// The instant lifesignal takes for `time` on `date` (`WallTimeResolution.instant`).
    public func instant(_ date: LocalDate, _ time: TimeOfDay) -> Timestamp {
        resolve(date, time).instant
    }

    /// As `instant(_:_:)` from plain numbers; nil when they are no date or time of day.
    public func instant(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64) -> Timestamp? {
        guard let date = LocalDate(year: year, month: month, day: day), let time = TimeOfDay(hour: hour, minute: minute)
        else { return nil }
        return instant(date, time)
    }

    /// The first instant at or after `start` at which a daily `time` falls here. Each local day
    /// has one such instant, the one `instant(_:_:)` picks, so a repeated hour does not fire
    /// twice and a skipped one still fires, late by the gap.
    public func nextOccurrence(of time: TimeOfDay, atOrAfter start: Timestamp) -> Timestamp {
        let today = localDate(of: start)
        var candidate = start
        // Yesterday's time can still lie ahead after a change back; a week covers any zone.
        for days in Int64(-1)...7 {
            candidate = instant(today.adding(days: days), time)
            if candidate >= start { return candidate }
        }
        return candidate
    }
}
