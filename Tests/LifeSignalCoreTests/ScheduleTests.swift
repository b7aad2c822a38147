import Testing

@testable import LifeSignalCore

/// Pauses and trips as tables at the boundary second: each row is a history of events (offsets
/// from 2026-03-01 09:00 UTC) and the status expected at an instant.
@Suite struct ScheduleTests {
    typealias Row = CheckInStatusTests.Row
    static let h: Int64 = 3600
    static let d: Int64 = 86_400
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }
    static func pause(until offset: Int64, note: String? = nil) -> PauseSet {
        PauseSet(pause: Pause(until: at(offset), note: note))
    }
    static func trip(_ offset: Int64) -> TripSet { TripSet(trip: Trip(deadline: at(offset), note: "west ridge")) }
    static let checkIn = CheckedIn(note: nil)

    static let rows: [Row] = [
        Row(
            name: "paused at the regular deadline: no deadline", events: [(0, checkIn), (h, pause(until: 14 * d))],
            now: 24 * h + 1, phase: .paused, deadline: nil, reminderAt: nil, timeLeft: nil),
        Row(
            name: "the last second of a pause is paused", events: [(0, checkIn), (h, pause(until: 14 * d))],
            now: 14 * d - 1, phase: .paused, deadline: nil, reminderAt: nil, timeLeft: nil),
        Row(
            name: "when the pause ends the countdown restarts from its end",
            events: [(0, checkIn), (h, pause(until: 14 * d))], now: 14 * d, phase: .ok, deadline: 15 * d,
            reminderAt: 15 * d - 1800, timeLeft: d),
        Row(
            name: "one second after the restarted deadline is overdue",
            events: [(0, checkIn), (h, pause(until: 14 * d))], now: 15 * d + 1, phase: .overdue, deadline: 15 * d,
            reminderAt: 15 * d - 1800, timeLeft: -1),
        Row(
            name: "resumed early: the countdown restarts from the resume",
            events: [(0, checkIn), (h, pause(until: 14 * d)), (3 * d, pause(until: 3 * d))], now: 3 * d, phase: .ok,
            deadline: 4 * d, reminderAt: 4 * d - 1800, timeLeft: d),
        Row(
            name: "a check-in after the pause counts from the check-in",
            events: [(0, checkIn), (h, pause(until: 2 * d)), (3 * d, checkIn)], now: 3 * d, phase: .ok,
            deadline: 4 * d, reminderAt: 4 * d - 1800, timeLeft: d),
        Row(
            name: "a pause set while overdue lifts the deadline",
            events: [(0, checkIn), (25 * h, pause(until: 3 * d))],
            now: 25 * h, phase: .paused, deadline: nil, reminderAt: nil, timeLeft: nil),
        Row(
            name: "a trip earlier than the regular deadline replaces it", events: [(0, checkIn), (h, trip(4 * h))],
            now: 4 * h, phase: .dueSoon, deadline: 4 * h, reminderAt: 4 * h - 1800, timeLeft: 0),
        Row(
            name: "a trip is missed one second after its deadline", events: [(0, checkIn), (h, trip(4 * h))],
            now: 4 * h + 1, phase: .overdue, deadline: 4 * h, reminderAt: 4 * h - 1800, timeLeft: -1),
        Row(
            name: "a trip later than the regular deadline replaces it too",
            events: [(0, checkIn), (h, trip(30 * h))], now: 24 * h + 1, phase: .ok, deadline: 30 * h,
            reminderAt: 30 * h - 1800, timeLeft: 6 * h - 1),
        Row(
            name: "a trip's one reminder is never before it was set", events: [(0, checkIn), (h, trip(h + 600))],
            now: h, phase: .dueSoon, deadline: h + 600, reminderAt: h, timeLeft: 600),
        Row(
            name: "a check-in ends the trip", events: [(0, checkIn), (h, trip(4 * h)), (2 * h, checkIn)],
            now: 5 * h, phase: .ok, deadline: 26 * h, reminderAt: 26 * h - 1800, timeLeft: 21 * h),
        Row(
            name: "a pause set after a trip wins while it lasts",
            events: [(0, checkIn), (h, trip(4 * h)), (2 * h, pause(until: d))], now: 5 * h, phase: .paused,
            deadline: nil, reminderAt: nil, timeLeft: nil),
        // The trip's deadline passed while paused: it must not be missed the moment the pause ends.
        Row(
            name: "a pause set after a trip ends it: the countdown restarts when the pause ends",
            events: [(0, checkIn), (h, trip(3 * h)), (2 * h, pause(until: 6 * h))], now: 6 * h, phase: .ok,
            deadline: 30 * h, reminderAt: 30 * h - 1800, timeLeft: d),
        Row(
            name: "a trip ended by a pause stays ended when its deadline is later than the pause's end",
            events: [(0, checkIn), (h, trip(10 * h)), (2 * h, pause(until: 3 * h))], now: 10 * h + 1, phase: .ok,
            deadline: 27 * h, reminderAt: 27 * h - 1800, timeLeft: 17 * h - 1),
        Row(
            name: "a trip set after a pause replaces it",
            events: [(0, checkIn), (h, pause(until: d)), (2 * h, trip(5 * h))], now: 5 * h + 1, phase: .overdue,
            deadline: 5 * h, reminderAt: 5 * h - 1800, timeLeft: -1),
    ]

    @Test(arguments: rows)
    func status(_ row: Row) {
        let status = CheckInStatus(member: CheckInStatusTests.member(row.events), now: Self.at(row.now))
        #expect(status.phase == row.phase)
        #expect(status.deadline == row.deadline.map(Self.at))
        #expect(status.reminderAt == row.reminderAt.map(Self.at))
        #expect(status.timeLeft?.seconds == row.timeLeft)
    }

    @Test func aMissedTripReleasesItsNoteAndAPauseIsToldWhenItStartsAndEnds() {
        var circle = CircleState()
        let (ana, bea) = ("ana", "bea")
        circle.members[ana] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        circle.members[bea] = CheckInStatusTests.member(
            [(0, NameSet(name: "Bea")), (0, Self.checkIn), (Self.h, Self.trip(4 * Self.h))], device: "b")
        // Ana (the pair's low side) watches over Bea.
        circle.relations[Pair(ana, bea)] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: Self.at(0), device: "a", seq: 1))
        let before = Notifications.due(circle: circle, feed: Feed(), me: ana, now: Self.at(4 * Self.h))
        #expect(!before.contains { $0.message.contains("west ridge") }, "the note stays private until the miss")
        // Bea's deadline on Ana's clock: past it once past the drift clocks are allowed.
        let skewed = Notifications.due(circle: circle, feed: Feed(), me: ana, now: Self.at(4 * Self.h + 299))
        #expect(!skewed.contains { $0.kind == .dependentNonResponsive }, "a watcher's clock 5 minutes fast")
        let missed = Notifications.due(circle: circle, feed: Feed(), me: ana, now: Self.at(4 * Self.h + 300))
        #expect(missed.first { $0.kind == .dependentNonResponsive }?.message.contains("“west ridge”") == true)

        var paused = circle
        paused.members[bea] = CheckInStatusTests.member(
            [(0, NameSet(name: "Bea")), (0, Self.checkIn), (Self.h, Self.pause(until: 14 * Self.d, note: "holiday"))],
            device: "b")
        let during = Notifications.due(circle: paused, feed: Feed(), me: ana, now: Self.at(13 * Self.d))
        #expect(during.map(\.kind).filter { $0 != .contactAdded } == [.dependentPaused])
        #expect(during.first?.message.contains("until 2026-03-15 09:00 UTC") == true)
        let after = Notifications.due(circle: paused, feed: Feed(), me: ana, now: Self.at(14 * Self.d))
        let kinds: [Notification.Kind] = after.map(\.kind).filter { $0 != .contactAdded }
        #expect(Set(kinds) == [.dependentPaused, .dependentResumed])
        #expect(kinds.count == 2)
    }
}

