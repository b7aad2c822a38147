import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Failing channels and their retries, and dry runs, as the delivery use case decides them
/// (issue #41): what is held behind a failure and in which order it goes once the channel
/// works, what a message says of those not reached, and that a dry run sends and records
/// nothing.
@Suite struct ChannelRuleTests {
    static let sam = Told.sam
    static let tom = CircleRuleTests.tom

    /// A message never claims someone was told whose channel is failing: Tom's says Sam is
    /// still being told.
    @Test func aFailingResponderIsBeingToldNotTold() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).addExternal(
            ExternalContact(name: "Tom", notify: [Self.tom], email: [], phone: []))
        box.wire.fail(Self.sam, saying: "HTTP 500")
        let report = try box.app("ana", at: "2026-03-02T09:20:00Z").deliver()
        #expect(!report.isComplete)
        let miss = try #require(Told.misses(box, to: Self.tom).first?.message)
        #expect(miss.alsoTold == [], "\(miss.alsoTold)")
        #expect(miss.beingTold == ["Sam"])
        #expect(miss.text().contains("Also being told (not reached yet): Sam."), "\(miss.text())")
        #expect(!miss.text().contains("Also told: Sam"))
    }

    /// A channel that fails is said once as started failing, and once as working again.
    @Test func aChannelSaysWhenItStartsFailingAndWhenItWorksAgain() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        box.wire.fail(Self.sam, saying: "HTTP 503")
        let first = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(first.changes[Self.sam] == .startedFailing)
        let second = try box.app("ana", at: "2026-03-02T09:06:00Z").deliver()
        #expect(second.changes[Self.sam] == nil, "said once")
        box.wire.fail(Self.sam, saying: nil)
        let recovered = try box.app("ana", at: "2026-03-02T09:12:00Z").deliver()
        #expect(recovered.changes[Self.sam] == .recovered(failingSince: Told.time("2026-03-02T09:05:00Z")))
        #expect(Told.misses(box).count == 3, "two failed tries, then the one that worked")
        #expect(Set(Told.misses(box).map(\.notification.id)).count == 1, "the same notification each time")
    }

    /// After an outage everything still owed goes in the order of its causes, the all-clear
    /// last; while the channel is down each run tries the oldest only, the rest wait behind it.
    @Test func afterAnOutageEverythingGoesInTheOrderOfItsCauses() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        box.wire.fail(Self.sam, saying: "HTTP 503")
        _ = try box.app("ana", at: "2026-03-01T09:30:00Z").raiseAlert(message: nil)
        _ = try box.app("ana", at: "2026-03-01T09:45:00Z").endAlert()
        try Told.deliver(box, at: ["2026-03-02T09:50:00Z"])
        _ = try box.app("ana", at: "2026-03-02T10:30:00Z").checkIn(note: nil)
        let held = try box.app("ana", at: "2026-03-02T10:35:00Z").deliver()
        #expect(held.failures.count == 1 && held.waiting.count == 3, "\(held.failures.count) \(held.waiting.count)")
        let tries = box.wire.sent(to: Self.sam).count
        box.wire.fail(Self.sam, saying: nil)
        let recovered = try box.app("ana", at: "2026-03-02T11:05:00Z").deliver()
        #expect(recovered.isComplete)
        #expect(
            box.wire.sent(to: Self.sam).dropFirst(tries).map(\.notification.kind) == [
                .dependentAlert, .dependentAlertResolved, .dependentNonResponsive, .dependentCheckedIn,
            ])
        try Told.deliver(box, at: ["2026-03-02T12:00:00Z"])
        #expect(box.wire.sent(to: Self.sam).count == tries + 4, "nothing twice")
    }

    /// A channel that replaces a broken one gets only what is still in force: not a miss
    /// already answered, nor its all-clear.
    @Test func aChannelAddedLaterGetsOnlyWhatIsStillInForce() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        box.wire.fail(Self.sam, saying: "exit 1")
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        _ = try box.app("ana", at: "2026-03-02T10:00:00Z").checkIn(note: nil)
        try Told.deliver(box, at: ["2026-03-02T10:05:00Z"])
        _ = try box.app("ana", at: "2026-03-02T11:00:00Z").raiseAlert(message: nil)
        let fresh = "ntfy:https://ntfy.example/sam-new"
        var edit = App.ContactEdit()
        edit.notify = [fresh]
        _ = try box.app("ana", at: "2026-03-02T11:30:00Z").editContact("Sam", edit)
        try Told.deliver(box, at: ["2026-03-02T11:35:00Z"])
        #expect(Told.kinds(box, to: fresh) == [.dependentAlert])
    }

    /// One of Sam's channels failing holds nothing back on the other.
    @Test func aFailingChannelHoldsNothingOnAnother() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let mail = "ntfy:https://ntfy.example/sam-second"
        var edit = App.ContactEdit()
        edit.notify = [Self.sam, mail]
        _ = try box.app("ana", at: t0).editContact("Sam", edit)
        box.wire.fail(Self.sam, saying: "HTTP 500")
        let report = try box.app("ana", at: "2026-03-02T09:05:00Z").deliver()
        #expect(report.delivered.map(\.channel) == [mail])
        #expect(report.failures.map(\.job.channel) == [Self.sam])
        #expect(report.failures.first?.next == Told.time("2026-03-02T09:06:00Z"))
    }

    /// A dry run says what is due and to whom, and sends and records nothing: the real run
    /// after it sends the same.
    @Test func aDryDeliverSendsNothingAndRecordsNothing() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let dry = try box.app("ana", at: "2026-03-02T09:00:01Z").deliver(dryRun: true)
        let planned = try #require(dry.planned.first)
        #expect(dry.planned.count == 1)
        #expect(planned.channel == Self.sam && planned.message.title == "Ana missed the 09:00 check-in")
        #expect(box.wire.sent.isEmpty && dry.delivered.isEmpty)
        let again = try box.app("ana", at: "2026-03-02T09:00:02Z").deliver(dryRun: true)
        #expect(again.planned.map(\.notification.id) == [planned.notification.id], "nothing was recorded as sent")
        try Told.deliver(box, at: ["2026-03-02T09:00:03Z"])
        #expect(Told.misses(box).map(\.notification.id) == [planned.notification.id])
        let after = try box.app("ana", at: "2026-03-02T09:00:04Z").deliver(dryRun: true)
        #expect(after.planned.isEmpty)
    }

    /// A dry run of a failing channel's retry tries nothing either.
    @Test func aDryRunDoesNotRetryAFailingChannel() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        box.wire.fail(Self.sam, saying: "HTTP 500")
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let dry = try box.app("ana", at: "2026-03-02T09:10:00Z").deliver(retryingNow: true, dryRun: true)
        #expect(dry.planned.map(\.channel) == [Self.sam])
        #expect(box.wire.sent(to: Self.sam).count == 1)
    }

    /// A dry check-in records nothing: the deadline it shows is the one it would set.
    @Test func aDryCheckInRecordsNothing() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let dry = try box.app("ana", at: "2026-03-01T12:00:00Z").checkIn(note: "x", dryRun: true)
        #expect(dry.status.deadline == Told.time("2026-03-02T12:00:00Z"))
        let status = try box.app("ana", at: "2026-03-01T12:01:00Z").checkInStatus()
        #expect(status.deadline == Told.time("2026-03-02T09:00:00Z"))
        #expect(try box.app("ana", at: "2026-03-01T12:01:00Z").history(limit: 10, since: nil).total == 1)
    }
}
