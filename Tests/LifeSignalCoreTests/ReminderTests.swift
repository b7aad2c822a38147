import Testing

@testable import LifeSignalCore

/// The reminder's words when it is noticed: on time, late, or at the deadline itself.
@Suite struct ReminderTests {
    static let checkedIn = Timestamp(seconds: 1_772_355_600)
    static let deadline = checkedIn + .hours(24)

    static func reminder(noticedAt now: Timestamp) -> String? {
        var circle = CircleState()
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana")), (0, CheckedIn(note: nil))])
        circle.members["ana"]?.lastCheckIn = MemberState.CheckIn(
            stamp: Stamp(clock: 1, at: checkedIn, device: "a", seq: 2), note: nil)
        return Notifications.due(circle: circle, feed: Feed(), me: "ana", now: now)
            .first { $0.kind == .checkInReminder }?.message
    }

    @Test func aReminderNoticedAtTheDeadlineSaysItIsDueNowNotThatItExpiresIn0s() {
        #expect(
            Self.reminder(noticedAt: Self.deadline - .minutes(30)) == "Your check-in will expire in 30m. Check in now.")
        #expect(
            Self.reminder(noticedAt: Self.deadline - .minutes(10))
                == "Your check-in will expire in 10m, at 2026-03-02 09:00 UTC. Check in now.")
        #expect(
            Self.reminder(noticedAt: Self.deadline)
                == "Your check-in is due now, at 2026-03-02 09:00 UTC. Check in now.")
    }
}
