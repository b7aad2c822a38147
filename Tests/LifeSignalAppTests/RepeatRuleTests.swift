import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Repeats and their numbering, as the delivery use case decides them (issue #41): an
/// unanswered alarm is told again at the interval the person chose, each time a new message
/// threaded to the first, numbered by how many intervals have passed since the first went out.
/// These were AnswerTests' scenarios through the binary.
@Suite struct RepeatRuleTests {
    static let sam = Told.sam

    @Test func aRepeatIsItsOwnMessageThreadedToTheFirstAndSaysWhichNoticeItIs() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T10:00:00Z"])
        #expect(Told.misses(box).count == 1, "an hour has not passed since the first went out")
        try Told.deliver(box, at: ["2026-03-02T10:06:00Z"])
        let told = Told.misses(box)
        let first = try #require(told.first)
        let second = try #require(told.last)
        #expect(told.map(\.notification.notice) == [1, 2])
        #expect(second.notification.id != first.notification.id, "its own id, so no receiver drops it")
        #expect(second.message.follows == first.notification.id)
        #expect(second.message.thread == first.message.thread && second.message.thread != nil)
        #expect(second.message.causeAt == first.message.causeAt, "the deadline she missed, not the repeat's time")
        #expect(second.message.causeAt == Told.time("2026-03-02T09:00:00Z"))
        #expect(first.message.title == "Ana missed the 09:00 check-in", "\(first.message.title)")
        #expect(second.message.title == "Ana missed the 09:00 check-in (second notice)")
        #expect(
            second.message.summary.hasPrefix("Second notice, 1h after the first: Ana missed"),
            "\(second.message.summary)")
        #expect(second.message.text().contains("Due: Mon 2 Mar 2026, 09:00 UTC"), "\(second.message.text())")
    }

    /// A run after a long gap (cron was off) sends the latest notice only, numbered by the
    /// hours since the first, and says how long it has been.
    @Test func aRunAfterALongGapSendsOnlyTheLatestNotice() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T12:10:00Z"])
        let told = Told.misses(box)
        #expect(told.map(\.notification.notice) == [1, 4], "\(told.map(\.notification.notice))")
        #expect(told.last?.message.title == "Ana missed the 09:00 check-in (fourth notice)")
        #expect(
            told.last?.message.summary.hasPrefix("Fourth notice, 3h after the first") == true,
            "\(told.last?.message.summary ?? "")")
    }

    @Test func repeatsComeAtTheIntervalSheChose() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setRepeat(.minutes(30))
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T09:30:00Z", "2026-03-02T09:36:00Z"])
        #expect(Told.misses(box).map(\.notification.notice) == [1, 2], "every 30m, as Ana chose")
    }

    @Test func withRepeatsOffAMissIsToldOnce() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setRepeat(nil)
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T10:06:00Z", "2026-03-02T15:00:00Z"])
        #expect(Told.misses(box).map(\.notification.notice) == [1])
    }

    @Test(arguments: [TimeSpan.minutes(5), TimeSpan.minutes(9), TimeSpan.days(8)])
    func aRepeatOutsideTenMinutesToSevenDaysIsRefused(every: TimeSpan) throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let app = box.app("ana", at: t0)
        #expect(
            refusal { () throws(AppError) in try app.setRepeat(every) }
                == .refused(.setting(.repeatOutOfRange(every))))
    }

    /// A check-in answers the alarm: the all-clear goes, and no further notice.
    @Test func aCheckInStopsTheRepeatsAndTheNextMissStartsAtOne() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T10:06:00Z"])
        _ = try box.app("ana", at: "2026-03-02T10:30:00Z").checkIn(note: nil)
        try Told.deliver(box, at: ["2026-03-02T10:31:00Z", "2026-03-02T12:00:00Z"])
        #expect(Told.kinds(box).suffix(1) == [.dependentCheckedIn])
        try Told.deliver(box, at: ["2026-03-03T10:35:00Z"])
        let told = Told.misses(box)
        #expect(told.map(\.notification.notice) == [1, 2, 1])
        #expect(told.last?.message.thread != told.first?.message.thread, "a new miss, a new thread")
        #expect(told.last?.message.causeAt == Told.time("2026-03-03T10:30:00Z"))
    }

    /// After an "I'm on it" held them two hours, the repeats go on, saying who was on it and
    /// for how long nothing answered.
    @Test func theRepeatAfterAHoldSaysWhoWasOnIt() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let (_, holds, _) = try Told.acknowledgeMiss(box, "bob", at: "2026-03-02T09:20:00Z")
        #expect(holds == Told.time("2026-03-02T11:20:00Z"))
        try Told.deliver(box, at: ["2026-03-02T11:19:00Z"])
        #expect(Told.misses(box).count == 1, "held")
        try Told.deliver(box, at: ["2026-03-02T11:25:00Z"])
        let after = try #require(Told.misses(box).last)
        #expect(Told.misses(box).count == 2)
        #expect(
            after.message.summary.hasPrefix(
                "Bob said they were on it at Mon 2 Mar 2026, 09:20 UTC; in the 2h 5m since, no check-in, vouch or other answer has reached the sender of this message."
            ), "\(after.message.summary)")
    }

    /// An alert is told again hourly, like a miss, until it ends; its end ends the repeats.
    @Test func anAlertIsToldAgainUntilItEnds() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: "fell on the stairs")
        try Told.deliver(box, at: ["2026-03-01T12:30:00Z", "2026-03-01T13:01:00Z"])
        let alerts = Told.sent(box, .dependentAlert)
        #expect(alerts.map(\.notification.notice) == [1, 2])
        #expect(
            alerts.last?.message.title.hasSuffix("raised an emergency alert (second notice)") == true,
            "\(alerts.last?.message.title ?? "")")
        _ = try box.app("ana", at: "2026-03-01T13:10:00Z").endAlert()
        try Told.deliver(box, at: ["2026-03-01T14:05:00Z", "2026-03-01T16:00:00Z"])
        #expect(Told.sent(box, .dependentAlert).count == 2, "the alert's end ends the repeats")
        #expect(Told.kinds(box).last == .dependentAlertResolved)
    }

    /// A responder added during the alarm hears it as a first notice, and her repeats keep her
    /// own hour, not the others'.
    @Test func aResponderAddedDuringTheAlarmHasHerOwnFirstNoticeAndHour() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let kim = "ntfy:https://ntfy.example/kim-alarms"
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").addExternal(
            ExternalContact(name: "Kim", notify: [kim], email: [], phone: []))
        try Told.deliver(box, at: ["2026-03-02T09:35:00Z", "2026-03-02T10:06:00Z"])
        #expect(Told.misses(box, to: kim).map(\.notification.notice) == [1], "an hour after her own first")
        #expect(Told.misses(box, to: kim).first?.message.title == "Ana missed the 09:00 check-in")
        #expect(Told.misses(box).map(\.notification.notice) == [1, 2])
        try Told.deliver(box, at: ["2026-03-02T10:40:00Z"])
        #expect(Told.misses(box, to: kim).map(\.notification.notice) == [1, 2])
    }
}
