import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Answers to an alarm, as the use cases decide them (issue #41): "I'm on it" from another
/// machine and what it holds, a vouch and what it ends. Ana (deadline 2026-03-02 09:00) with
/// Sam, and Bob watching over her from his own device.
@Suite struct AnswerRuleTests {
    static let sam = Told.sam

    /// An acknowledgement still holding is not given again: one "is on it" for Sam.
    @Test func anAcknowledgementIsGivenOnceWhileItHolds() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        let first = try Told.acknowledgeMiss(box, "bob", at: "2026-03-02T09:20:00Z")
        let again = try Told.acknowledgeMiss(box, "bob", at: "2026-03-02T10:00:00Z")
        #expect(first.holdsUntil == Told.time("2026-03-02T11:20:00Z"))
        #expect(again.holdsUntil == first.holdsUntil, "the earlier one still holds")
        #expect(Told.sent(box, .acknowledged).count == 1)
    }

    @Test func onlyAMissOrAnAlertAboutSomeoneElseCanBeAcknowledged() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").checkIn(note: nil)
        let clear = try #require(try Told.entry(box, "bob", at: "2026-03-02T09:31:00Z", .dependentCheckedIn))
        let text = String(clear.id.prefix(8))
        let app = box.app("bob", at: "2026-03-02T09:31:00Z")
        #expect(
            refusal { () throws(AppError) in try app.acknowledge(text) } == .refused(.feed(.notAcknowledgeable(text))))
    }

    /// Until Ana confirms Bob, his "I'm on it" would hold nothing on her device: refused, not
    /// recorded as if it did.
    @Test func anUnconfirmedWatchersAcknowledgementIsRefused() throws {
        let box = try FirstMonthTests.anaBobAndSam(confirmed: false)
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        let miss = try #require(try Told.entry(box, "bob", at: "2026-03-02T09:20:00Z", .dependentNonResponsive))
        let app = box.app("bob", at: "2026-03-02T09:20:00Z")
        #expect(
            refusal { () throws(AppError) in try app.acknowledge(String(miss.id.prefix(8))) }
                == .refused(.feed(.notConfirmed(name: "Ana"))))
        #expect(Told.sent(box, .acknowledged).isEmpty)
    }

    /// Bob's "I'm on it", recorded on his machine, reaches Ana's feed and holds her own
    /// device's alert repeats too.
    @Test func anAcknowledgementOfAnAlertHoldsItsRepeats() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: "fell on the stairs")
        let alert = try #require(try Told.entry(box, "bob", at: "2026-03-01T12:10:00Z", .dependentAlert))
        _ = try box.app("bob", at: "2026-03-01T12:10:00Z").acknowledge(String(alert.id.prefix(8)))
        try Told.deliver(box, at: ["2026-03-01T13:05:00Z", "2026-03-01T14:05:00Z"])
        #expect(Told.sent(box, .dependentAlert).count == 1, "held two hours")
        try Told.deliver(box, at: ["2026-03-01T14:15:00Z"])
        #expect(Told.sent(box, .dependentAlert).count == 2)
        let hers = try Told.feed(box, "ana", at: "2026-03-01T14:20:00Z")
        #expect(
            hers.contains { $0.kind == .acknowledged && $0.message.hasPrefix("Bob is on it") }, "\(hers.map(\.message))"
        )
    }

    @Test func aVouchBeforeAMissIsRefused() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let app = box.app("bob", at: "2026-03-02T08:00:00Z")
        #expect(
            refusal { () throws(AppError) in try app.vouch(for: "Ana", note: nil) }
                == .refused(.contact(.notMissed(name: "Ana", deadline: Told.time("2026-03-02T09:00:00Z")))))
    }

    /// A vouch ends the miss: the all-clear carries Bob's words, the repeats stop, Ana hears
    /// it was Bob's word (not her check-in), and her countdown restarts from the vouch.
    @Test func aVouchEndsTheMissAndRestartsHerCountdown() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, "bob", at: ["2026-03-02T09:15:00Z"])
        let vouched = try box.app("bob", at: "2026-03-02T09:30:00Z").vouch(for: "Ana", note: "at the shop at 9:20")
        #expect(vouched.missed == Told.time("2026-03-02T09:00:00Z"))
        #expect(vouched.status.deadline == Told.time("2026-03-03T09:30:00Z"))
        let clear = try #require(box.wire.sent(to: Self.sam).last)
        #expect(clear.notification.kind == .dependentCheckedIn)
        #expect(
            clear.message.summary.hasPrefix(
                "Vouched: Bob has seen Ana and says they are fine (at 2026-03-02 09:30 UTC): “at the shop at 9:20”."),
            "\(clear.message.summary)")
        try Told.deliver(box, "bob", at: ["2026-03-02T10:20:00Z", "2026-03-02T11:00:00Z"])
        try Told.deliver(box, at: ["2026-03-02T11:00:00Z"])
        #expect(Told.misses(box).count == 1, "a vouch ends the repeats too")
        let hers = try Told.feed(box, "ana", at: "2026-03-02T11:00:00Z")
        #expect(
            hers.contains { $0.message.hasPrefix("Bob vouched for you at 2026-03-02 09:30 UTC") },
            "\(hers.map(\.message))")
        #expect(try box.app("ana", at: "2026-03-02T11:00:00Z").history(limit: 10, since: nil).total == 1)
    }

    /// The switch stays armed: two misses in a row may be ended by a vouch, the third may not,
    /// and her own check-in starts the count again.
    @Test func aThirdVouchInARowIsRefusedUntilSheChecksIn() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-02T09:30:00Z").vouch(for: "Ana", note: nil)
        _ = try box.app("bob", at: "2026-03-03T10:00:00Z").vouch(for: "Ana", note: nil)
        let third = box.app("bob", at: "2026-03-04T10:30:00Z")
        #expect(
            refusal { () throws(AppError) in try third.vouch(for: "Ana", note: nil) }
                == .refused(.contact(.vouchedTooOften(name: "Ana", count: 2))))
        try Told.deliver(box, "bob", at: ["2026-03-04T10:40:00Z"])
        #expect(Told.misses(box).last?.message.causeAt == Told.time("2026-03-04T10:00:00Z"))
        _ = try box.app("ana", at: "2026-03-04T11:00:00Z").checkIn(note: nil)
        _ = try box.app("bob", at: "2026-03-05T11:30:00Z").vouch(for: "Ana", note: nil)
    }

    /// A vouch is for a miss happening now: more than a day after it, too late.
    @Test func aVouchADayAfterTheMissIsTooLate() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let app = box.app("bob", at: "2026-03-03T09:01:00Z")
        guard
            case .refused(.contact(.vouchTooLate(let name, let deadline, _)))? = refusal({ () throws(AppError) in
                try app.vouch(for: "Ana", note: nil)
            })
        else {
            Issue.record("a vouch a day late was not refused")
            return
        }
        #expect(name == "Ana" && deadline == Told.time("2026-03-02T09:00:00Z"))
    }

    @Test func onlyAConfirmedWatcherVouchesAndOnlyForAMember() throws {
        let unconfirmed = try FirstMonthTests.anaBobAndSam(confirmed: false)
        let bob = unconfirmed.app("bob", at: "2026-03-02T09:30:00Z")
        #expect(
            refusal { () throws(AppError) in try bob.vouch(for: "Ana", note: nil) }
                == .refused(.contact(.vouchNeedsConfirmation(name: "Ana"))))
        #expect(unconfirmed.wire.sent(to: Self.sam).isEmpty, "nothing recorded, nothing sent")
        let alone = try DeliveryUseCaseTests.anaWithSam()
        let ana = alone.app("ana", at: "2026-03-02T09:30:00Z")
        #expect(
            refusal { () throws(AppError) in try ana.vouch(for: "Sam", note: nil) }
                == .refused(.contact(.vouchIsForDependents(name: "Sam", external: true))))
    }
}