extension ScheduleTests {
    /// "Bea's pause has ended …: next deadline" names the deadline `status` has then, also when
    /// a daily schedule makes it (09:00 the next morning, not the pause's end plus the interval).
    @Test func theEndOfAPauseNamesTheDeadlineTheScheduleGives() {
        var circle = CircleState()
        let daily = ScheduleSet(
            schedule: DailySchedule(
                times: [TimeOfDay(parsing: "09:00")].compactMap { $0 }, days: [], zone: "UTC", rule: "UTC0"))
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        circle.members["bea"] = CheckInStatusTests.member(
            [
                (0, NameSet(name: "Bea")), (0, IntervalSet(interval: .days(3))), (0, daily), (0, Self.checkIn),
                (Self.h, Self.pause(until: 2 * Self.d + 11 * Self.h)),
            ], device: "b")
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: Self.at(0), device: "a", seq: 1))
        let now = Self.at(2 * Self.d + 11 * Self.h)
        let resumed = Notifications.due(circle: circle, feed: Feed(), me: "ana", now: now)
            .first { $0.kind == .dependentResumed }
        #expect(resumed?.message.contains("next deadline 2026-03-04 09:00 UTC") == true, "\(resumed?.message ?? "")")
        #expect(
            CheckInStatus(member: circle.members["bea"] ?? MemberState(), now: now).deadline?.rfc3339
                == "2026-03-04T09:00:00Z")
    }
}

