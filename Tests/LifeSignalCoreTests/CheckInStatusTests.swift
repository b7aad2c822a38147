import Testing

@testable import LifeSignalCore

/// The deadline rules as tables with a fixed `now`: each row is a history of events and the
/// status expected at an instant.
@Suite struct CheckInStatusTests {
    static let t0 = Timestamp(rfc3339: "2026-03-01T09:00:00Z") ?? Timestamp(seconds: 0)

    static func at(_ offset: Int64) -> Timestamp { Timestamp(seconds: t0.seconds + offset) }

    /// A member whose device "a" recorded `events` (seq numbered in order).
    static func member(_ events: [(Int64, any EventBody)], device: String = "a") -> MemberState {
        var state = MemberState()
        for (i, (offset, body)) in events.enumerated() {
            state.apply(Event(seq: Int64(i + 1), at: at(offset), body: body), device: device)
        }
        return state
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [(Int64, any EventBody)]
        var now: Int64
        var phase: CheckInStatus.Phase
        var deadline: Int64?
        var reminderAt: Int64?
        var timeLeft: Int64?
        var testDescription: String { name }
    }

    static let h: Int64 = 3600

    static let rows: [Row] = [
        Row(
            name: "never checked in", events: [], now: 0, phase: .noCheckIn, deadline: nil, reminderAt: nil,
            timeLeft: nil),
        Row(
            name: "just checked in", events: [(0, CheckedIn(note: nil))], now: 0, phase: .ok, deadline: 24 * h,
            reminderAt: 24 * h - 1800, timeLeft: 24 * h),
        Row(
            name: "exactly at the deadline is not overdue", events: [(0, CheckedIn(note: nil))], now: 24 * h,
            phase: .dueSoon, deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: 0),
        Row(
            name: "one second after the deadline is overdue", events: [(0, CheckedIn(note: nil))], now: 24 * h + 1,
            phase: .overdue, deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: -1),
        Row(
            name: "one second before the reminder", events: [(0, CheckedIn(note: nil))], now: 24 * h - 1801, phase: .ok,
            deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: 1801),
        Row(
            name: "exactly at the reminder time", events: [(0, CheckedIn(note: nil))], now: 24 * h - 1800,
            phase: .dueSoon, deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: 1800),
        Row(
            name: "reminder window reached late, a second before the deadline", events: [(0, CheckedIn(note: nil))],
            now: 24 * h - 1, phase: .dueSoon, deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: 1),
        Row(
            name: "reminder off: no due-soon phase",
            events: [(0, ReminderSet(reminder: nil)), (0, CheckedIn(note: nil))],
            now: 24 * h - 60, phase: .ok, deadline: 24 * h, reminderAt: nil, timeLeft: 60),
        Row(
            name: "longer interval after a check-in moves the deadline later",
            events: [(0, CheckedIn(note: nil)), (3 * h, IntervalSet(interval: .hours(48)))], now: 30 * h, phase: .ok,
            deadline: 48 * h, reminderAt: 48 * h - 1800, timeLeft: 18 * h),
        Row(
            name: "shorter interval after a check-in makes you overdue at once",
            events: [(0, CheckedIn(note: nil)), (10 * h, IntervalSet(interval: .hours(8)))], now: 10 * h,
            phase: .overdue,
            deadline: 8 * h, reminderAt: 8 * h - 1800, timeLeft: -2 * h),
        Row(
            name: "an interval change is not a check-in", events: [(0, IntervalSet(interval: .hours(8)))], now: 10 * h,
            phase: .noCheckIn, deadline: nil, reminderAt: nil, timeLeft: nil),
        Row(
            name: "a later check-in restarts the countdown",
            events: [(0, CheckedIn(note: nil)), (30 * h, CheckedIn(note: "back"))], now: 31 * h, phase: .ok,
            deadline: 54 * h, reminderAt: 54 * h - 1800, timeLeft: 23 * h),
        // A check-in stamped ahead of the clock counts within the tolerance (clocks drift),
        // and beyond it not until its time comes: the one before it does, if any.
        Row(
            name: "a check-in a minute ahead of the clock counts", events: [(0, CheckedIn(note: nil))], now: -60,
            phase: .ok, deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: 24 * h + 60),
        Row(
            name: "a check-in from the future does not count", events: [(0, CheckedIn(note: nil))], now: -5 * h,
            phase: .noCheckIn, deadline: nil, reminderAt: nil, timeLeft: nil),
        Row(
            name: "the one before a future check-in counts",
            events: [(0, CheckedIn(note: nil)), (40 * h, CheckedIn(note: "what if"))], now: 25 * h, phase: .overdue,
            deadline: 24 * h, reminderAt: 24 * h - 1800, timeLeft: -h),
        Row(
            name: "a 2h reminder", events: [(0, ReminderSet(reminder: .hours(2))), (0, CheckedIn(note: nil))],
            now: 22 * h,
            phase: .dueSoon, deadline: 24 * h, reminderAt: 22 * h, timeLeft: 2 * h),
    ]

