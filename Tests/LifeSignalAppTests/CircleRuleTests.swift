import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// The rules between people, run in-process: tiers, acknowledgement holds, pings, a removed
/// responder, and a watcher's vouch, with played channels.
@Suite struct CircleRuleTests {
    static let sam = DeliveryUseCaseTests.sam
    static let tom = "ntfy:https://ntfy.example/tom-alarms"

    /// Ana with Sam in the first tier and Tom in the second, an hour later.
    static func anaWithTwoTiers() throws -> Sandbox {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).addExternal(ExternalContact(name: "Tom", notify: [tom], email: [], phone: []))
        var second = App.ContactEdit()
        second.tier = 2
        _ = try box.app("ana", at: t0).editContact("Tom", second)
        _ = try box.app("ana", at: t0).setEscalation(.hours(1))
        return box
    }

    @Test func theSecondTierIsToldOnlyWhenTheFirstHasHadItsHour() throws {
        let box = try Self.anaWithTwoTiers()
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).count == 1)
        #expect(box.wire.sent(to: Self.tom).isEmpty, "Tom waits for Sam's hour")
        _ = try box.app("ana", at: "2026-03-02T09:55:00Z").deliver()
        #expect(box.wire.sent(to: Self.tom).isEmpty)
        _ = try box.app("ana", at: "2026-03-02T10:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.tom).map(\.notification.kind) == [.dependentNonResponsive])
    }

    @Test func aCheckInWithinTheFirstHourSparesTheSecondTier() throws {
        let box = try Self.anaWithTwoTiers()
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T10:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.tom).isEmpty, "nothing for Tom to do")
        #expect(box.wire.sent(to: Self.sam).map(\.notification.kind) == [.dependentNonResponsive, .dependentCheckedIn])
    }

    @Test func aRemovedResponderIsToldNothingMore() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).removeContact("Sam")
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).isEmpty)
        #expect(try box.app("ana", at: t0).contacts().isEmpty)
    }

    /// Bob watches over Ana: his ping waits for her answer, and her answer reaches his feed.
    @Test func aPingWaitsForTheAnswerAndTheAnswerReachesTheResponder() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let sent = try box.app("bob", at: "2026-03-01T12:00:00Z").sendPing(to: "Ana")
        let waiting = try box.app("ana", at: "2026-03-01T12:01:00Z").pings()
        #expect(waiting.map(\.state) == [.pending] && waiting.first?.incoming == true)
        #expect(waiting.first?.otherName == "Bob")
        _ = try box.app("ana", at: "2026-03-01T12:10:00Z").respond(.one(String(sent.id.prefix(8))))
        let answered = try box.app("bob", at: "2026-03-01T12:15:00Z").pings()
        #expect(answered.map(\.state) == [.answered], "\(answered.map(\.state))")
        let feed = try box.app("bob", at: "2026-03-01T12:15:00Z").notifications(App.FeedFilter(everything: true))
        #expect(feed.entries.contains { $0.kind == .pingResponded })
    }

    /// A second ping to the same dependent while one waits is refused: one may be pending.
    @Test func oneTimeAPingMayWait() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-01T12:00:00Z").sendPing(to: "Ana")
        #expect(
            refusal { () throws(AppError) in try box.app("bob", at: "2026-03-01T12:05:00Z").sendPing(to: "Ana") } != nil
        )
    }

    /// With hourly repeats, Bob's "I'm on it" holds them: no notice to Sam for two hours.
    @Test func anAcknowledgementHoldsTheRepeatsForTwoHours() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: t0).setRepeat(.hours(1))
        _ = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        let feed = try box.app("bob", at: "2026-03-02T09:20:00Z").notifications(App.FeedFilter(everything: true))
        let miss = try #require(feed.entries.first { $0.kind == .dependentNonResponsive })
        _ = try box.app("bob", at: "2026-03-02T09:20:00Z").acknowledge(String(miss.id.prefix(8)))
        for now in ["2026-03-02T10:10:00Z", "2026-03-02T11:10:00Z"] { _ = try box.app("ana", at: now).deliver() }
        let misses = box.wire.sent(to: Self.sam).filter { $0.notification.kind == .dependentNonResponsive }
        #expect(misses.count == 1, "held: \(misses.map(\.message.title))")
        _ = try box.app("ana", at: "2026-03-02T11:25:00Z").deliver()
        let after = box.wire.sent(to: Self.sam).filter { $0.notification.kind == .dependentNonResponsive }
        #expect(after.count == 2, "the hold ends two hours after the acknowledgement")
    }
}
