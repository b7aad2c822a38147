import Testing

@testable import LifeSignalCore

/// Events of one device in the same second (`lifesignal checkin -q && lifesignal checkin trip
/// 3h`) are ordered by their sequence, never by their equal timestamps: every rule that orders
/// a member's events, with two of them in one second, both ways round.
@Suite struct SameSecondTests {
    static let h: Int64 = 3600
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }
    static func member(_ events: [any EventBody], device: String = "a") -> MemberState {
        CheckInStatusTests.member(events.map { (0, $0) }, device: device)
    }
    static let checkIn = CheckedIn(note: nil)
    static let trip = TripSet(trip: Trip(deadline: at(3 * Self.h), note: nil))

    @Test func aTripSetInTheSecondOfACheckInHolds() {
        let status = CheckInStatus(member: Self.member([Self.checkIn, Self.trip]), now: Self.at(Self.h))
        #expect(status.trip?.value.deadline == Self.at(3 * Self.h))
        #expect(status.deadline == Self.at(3 * Self.h))
        // The reminder printed with the trip is the trip's: 30 minutes before its deadline.
        #expect(status.reminderAt == Self.at(3 * Self.h - 1800))
    }

    @Test func aCheckInInTheSecondAfterATripEndsIt() {
        let status = CheckInStatus(member: Self.member([Self.trip, Self.checkIn]), now: Self.at(Self.h))
        #expect(status.trip == nil)
        #expect(status.deadline == Self.at(24 * Self.h))
    }

    @Test func aPauseAndATripInOneSecondTheLaterWins() {
        let pause = PauseSet(pause: Pause(until: Self.at(10 * Self.h), note: nil))
        let paused = CheckInStatus(member: Self.member([Self.checkIn, Self.trip, pause]), now: Self.at(Self.h))
        #expect(paused.phase == .paused && paused.trip == nil)
        let tripped = CheckInStatus(member: Self.member([Self.checkIn, pause, Self.trip]), now: Self.at(Self.h))
        #expect(tripped.phase == .ok && tripped.pause == nil && tripped.deadline == Self.at(3 * Self.h))
    }

    @Test func aResumeInTheSecondOfItsPauseEndsIt() {
        let pause = PauseSet(pause: Pause(until: Self.at(10 * Self.h), note: nil))
        let resume = PauseSet(pause: Pause(until: Self.at(0), note: nil))
        let status = CheckInStatus(member: Self.member([Self.checkIn, pause, resume]), now: Self.at(Self.h))
        #expect(status.phase == .ok && status.pause == nil)
    }

    @Test func aScheduleSetInTheSecondOfACheckInCountsFromIt() {
        let daily = DailySchedule(
            times: [TimeOfDay(parsing: "18:00")].compactMap { $0 }, days: [], zone: "UTC", rule: "UTC0")
        // The 09:00 check-in counts for today's 18:00 (within 12 hours before it), in either order.
        for events: [any EventBody] in [
            [Self.checkIn, ScheduleSet(schedule: daily)], [ScheduleSet(schedule: daily), Self.checkIn],
        ] {
            let status = CheckInStatus(member: Self.member(events), now: Self.at(Self.h))
            #expect(status.deadline == Timestamp(rfc3339: "2026-03-02T18:00:00Z"))
        }
        let back = CheckInStatus(
            member: Self.member([ScheduleSet(schedule: daily), ScheduleSet(schedule: nil), Self.checkIn]),
            now: Self.at(Self.h))
        #expect(back.deadline == Self.at(24 * Self.h))
    }

    @Test func twoAlertsRaisedInOneSecondTheLaterIsTheActiveOne() {
        let ids = ["ffffffff-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
        let state = Self.member([AlertRaised(id: ids[0], message: "first"), AlertRaised(id: ids[1], message: "then")])
        #expect(state.activeAlert?.id == ids[1])
        let ended = Self.member([AlertRaised(id: ids[0], message: nil), AlertEnded(id: ids[0])])
        #expect(ended.activeAlert == nil)
    }

    @Test func acknowledgementsInOneSecondTheEarlierEventCounts() {
        var circle = EscalationTests.circle()
        let thread = Notification.Thread.deadline(member: "bea", at: EscalationTests.deadline)
        circle.relations[Pair("bea", "carl")] = Stamped(
            Roles(responder: true, dependent: false), Stamp(clock: 1, at: Self.at(0), device: "c", seq: 1))
        circle.sides[Side(writer: "bea", other: "carl")] = Stamped(
            Roles(responder: true, dependent: false), Stamp(clock: 1, at: Self.at(0), device: "b", seq: 9))
        let second = Self.at(25 * Self.h)
        circle.acknowledgements[thread.key] = [
            "carl": Stamp(clock: 7, at: second, device: "c", seq: 2),
            "ana": Stamp(clock: 6, at: second, device: "a", seq: 9),
        ]
        #expect(circle.acknowledgement(of: thread)?.by == "ana")
    }
}
