import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// Phone taps, read through the inbox poll of a delivery run (issue #41): "I'm OK" is a
/// check-in at the time the inbox stamped it, "I'm on it" holds the repeats; a token that is
/// unknown, used, expired or stamped before its button existed changes nothing and is said.
/// PhoneCheckInTests' rules, in-process.
@Suite struct PhoneTapRuleTests {
    static let sam = Told.sam
    static let inbox = DeliveryUseCaseTests.inbox
    static let phone = "ntfy:" + DeliveryUseCaseTests.phone

    /// Ana with her inbox and phone topic; the reminder at 08:35 handed out an "I'm OK" button.
    static func anaWithAButtonOut() throws -> (Sandbox, Message.Button) {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setInbox(inbox, phone: DeliveryUseCaseTests.phone)
        try Told.deliver(box, at: ["2026-03-02T08:35:00Z"])
        let button = try #require(Told.sent(box, to: phone, .checkInReminder).first?.message.buttons.first)
        return (box, button)
    }

    /// The verdicts on the taps a delivery run at `now` ignored, as it said them.
    static func ignored(_ box: Sandbox, at now: String) throws -> [PhoneCheckIns.Verdict] {
        let run = box.app("ana", at: now)
        _ = try run.deliver()
        return run.notices.compactMap {
            if case .warning(.tapIgnored(_, _, let verdict)) = $0 { verdict } else { nil }
        }
    }

