/// Fixed times of day, as an alternative to the interval: "check in by 09:00" every day or on
/// some days of the week, in a named time zone, across daylight-saving changes.
///
/// The zone travels with the setting as its POSIX TZ rule (`GMT0BST,M3.5.0/1,M10.5.0`, the
/// footer of the zone file), so every device of the circle computes the same deadlines
/// whatever its own zone files say.
public struct DailySchedule: Equatable, Sendable {
    /// The times of day, earliest first.
    public var times: [TimeOfDay]
    /// The days of the week it applies on (0 = Sunday … 6 = Saturday); empty means every day.
    public var days: [Int64]
    /// The zone's name, for people (`Europe/London`).
    public var zone: String
    /// The zone's rule, for computing.
    public var rule: String

    public init(times: [TimeOfDay], days: [Int64], zone: String, rule: String) {
        self.times = times.sorted()
        self.days = days.sorted()
        self.zone = zone
        self.rule = rule
    }

    public static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// A check-in made at most this long before a scheduled time counts for it (less when
    /// the times are closer together): "by 09:00" means between 21:00 and 09:00.
    public var window: TimeSpan {
        TimeSpan(seconds: min(TimeSpan.hours(12).seconds, 86_400 / Int64(max(times.count, 1))))
    }

    var rules: ZoneRules { (try? ZoneRules(posixTZ: rule)) ?? .utc }

    /// The first scheduled instant at or after `start`.
    public func next(atOrAfter start: Timestamp) -> Timestamp? {
        let rules = self.rules
        let today = rules.localDate(of: start)
        // Yesterday's times can still lie ahead after a change back; eight days cover a week.
        for offset in Int64(-1)...8 {
            let date = today.adding(days: offset)
            let weekday = ((date.daysSinceEpoch % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
            guard days.isEmpty || days.contains(weekday) else { continue }
            if let first = times.map({ rules.instant(date, $0) }).filter({ $0 >= start }).min() { return first }
        }
        return nil
    }

    /// The deadline after a check-in (or a pause's end) at `start`: the next scheduled time,
    /// unless `start` was within the window before it — then the one after.
    public func deadline(after start: Timestamp) -> Timestamp? {
        guard let first = next(atOrAfter: start) else { return nil }
        guard first - start <= window else { return first }
        return next(atOrAfter: first + TimeSpan(seconds: 1))
    }

    /// `09:00 every day (Europe/London)`, `09:00, 21:00 on mon,tue,wed (UTC)`.
    public var description: String {
        let when = days.isEmpty ? "every day" : "on " + days.map { Self.dayNames[Int($0)] }.joined(separator: ",")
        return "\(times.map(\.description).joined(separator: ", ")) \(when) (\(zone))"
    }
}

extension DailySchedule: Schema {
    public init() { self.init(times: [], days: [], zone: "UTC", rule: "UTC0") }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        var timeTexts = times.map(\.description)
        try c.strings("times", &timeTexts)
        let parsed = timeTexts.compactMap(TimeOfDay.init(parsing:))
        try c.check(parsed.count == timeTexts.count && !parsed.isEmpty, "times", "must be times of day such as 09:00")
        times = parsed.sorted()
        var dayTexts = days.map { Self.dayNames[Int($0)] }
        try c.strings("days", &dayTexts)
        let parsedDays = dayTexts.compactMap { Self.dayNames.firstIndex(of: $0).map(Int64.init) }
        try c.check(parsedDays.count == dayTexts.count, "days", "must be days such as mon, tue")
        days = parsedDays.sorted()
        try c.string("zone", &zone)
        try c.string("rule", &rule)
        try c.check((try? ZoneRules(posixTZ: rule)) != nil, "rule", "must be a POSIX TZ rule")
    }
}
