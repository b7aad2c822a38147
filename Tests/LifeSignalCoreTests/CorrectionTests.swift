import Testing

@testable import LifeSignalCore

/// A check-in made before a deadline that reached a watcher only after the miss was told (a
/// late sync): a correction, whatever made the deadline; and none for a check-in that did not
/// answer it.
@Suite struct CorrectionTests {
    static let h: Int64 = 3600
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }

    /// What Ana's device, which told Ana of Bea's miss of `deadline`, says about it at `now`
    /// with Bea's history `events` (offsets from 2026-03-01 09:00 UTC).
    static func followUp(_ events: [(Int64, any EventBody)], missed deadline: Int64, now: Int64) -> String? {
        var circle = CircleState()
        circle.members["bea"] = CheckInStatusTests.member([(0, NameSet(name: "Bea"))] + events, device: "b")
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: at(0), device: "a", seq: 1))
        var feed = Feed()
        _ = feed.add(
            Notification(
                kind: .dependentNonResponsive, cause: "\(at(deadline).seconds)", message: "Bea missed",
                at: at(deadline), subject: "bea", recipient: .member("ana"),
                thread: .deadline(member: "bea", at: at(deadline))))
        return Notifications.due(circle: circle, feed: feed, me: "ana", now: at(now))
            .first { $0.kind == .dependentCheckedIn }?.message
    }

    static let checkIn = CheckedIn(note: nil)

    @Test func theIntervalsDeadline() {
        let said = Self.followUp(
            [(0, Self.checkIn), (24 * Self.h - 600, Self.checkIn)], missed: 24 * Self.h, now: 25 * Self.h)
        #expect(
            said?.hasPrefix("Correction: Bea did check in on time, at 2026-03-02 08:50 UTC") == true, "\(said ?? "")")
    }

    @Test func aDailySchedulesDeadline() {
        let daily = ScheduleSet(
            schedule: DailySchedule(
                times: [TimeOfDay(parsing: "09:00")].compactMap { $0 }, days: [], zone: "UTC", rule: "UTC0"))
        // Checked in at 10:00 on the 1st: due 09:00 on the 2nd; the 08:50 check-in arrives late.
        let said = Self.followUp(
            [(-Self.h, daily), (Self.h, Self.checkIn), (24 * Self.h - 600, Self.checkIn)], missed: 24 * Self.h,
            now: 25 * Self.h)
        #expect(
            said?.hasPrefix("Correction: Bea did check in on time, at 2026-03-02 08:50 UTC") == true, "\(said ?? "")")
    }

    @Test func aTripsDeadline() {
        let trip = TripSet(trip: Trip(deadline: Self.at(3 * Self.h), note: "ridge"))
        let said = Self.followUp(
            [(0, Self.checkIn), (Self.h, trip), (3 * Self.h - 600, Self.checkIn)], missed: 3 * Self.h, now: 4 * Self.h)
        #expect(
            said?.hasPrefix("Correction: Bea did check in on time, at 2026-03-01 11:50 UTC") == true, "\(said ?? "")")
    }

    /// A trip set the next morning, due back at the very second the deadline before the last
    /// check-in fell, and missed: that check-in is no answer to it (review R1).
    @Test func aTripSetAfterTheLastCheckInIsNotAnsweredByItEvenWhenTheSecondsAgree() {
        let trip = TripSet(trip: Trip(deadline: Self.at(24 * Self.h), note: "ridge walk"))
        let events: [(Int64, any EventBody)] = [(0, Self.checkIn), (13 * Self.h, Self.checkIn), (21 * Self.h, trip)]
        #expect(Self.followUp(events, missed: 24 * Self.h, now: 25 * Self.h) == nil)
    }

    /// A trip and, in the same second, the check-in after it that ended it: the check-in
    /// answered the trip, and a miss told before it arrived is corrected (review R3).
    @Test func aCheckInInTheSecondOfTheTripAfterItAnswersIt() {
        let trip = TripSet(trip: Trip(deadline: Self.at(3 * Self.h), note: "ridge"))
        let said = Self.followUp(
            [(0, Self.checkIn), (Self.h, trip), (Self.h, Self.checkIn)], missed: 3 * Self.h, now: 4 * Self.h)
        #expect(
            said?.hasPrefix("Correction: Bea did check in on time, at 2026-03-01 10:00 UTC") == true, "\(said ?? "")")
    }

    /// The last check-in came before the trip was set: the trip was missed, and nothing of it
    /// is corrected.
    @Test func aCheckInFromBeforeTheTripIsNoAnswerToIt() {
        let trip = TripSet(trip: Trip(deadline: Self.at(3 * Self.h), note: "ridge"))
        #expect(Self.followUp([(0, Self.checkIn), (Self.h, trip)], missed: 3 * Self.h, now: 4 * Self.h) == nil)
        // Nor the check-in that set an interval's deadline.
        #expect(Self.followUp([(0, Self.checkIn)], missed: 24 * Self.h, now: 25 * Self.h) == nil)
    }

    /// Bea, told missed at 09:00, lengthens her interval at 09:20 instead of checking in: the
    /// miss no longer counts, and those told hear so rather than nothing (the repeats stop).
    @Test func aScheduleChangeThatEndsAToldMissIsSaid() {
        let events: [(Int64, any EventBody)] = [
            (0, Self.checkIn), (24 * Self.h + 1200, IntervalSet(interval: .days(2))),
        ]
        let said = Self.followUp(events, missed: 24 * Self.h, now: 24 * Self.h + 1500)
        #expect(
            said
                == "Schedule changed: Bea changed their check-in schedule at 2026-03-02 09:20 UTC, after missing the check-in due 2026-03-02 09:00 UTC, without checking in. That missed check-in no longer counts; their next deadline is 2026-03-03 09:00 UTC.",
            "\(said ?? "")")
        // Shortened instead, so that she is overdue still: the miss goes on (no word of an end).
        let shorter: [(Int64, any EventBody)] = [
            (0, Self.checkIn), (24 * Self.h + 1200, IntervalSet(interval: .hours(8))),
        ]
        #expect(Self.followUp(shorter, missed: 24 * Self.h, now: 24 * Self.h + 1500) == nil)
    }

    /// The on-time check-in arrives late, and meanwhile, after the deadline, she set a trip (or
    /// her interval again): what was set after the deadline made nothing that was missed, and
    /// the correction is still owed (review-latest D1).
    @Test func aSettingAfterTheDeadlineDoesNotHoldBackTheCorrection() {
        let trip = TripSet(trip: Trip(deadline: Self.at(30 * Self.h), note: "ridge"))
        for later in [trip, IntervalSet(interval: .days(1))] as [any EventBody] {
            let said = Self.followUp(
                [(0, Self.checkIn), (24 * Self.h - 600, Self.checkIn), (24 * Self.h + 1800, later)],
                missed: 24 * Self.h, now: 25 * Self.h)
            #expect(said?.hasPrefix("Correction: Bea did check in on time") == true, "\(said ?? "")")
        }
    }
}