    /// The miss sent to her phone carries a button too: tapped after the deadline, it is a
    /// late check-in and Sam gets the all-clear.
    @Test func aTapOnTheMissesButtonIsALateCheckIn() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setInbox(Self.inbox, phone: DeliveryUseCaseTests.phone)
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let miss = try #require(Told.sent(box, to: Self.phone, .missedCheckIn).first)
        let button = try #require(miss.message.buttons.first)
        #expect(button.label == "I'm OK" && button.url == Self.inbox)
        box.wire.post(button.body, to: Self.inbox, at: Told.time("2026-03-02T09:40:00Z"))
        try Told.deliver(box, at: ["2026-03-02T09:45:00Z"])
        #expect(Told.kinds(box) == [.dependentNonResponsive, .dependentCheckedIn])
        let status = try box.app("ana", at: "2026-03-02T09:46:00Z").checkInStatus()
        #expect(status.lastCheckIn?.at == Told.time("2026-03-02T09:40:00Z") && status.lastCheckIn?.fromPhone == true)
        #expect(status.deadline == Told.time("2026-03-03T09:40:00Z"))
    }

    @Test func aForgedTokenIsIgnoredAndSaid() throws {
        let (box, _) = try Self.anaWithAButtonOut()
        box.wire.post(
            PhoneCheckIns.prefix + String(repeating: "ab", count: 16), to: Self.inbox,
            at: Told.time("2026-03-02T08:50:00Z"))
        let verdicts = try Self.ignored(box, at: "2026-03-02T08:55:00Z")
        #expect(verdicts == [.unknown])
        #expect(try box.app("ana", at: "2026-03-02T08:56:00Z").checkInStatus().lastCheckIn?.at == Told.time(t0))
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        #expect(Told.misses(box).count == 1, "a forged tap answers nothing")
    }

    /// A token counts once: its earliest use. Posted again later, it changes nothing.
    @Test func aReplayedTapIsIgnored() throws {
        let (box, button) = try Self.anaWithAButtonOut()
        box.wire.post(button.body, to: Self.inbox, at: Told.time("2026-03-02T08:50:00Z"))
        try Told.deliver(box, at: ["2026-03-02T08:55:00Z"])
        box.wire.post(button.body, to: Self.inbox, at: Told.time("2026-03-03T08:55:00Z"))
        let verdicts = try Self.ignored(box, at: "2026-03-03T09:00:00Z")
        #expect(verdicts == [.used(at: Told.time("2026-03-02T08:50:00Z"))])
        try Told.deliver(box, at: ["2026-03-03T09:05:00Z"])
        #expect(Told.misses(box).first?.message.causeAt == Told.time("2026-03-03T08:50:00Z"))
    }

    /// A tap's time is the one the inbox stamped: one stamped before its button existed, or
    /// more than seven days after, is no check-in.
    @Test(arguments: ["2026-03-02T08:00:00Z", "2026-03-09T08:40:00Z"])
    func aTapOutsideItsButtonsTimeIsIgnored(stamped: String) throws {
        let (box, button) = try Self.anaWithAButtonOut()
        box.wire.post(button.body, to: Self.inbox, at: Told.time(stamped))
        let verdicts = try Self.ignored(box, at: "2026-03-09T08:45:00Z")
        #expect(verdicts == [.expired(issued: Told.time("2026-03-02T08:35:00Z"))])
        #expect(
            try box.app("ana", at: "2026-03-09T08:46:00Z").checkInStatus().lastCheckIn?.at == Told.time(t0))
    }

    /// Messages in the inbox that are not taps of ours are no business of lifesignal's.
    @Test func otherMessagesInTheInboxAreLeftAlone() throws {
        let (box, _) = try Self.anaWithAButtonOut()
        box.wire.post("hello from the phone", to: Self.inbox, at: Told.time("2026-03-02T08:50:00Z"))
        box.wire.post(PhoneCheckIns.prefix + "not-a-token", to: Self.inbox, at: Told.time("2026-03-02T08:51:00Z"))
        #expect(try Self.ignored(box, at: "2026-03-02T08:55:00Z").isEmpty)
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        #expect(Told.misses(box).count == 1)
    }

    /// An inbox that cannot be read keeps its taps: the next read counts one, at its own time.
    @Test func aTapWaitingInAnUnreadableInboxCountsWhenRead() throws {
        let (box, button) = try Self.anaWithAButtonOut()
        box.wire.post(button.body, to: Self.inbox, at: Told.time("2026-03-02T08:50:00Z"))
        box.wire.fail(Self.inbox, saying: "HTTP 500")
        try Told.deliver(box, at: ["2026-03-02T08:55:00Z"])
        #expect(try box.app("ana", at: "2026-03-02T08:56:00Z").checkInStatus().lastCheckIn?.at == Told.time(t0))
        box.wire.fail(Self.inbox, saying: nil)
        try Told.deliver(box, at: ["2026-03-02T08:58:00Z", "2026-03-02T09:10:00Z"])
        #expect(
            try box.app("ana", at: "2026-03-02T09:11:00Z").checkInStatus().lastCheckIn?.at
                == Told.time("2026-03-02T08:50:00Z"))
        #expect(box.wire.sent(to: Self.sam).isEmpty)
    }

    /// Sam's "I'm on it" tap holds the repeats for two hours from the tap; then they go on,
    /// numbered after what was sent.
    @Test func anImOnItTapHoldsTheRepeatsTwoHours() throws {
        let box = try DeliveryUseCaseTests.anaWithSamsButton()
        try Told.deliver(box, at: ["2026-03-02T09:05:00Z"])
        let button = try #require(
            box.wire.sent(to: "ntfy:" + DeliveryUseCaseTests.buttonTopic).first?.message.buttons.first)
        box.wire.post(button.body, to: Self.inbox, at: Told.time("2026-03-02T09:20:00Z"))
        try Told.deliver(box, at: ["2026-03-02T09:25:00Z", "2026-03-02T11:15:00Z"])
        #expect(Told.misses(box).count == 1)
        try Told.deliver(box, at: ["2026-03-02T11:25:00Z"])
        #expect(Told.misses(box).map(\.notification.notice) == [1, 2])
        #expect(Told.misses(box).last?.message.title == "Ana missed the 09:00 check-in (second notice)")
    }

    /// A dry run hands out no button: its token would never be committed to.
    @Test func aDryRunHandsOutNoButton() throws {
        let box = try DeliveryUseCaseTests.anaWithSam()
        _ = try box.app("ana", at: t0).setInbox(Self.inbox, phone: DeliveryUseCaseTests.phone)
        let dry = try box.app("ana", at: "2026-03-02T08:35:00Z").deliver(dryRun: true)
        let planned = try #require(dry.planned.first { $0.channel == DeliveryRules.phoneChannel })
        #expect(planned.notification.kind == .checkInReminder)
        #expect(planned.message.buttons.isEmpty)
        #expect(box.wire.sent.isEmpty)
    }
}