    @Test(arguments: rows)
    func status(_ row: Row) {
        let status = CheckInStatus(member: Self.member(row.events), now: Self.at(row.now))
        #expect(status.phase == row.phase)
        #expect(status.deadline == row.deadline.map(Self.at))
        #expect(status.reminderAt == row.reminderAt.map(Self.at))
        #expect(status.timeLeft?.seconds == row.timeLeft)
    }

    @Test func clockBehindIsFlaggedBeyondTheTolerance() {
        let state = Self.member([(0, CheckedIn(note: nil))])
        #expect(CheckInStatus(member: state, now: Self.at(-301)).clockBehind)
        #expect(CheckInStatus(member: state, now: Self.at(-301)).futureCheckIn?.at == Self.at(0))
        #expect(!CheckInStatus(member: state, now: Self.at(-300)).clockBehind)
        #expect(!CheckInStatus(member: state, now: Self.at(0)).clockBehind)
    }

    /// Kept, newest first: the latest four in time and the latest four the device wrote (here
    /// 2h, written last, joins 9h, 7h, 5h and 3h), whatever order they are folded in.
    @Test func recentCheckInsAreTheLatestFewInTimeAndInWriting() {
        let times = [5, 1, 9, 3, 7, 2].map { Int64($0) * Self.h }
        let state = Self.member(times.map { ($0, CheckedIn(note: nil)) })
        #expect(state.recentCheckIns.map(\.at) == [9, 7, 5, 3, 2].map { Self.at(Int64($0) * Self.h) })
    }

    @Test func checkInsFromTwoDevicesCountTowardOneDeadline() {
        // Laptop "a" checked in at 0; home server "b" at 20h. The deadline follows the later one.
        let laptop = Self.member([(0, CheckedIn(note: "laptop"))], device: "a")
        let server = Self.member([(20 * Self.h, CheckedIn(note: "server"))], device: "b")
        var merged = laptop
        merged.merge(server)
        let status = CheckInStatus(member: merged, now: Self.at(30 * Self.h))
        #expect(status.phase == .ok)
        #expect(status.deadline == Self.at(44 * Self.h))
        #expect(status.lastCheckIn?.note == "server")
        #expect(merged.checkInCount == 2)
    }

    @Test func mergeIsOrderIndependent() {
        let a = Self.member(
            [(0, IntervalSet(interval: .hours(8))), (5, CheckedIn(note: "a")), (9, NameSet(name: "Ana"))], device: "a")
        let b = Self.member(
            [(3, IntervalSet(interval: .hours(16))), (5, CheckedIn(note: "b")), (9, NameSet(name: "Ana B"))],
            device: "b")
        var ab = a
        ab.merge(b)
        var ba = b
        ba.merge(a)
        #expect(ab == ba)
        // Same second: the larger device id wins, on every machine.
        #expect(ab.lastCheckIn?.note == "b")
        #expect(ab.name?.value == "Ana B")
        #expect(ab.effectiveInterval == .hours(16))
    }

    @Test func defaultsApplyBeforeAnySetting() {
        let state = MemberState()
        #expect(state.effectiveInterval == .hours(24))
        #expect(state.effectiveReminder == .minutes(30))
    }
}

@Suite struct RulesTests {
    @Test(arguments: [
        (TimeSpan.minutes(9), TimeSpan?.none, false),
        (TimeSpan.minutes(10), TimeSpan?.none, true),
        (TimeSpan.days(30), TimeSpan?.some(.hours(6)), true),
        (TimeSpan(seconds: 30 * 86_400 + 1), TimeSpan?.none, false),
        (TimeSpan.hours(1), TimeSpan?.some(.hours(1)), false),
        (TimeSpan.hours(1), TimeSpan?.some(.minutes(59)), true),
        (TimeSpan.minutes(45), TimeSpan?.some(.minutes(30)), true),
    ])
    func intervalAndReminder(interval: TimeSpan, reminder: TimeSpan?, accepted: Bool) {
        #expect(((try? Rules.check(interval: interval, reminder: reminder)) != nil) == accepted)
    }

    @Test func textProblems() {
        #expect(Rules.problem(withText: "Ana", field: "name") == nil)
        #expect(Rules.problem(withText: "  ", field: "name") == "the name is empty")
        #expect(
            Rules.problem(withText: "a\nb", field: "note") == "the note contains a control character such as a newline")
        #expect(
            Rules.problem(withText: String(repeating: "x", count: 501), field: "note")
                == "the note is longer than 500 characters")
    }
}