/// Fixed times of day across both daylight-saving changes, in two zones, at the boundary
/// second: the deadline after a check-in is the next scheduled time, unless the check-in was
/// within the window before it (then the one after).
@Suite struct DailyScheduleTests {
    static let london = "GMT0BST,M3.5.0/1,M10.5.0"
    static let newYork = "EST5EDT,M3.2.0,M11.1.0"

    static func t(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(seconds: 0) }

    static func schedule(_ times: [String], rule: String, days: [Int64] = []) -> DailySchedule {
        DailySchedule(times: times.compactMap(TimeOfDay.init(parsing:)), days: days, zone: "Z", rule: rule)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var schedule: DailySchedule
        var checkIn: String
        var deadline: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "London winter: 09:00 GMT is 09:00 UTC", schedule: schedule(["09:00"], rule: london),
            checkIn: "2026-03-01T12:00:00Z", deadline: "2026-03-02T09:00:00Z"),
        Row(
            name: "London, the day summer time starts: 09:00 BST is 08:00 UTC",
            schedule: schedule(["09:00"], rule: london), checkIn: "2026-03-28T12:00:00Z",
            deadline: "2026-03-29T08:00:00Z"),
        Row(
            name: "London, 01:30 does not exist on that day: taken as 02:30 BST",
            schedule: schedule(["01:30"], rule: london),
            checkIn: "2026-03-28T12:00:00Z", deadline: "2026-03-29T01:30:00Z"),
        Row(
            name: "London, the day summer time ends: 09:00 GMT is 09:00 UTC again",
            schedule: schedule(["09:00"], rule: london), checkIn: "2026-10-24T12:00:00Z",
            deadline: "2026-10-25T09:00:00Z"),
        Row(
            name: "London, 01:30 happens twice that night: the earlier one",
            schedule: schedule(["01:30"], rule: london),
            checkIn: "2026-10-24T12:00:00Z", deadline: "2026-10-25T00:30:00Z"),
        Row(
            name: "New York, the day daylight time starts: 09:00 EDT is 13:00 UTC",
            schedule: schedule(["09:00"], rule: newYork), checkIn: "2026-03-07T20:00:00Z",
            deadline: "2026-03-08T13:00:00Z"),
        Row(
            name: "New York, the day daylight time ends: 09:00 EST is 14:00 UTC",
            schedule: schedule(["09:00"], rule: newYork), checkIn: "2026-10-31T20:00:00Z",
            deadline: "2026-11-01T14:00:00Z"),
        Row(
            name: "a check-in 12h before the time counts for it", schedule: schedule(["09:00"], rule: "UTC0"),
            checkIn: "2026-03-01T21:00:00Z", deadline: "2026-03-03T09:00:00Z"),
        Row(
            name: "one second earlier it does not", schedule: schedule(["09:00"], rule: "UTC0"),
            checkIn: "2026-03-01T20:59:59Z", deadline: "2026-03-02T09:00:00Z"),
        Row(
            name: "a late check-in does not cover tomorrow", schedule: schedule(["09:00"], rule: "UTC0"),
            checkIn: "2026-03-02T09:10:00Z", deadline: "2026-03-03T09:00:00Z"),
        Row(
            name: "twice a day: the window is 12h", schedule: schedule(["09:00", "21:00"], rule: "UTC0"),
            checkIn: "2026-03-02T10:00:00Z", deadline: "2026-03-03T09:00:00Z"),
        Row(
            name: "weekdays only: Friday's check-in is due Monday",
            schedule: schedule(["09:00"], rule: "UTC0", days: [1, 2, 3, 4, 5]), checkIn: "2026-03-06T09:05:00Z",
            deadline: "2026-03-09T09:00:00Z"),
    ]

    @Test(arguments: rows)
    func deadline(_ row: Row) {
        #expect(row.schedule.deadline(after: Self.t(row.checkIn)) == Self.t(row.deadline))
    }

    @Test func aScheduleReplacesTheIntervalAndTravelsInTheLog() {
        let daily = Self.schedule(["09:00"], rule: Self.london)
        let state = CheckInStatusTests.member([
            (0, CheckedIn(note: nil)), (60, ScheduleSet(schedule: daily)),
        ])
        // 2026-03-01 09:00 UTC check-in, within the window of 2026-03-01 09:00 GMT itself.
        let status = CheckInStatus(member: state, now: CheckInStatusTests.at(3600))
        #expect(status.deadline == Self.t("2026-03-02T09:00:00Z"))
        #expect(status.schedule == daily)
        let back = CheckInStatusTests.member([
            (0, CheckedIn(note: nil)), (60, ScheduleSet(schedule: daily)), (120, ScheduleSet(schedule: nil)),
        ])
        #expect(CheckInStatus(member: back, now: CheckInStatusTests.at(3600)).deadline == CheckInStatusTests.at(86_400))
    }
}
