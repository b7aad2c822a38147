import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Alerts raised, updated and cancelled, and pings and their answers, as the use cases decide
/// them (issue #41): who is told what, at once, and what an alert or a ping changes in the
/// countdown.
@Suite struct AlertRuleTests {
    static let sam = Told.sam

    /// A new message updates the same alert: Sam hears the update; the same call without one
    /// changes nothing and sends nothing.
    @Test func aNewMessageUpdatesTheAlertAndNoMessageChangesNothing() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        let raised = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: "fell on the stairs")
        #expect(raised.kind == .raised)
        let same = try box.app("ana", at: "2026-03-01T12:05:00Z").raiseAlert(message: nil)
        #expect(same.kind == .unchanged && same.alert.id == raised.alert.id)
        #expect(Told.kinds(box) == [.dependentAlert])
        let updated = try box.app("ana", at: "2026-03-01T12:10:00Z").raiseAlert(message: "ankle broken, at home")
        #expect(updated.kind == .updated && updated.alert.id == raised.alert.id)
        #expect(Told.kinds(box) == [.dependentAlert, .dependentAlertUpdated])
        #expect(box.wire.sent(to: Self.sam).last?.message.summary.contains("ankle broken, at home") == true)
        #expect(try box.app("ana", at: "2026-03-01T12:11:00Z").alertHistory().count == 1)
    }

    /// Ending the alert is a check-in: Sam is told it is resolved and the countdown restarts.
    @Test func endingAnAlertIsACheckInAndEndingNoneDoesNothing() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        #expect(try box.app("ana", at: "2026-03-01T12:00:00Z").endAlert() == nil)
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").raiseAlert(message: nil)
        let ended = try #require(try box.app("ana", at: "2026-03-01T12:30:00Z").endAlert())
        #expect(ended.kind == .ended && ended.alert.end != nil)
        #expect(Told.kinds(box) == [.dependentAlert, .dependentAlertResolved])
        let status = try box.app("ana", at: "2026-03-01T12:31:00Z").checkInStatus()
        #expect(status.deadline == Told.time("2026-03-02T12:30:00Z"))
    }

    /// An alert and the countdown are independent: a check-in ends no alert, and the miss is
    /// noticed while the alert is on.
    @Test func aCheckInDoesNotEndTheAlertNorTheAlertTheCountdown() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: "2026-03-01T10:00:00Z").raiseAlert(message: nil)
        _ = try box.app("ana", at: "2026-03-01T12:00:00Z").checkIn(note: nil)
        #expect(try box.app("ana", at: "2026-03-01T12:01:00Z").activeAlert() != nil)
        try Told.deliver(box, at: ["2026-03-02T12:05:00Z"])
        #expect(Told.misses(box).first?.message.causeAt == Told.time("2026-03-02T12:00:00Z"))
        #expect(Told.sent(box, .dependentAlertResolved).isEmpty)
    }

    /// Bob, who watches over Ana, has her alert in his feed, with her words.
    @Test func aWatcherHasTheAlertInHisFeed() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("ana", at: "2026-03-02T08:30:00Z").raiseAlert(message: "Car broke down on the A9")
        let alert = try #require(try Told.entry(box, "bob", at: "2026-03-02T09:00:00Z", .dependentAlert))
        #expect(
            alert.message
                == "ALERT: Ana needs help! Ana has activated their emergency alert. Message: “Car broke down on the A9”."
        )
        _ = try box.app("ana", at: "2026-03-02T09:10:00Z").endAlert()
        let resolved = try #require(try Told.entry(box, "bob", at: "2026-03-02T09:11:00Z", .dependentAlertResolved))
        #expect(resolved.message == "Ana has deactivated their emergency alert - situation resolved.")
    }

    /// A ping reaches Ana's feed; answering all of them answers each; Bob sees the answer.
    @Test func answeringAllPingsAnswersEachAndTheWatcherSeesIt() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-01T12:00:00Z").sendPing(to: "Ana")
        #expect(try Told.entry(box, "ana", at: "2026-03-01T12:01:00Z", .pingReceived) != nil)
        let answered = try box.app("ana", at: "2026-03-01T12:10:00Z").respond(.all)
        #expect(answered.pings.map(\.state) == [.answered])
        #expect(try box.app("bob", at: "2026-03-01T12:11:00Z").pings().map(\.state) == [.answered])
        #expect(try Told.entry(box, "bob", at: "2026-03-01T12:11:00Z", .pingResponded) != nil)
    }

    /// Bob clears his ping before Ana answers: it is cancelled on her side too.
    @Test func aClearedPingIsCancelledForTheDependent() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let sent = try box.app("bob", at: "2026-03-01T12:00:00Z").sendPing(to: "Ana")
        let cleared = try box.app("bob", at: "2026-03-01T12:05:00Z").clearPing(String(sent.id.prefix(8)))
        #expect(cleared.state != .pending)
        #expect(try box.app("ana", at: "2026-03-01T12:06:00Z").pings().allSatisfy { $0.state != .pending })
        _ = try box.app("bob", at: "2026-03-01T12:07:00Z").sendPing(to: "Ana")
    }

    /// Answering a ping while overdue is no check-in: the miss goes on and is told again.
    @Test func answeringAPingWhileOverdueIsNoCheckIn() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let sent = try box.app("bob", at: "2026-03-02T09:10:00Z").sendPing(to: "Ana")
        let answered = try box.app("ana", at: "2026-03-02T09:20:00Z").respond(.one(String(sent.id.prefix(8))))
        #expect(answered.status?.phase == .overdue)
        try Told.deliver(box, at: ["2026-03-02T10:06:00Z"])
        #expect(Told.misses(box).map(\.notification.notice) == [1, 2])
        #expect(Told.sent(box, .dependentCheckedIn).isEmpty)
    }

    /// Only someone who watches over Ana pings her; Sam (external) cannot be pinged.
    @Test func aPingGoesOnlyToSomeoneWatchedOver() throws {
        let box = try FirstMonthTests.anaBobAndSam()
        let ana = box.app("ana", at: "2026-03-01T12:00:00Z")
        #expect(refusal { () throws(AppError) in try ana.sendPing(to: "Bob") } != nil, "Bob is not her dependent")
        #expect(refusal { () throws(AppError) in try ana.sendPing(to: "Sam") } != nil)
        #expect(box.wire.sent.isEmpty)
    }
}
