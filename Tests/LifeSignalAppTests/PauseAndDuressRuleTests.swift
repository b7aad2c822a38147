import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Holiday pauses and duress delivery, as the use cases decide them (issue #41): a pause is
/// told at its start and end and holds every miss between; a duress alarm reaches each
/// recipient once, retried until it is delivered, and goes nowhere else.
@Suite struct PauseAndDuressRuleTests {
    static let sam = Told.sam

    @Test func aPauseIsToldAndHoldsTheMissesUntilItEnds() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let paused = try box.app("ana", at: "2026-03-01T12:00:00Z").pause(
            until: Told.time("2026-03-05T12:00:00Z"), note: "in Lisbon", long: false)
        #expect(paused.status.deadline == nil, "no deadline while paused")
        try Told.deliver(box, at: ["2026-03-01T12:01:00Z", "2026-03-02T09:05:00Z", "2026-03-04T09:05:00Z"])
        #expect(Told.kinds(box) == [.dependentPaused], "\(Told.kinds(box))")
        #expect(box.wire.sent(to: Self.sam).first?.message.summary.contains("in Lisbon") == true)
        try Told.deliver(box, at: ["2026-03-05T12:05:00Z"])
        #expect(Told.kinds(box) == [.dependentPaused, .dependentResumed])
        let after = try box.app("ana", at: "2026-03-05T12:06:00Z").checkInStatus()
        #expect(after.deadline == Told.time("2026-03-06T12:00:00Z"), "the countdown restarts from its end")
        try Told.deliver(box, at: ["2026-03-06T12:05:00Z"])
        #expect(Told.misses(box).first?.message.causeAt == Told.time("2026-03-06T12:00:00Z"))
    }

    @Test func resumingEndsThePauseNowAndIsTold() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let app = box.app("ana", at: "2026-03-01T12:00:00Z")
        #expect(refusal { () throws(AppError) in try app.resume() } == .refused(.setting(.notPaused)))
        _ = try app.pause(until: Told.time("2026-03-05T12:00:00Z"), note: nil, long: false)
        let resumed = try box.app("ana", at: "2026-03-02T12:00:00Z").resume()
        #expect(resumed.status.deadline == Told.time("2026-03-03T12:00:00Z"))
        try Told.deliver(box, at: ["2026-03-02T12:01:00Z"])
        #expect(Told.kinds(box) == [.dependentPaused, .dependentResumed])
    }

    @Test func aPauseMustEndInTheFutureAndALongOneNeedsConfirming() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let app = box.app("ana", at: "2026-03-01T12:00:00Z")
        let past = Told.time("2026-03-01T11:00:00Z")
        #expect(
            refusal { () throws(AppError) in try app.pause(until: past, note: nil, long: false) }
                == .refused(.setting(.notInFuture(past))))
        let far = Told.time("2026-06-01T12:00:00Z")
        guard
            case .refused(.setting(.pauseTooLong))? = refusal({ () throws(AppError) in
                try app.pause(until: far, note: nil, long: false)
            })
        else {
            Issue.record("a three-month pause was taken without confirmation")
            return
        }
        #expect(box.wire.sent.isEmpty)
        _ = try app.pause(until: far, note: nil, long: true)
    }

    /// Ana with a duress word set (one hashing round: a test) and Sam told of a duress alarm.
    static func anaWithADuressWord() throws -> Sandbox {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let reach = try box.app("ana", at: t0).setDuressWord("bluebird", rounds: 1)
        #expect(reach.told == ["Sam"] && reach.leftOut.isEmpty)
        return box
    }

    /// The duress alarm reaches Sam once, however many runs follow, and the check-in looks
    /// like any other: the countdown restarts, nothing else is told.
    @Test func aDuressAlarmReachesEachRecipientOnce() throws {
        let box = try Self.anaWithADuressWord()
        let receipt = try box.app("ana", at: "2026-03-01T20:00:00Z").checkIn(note: "bluebird")
        #expect(receipt.status.deadline == Told.time("2026-03-02T20:00:00Z"))
        try Told.deliver(box, at: ["2026-03-01T20:00:05Z", "2026-03-01T20:05:00Z", "2026-03-01T21:00:00Z"])
        let told = box.wire.sent(to: Self.sam)
        #expect(told.count == 1)
        #expect(told.first?.notification.kind == .dependentAlert)
        #expect(told.first?.message.title == "Ana checked in under duress: they may be in danger")
        #expect(try Told.feed(box, "ana", at: "2026-03-01T21:01:00Z").allSatisfy { $0.kind != .alertActivated })
    }

    /// A failing channel is retried by every run until the alarm is delivered, then never again.
    @Test func aDuressAlarmIsRetriedUntilDelivered() throws {
        let box = try Self.anaWithADuressWord()
        box.wire.fail(Self.sam, saying: "HTTP 503")
        _ = try box.app("ana", at: "2026-03-01T20:00:00Z").checkIn(note: "bluebird")
        try Told.deliver(box, at: ["2026-03-01T20:00:05Z", "2026-03-01T20:05:00Z"])
        #expect(box.wire.sent(to: Self.sam).count == 2)
        box.wire.fail(Self.sam, saying: nil)
        try Told.deliver(box, at: ["2026-03-01T20:10:00Z", "2026-03-01T20:15:00Z"])
        #expect(box.wire.sent(to: Self.sam).count == 3, "delivered at the third try, then done")
        let sends = try box.app("ana", at: "2026-03-01T20:16:00Z").duressStatus().sends
        #expect(sends.map(\.tries) == [2] && sends.first?.sent == Told.time("2026-03-01T20:10:00Z"))
    }

    /// Someone left out hears nothing; a dry run sends nothing; the all-clear follows the alarm.
    @Test func aDuressAlarmSkipsTheLeftOutAndADryRunAndIsClearedAfter() throws {
        let box = try Self.anaWithADuressWord()
        let tom = CircleRuleTests.tom
        _ = try box.app("ana", at: t0).addExternal(ExternalContact(name: "Tom", notify: [tom], email: [], phone: []))
        _ = try box.app("ana", at: t0).setDuress(of: "Tom", told: false)
        _ = try box.app("ana", at: "2026-03-01T20:00:00Z").checkIn(note: "bluebird")
        _ = try box.app("ana", at: "2026-03-01T20:00:05Z").deliver(dryRun: true)
        #expect(box.wire.sent.isEmpty, "a dry run sends no duress alarm")
        try Told.deliver(box, at: ["2026-03-01T20:01:00Z"])
        #expect(box.wire.sent(to: tom).isEmpty)
        let cleared = try box.app("ana", at: "2026-03-01T22:00:00Z").clearDuress()
        #expect(cleared.told == ["Sam"] && !cleared.noAlarmHere)
        try Told.deliver(box, at: ["2026-03-01T22:00:05Z"])
        #expect(Told.kinds(box) == [.dependentAlert, .dependentAlertResolved])
        #expect(box.wire.sent(to: Self.sam).last?.message.title == "Ana is safe: the duress alarm is over")
        #expect(box.wire.sent(to: tom).isEmpty)
    }
}
