import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Misses, the grace, tiers and reminders, as the delivery use case decides them (issue #41):
/// when a miss is told, to whom first, what a late run still sends and what it no longer does.
@Suite struct MissRuleTests {
    static let sam = Told.sam
    static let tom = CircleRuleTests.tom

    @Test func nothingIsToldBeforeTheDeadline() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let report = try box.app("ana", at: "2026-03-02T08:59:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).isEmpty)
        #expect(report.noticed.allSatisfy { $0.kind.category != .checkIns || $0.kind == .checkInReminder })
        #expect(report.delivered.isEmpty)
    }

    /// Her own device records the miss in her own feed too, and says it to her.
    @Test func theMissIsNoticedInHerOwnFeed() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let report = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(report.noticed.map(\.kind).contains(.missedCheckIn), "\(report.noticed.map(\.kind))")
        let mine = try Told.entry(box, "ana", at: "2026-03-02T09:06:00Z", .missedCheckIn)
        #expect(mine?.at == Told.time("2026-03-02T09:00:00Z"))
    }

    @Test func theGraceDelaysTheMissAndNothingElse() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setGrace(.minutes(30))
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T09:29:00Z"])
        #expect(box.wire.sent(to: Self.sam).isEmpty, "within the grace")
        try Told.deliver(box, at: ["2026-03-02T09:31:00Z"])
        let told = try #require(Told.misses(box).first)
        #expect(told.message.title == "Ana missed the 09:00 check-in", "the deadline, not its end of grace")
    }

    @Test func aCheckInWithinTheGraceIsNoMiss() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setGrace(.minutes(30))
        try Told.deliver(box, at: ["2026-03-02T09:10:00Z"])
        _ = try box.app("ana", at: "2026-03-02T09:20:00Z").checkIn(note: nil)
        try Told.deliver(box, at: ["2026-03-02T09:35:00Z", "2026-03-02T11:00:00Z"])
        #expect(box.wire.sent(to: Self.sam).isEmpty, "no miss, so no all-clear either")
    }

    @Test func aGraceLongerThanADayIsRefused() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let app = box.app("ana", at: t0)
        #expect(
            refusal { () throws(AppError) in try app.setGrace(.hours(25)) }
                == .refused(.setting(.graceTooLong(.hours(25)))))
    }

    /// The home server was down for a weekend: a miss still overdue goes however late, saying
    /// how late it was noticed.
    @Test func aMissStillOverdueIsSentHoweverLate() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        try Told.deliver(box, at: ["2026-03-04T12:00:00Z"])
        let told = Told.misses(box)
        #expect(told.count == 1)
        #expect(
            told.first?.message.summary.contains("Noticed 2d 3h after the deadline") == true,
            "\(told.first?.message.summary ?? "")")
    }

    /// Missed, then checked in, before any run: nothing stale goes two days later.
    @Test func aMissEndedBeforeAnyRunIsNeverSent() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-02T10:00:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T10:00:00Z").setInterval(.days(7))
        try Told.deliver(box, at: ["2026-03-04T12:00:00Z"])
        #expect(box.wire.sent(to: Self.sam).isEmpty)
    }

    /// The lowest tier in use is the first told: with nobody in tier one, tier two is told at
    /// the deadline, not an hour later.
    @Test func theLowestTierInUseIsToldFirst() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        var second = App.ContactEdit()
        second.tier = 2
        _ = try box.app("ana", at: t0).editContact("Sam", second)
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        #expect(Told.misses(box).count == 1)
    }

    /// The next tier's wait is hers to choose, counted from the deadline.
    @Test func theDelayBetweenTiersIsHers() throws {
        let box = try CircleRuleTests.anaWithTwoTiers()
        _ = try box.app("ana", at: t0).setEscalation(.minutes(30))
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z", "2026-03-02T09:29:00Z"])
        #expect(box.wire.sent(to: Self.tom).isEmpty)
        try Told.deliver(box, at: ["2026-03-02T09:31:00Z"])
        #expect(Told.kinds(box, to: Self.tom) == [.dependentNonResponsive])
        let app = box.app("ana", at: t0)
        #expect(
            refusal { () throws(AppError) in try app.setEscalation(.hours(25)) }
                == .refused(.setting(.escalationOutOfRange(.hours(25)))))
    }

    /// Bob in tier one says "I'm on it" within the first hour: tier two waits for the hold.
    @Test func anAcknowledgementHoldsTheNextTier() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Tom", notify: [Self.tom], email: [], phone: []))
        var second = App.ContactEdit()
        second.tier = 2
        _ = try box.app("ana", at: t0).editContact("Tom", second)
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        try Told.acknowledgeMiss(box, "bob", at: "2026-03-02T09:20:00Z")
        try Told.deliver(box, at: ["2026-03-02T10:05:00Z", "2026-03-02T11:15:00Z"])
        #expect(Told.misses(box, to: Self.tom).isEmpty, "held while Bob is on it")
        try Told.deliver(box, at: ["2026-03-02T11:25:00Z"])
        #expect(Told.misses(box, to: Self.tom).count == 1, "the hold is over")
    }

    /// Her own channel gets the reminder before the deadline, once; responders never do.
    @Test func theReminderGoesToHerOwnChannelOnce() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let mine = "ntfy:https://ntfy.example/ana-notes"
        var change = App.PreferencesChange()
        change.channels = [mine]
        _ = try box.app("ana", at: t0).preferences(change)
        try Told.deliver(box, at: ["2026-03-02T08:00:00Z"])
        #expect(Told.sent(box, to: mine, .checkInReminder).isEmpty, "too early")
        try Told.deliver(box, at: ["2026-03-02T08:35:00Z", "2026-03-02T08:45:00Z"])
        #expect(Told.sent(box, to: mine, .checkInReminder).count == 1)
        #expect(box.wire.sent(to: Self.sam).isEmpty)
    }

    @Test func noReminderWhenSheTurnedItOffOrCheckedInFirst() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let mine = "ntfy:https://ntfy.example/ana-notes"
        var change = App.PreferencesChange()
        change.channels = [mine]
        _ = try box.app("ana", at: t0).preferences(change)
        _ = try box.app("ana", at: t0).setReminder(nil)
        try Told.deliver(box, at: ["2026-03-02T08:35:00Z"])
        #expect(Told.sent(box, to: mine, .checkInReminder).isEmpty, "off")
        _ = try box.app("ana", at: "2026-03-02T08:40:00Z").setReminder(.minutes(30))
        _ = try box.app("ana", at: "2026-03-02T08:40:00Z").checkIn(note: nil)
        try Told.deliver(box, at: ["2026-03-02T08:45:00Z"])
        #expect(Told.sent(box, to: mine, .checkInReminder).isEmpty, "her check-in moved the deadline")
    }
}
