import Foundation
import LifeSignalApp
import LifeSignalCore
import Testing

/// What a family meets in its first month (issue #43), as the use cases decide it: Ana's
/// laptop is dark, Bob watches over her, and her sister Sam, who has no lifesignal, is told
/// through ntfy. The channels are a `Wire` recording what each run sent.
@Suite struct FirstMonthTests {
    static let sam = DeliveryUseCaseTests.sam

    /// Ana (checked in at t0, deadline 2026-03-02 09:00) with Sam; Bob watches over her, and
    /// with `confirmed` Ana confirmed him.
    static func anaBobAndSam(confirmed: Bool = true) throws -> Sandbox {
        let box = try DeliveryUseCaseTests.anaWithSam(sharing: ["bob"])
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("bob", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        if confirmed { _ = try box.app("ana", at: t0).confirmContact("Bob") }
        return box
    }

    static func kinds(_ sent: [Wire.Sent]) -> [LifeSignalCore.Notification.Kind] { sent.map(\.notification.kind) }

    /// Bob's cron relays her miss; at 13:00 he vouches: the vouch's own run tells Sam, with his
    /// words, not a run ten minutes later.
    @Test func aVouchsAllClearLeavesWithTheVouch() throws {
        let box = try Self.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-02T09:15:00Z").deliver()
        #expect(Self.kinds(box.wire.sent(to: Self.sam)) == [.dependentNonResponsive])
        _ = try box.app("bob", at: "2026-03-02T13:00:00Z").vouch(for: "Ana", note: "saw her at the shop")
        let told = box.wire.sent(to: Self.sam)
        #expect(Self.kinds(told) == [.dependentNonResponsive, .dependentCheckedIn], "\(Self.kinds(told))")
        let allClear = try #require(told.last?.message)
        #expect(allClear.title == "Ana is fine, someone who watches over them vouches: all clear")
        #expect(allClear.summary.contains("Bob has seen Ana and says they are fine"), "\(allClear.summary)")
        #expect(allClear.summary.contains("saw her at the shop"))
        _ = try box.app("bob", at: "2026-03-02T13:05:00Z").deliver()
        _ = try box.app("bob", at: "2026-03-02T13:10:00Z").deliver()
        #expect(box.wire.sent(to: Self.sam).count == 2, "told once")
    }

    /// Bob's "I'm on it" reaches Sam with the run that records it, too.
    @Test func anAcknowledgementLeavesWithTheRunThatRecordsIt() throws {
        let box = try Self.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-02T09:15:00Z").deliver()
        let feed = try box.app("bob", at: "2026-03-02T09:20:00Z").notifications(App.FeedFilter(everything: true))
        let miss = try #require(feed.entries.first { $0.kind == .dependentNonResponsive })
        _ = try box.app("bob", at: "2026-03-02T09:20:00Z").acknowledge(String(miss.id.prefix(8)))
        let told = box.wire.sent(to: Self.sam)
        #expect(Self.kinds(told) == [.dependentNonResponsive, .acknowledged], "\(Self.kinds(told))")
        #expect(told.last?.message.title == "Bob is on it for Ana")
    }

    /// Ana's own check-in on her laptop is hers to tell: Bob's device still waits, so the
    /// two machines do not both send it.
    @Test func herOwnCheckInIsStillLeftToHerDevice() throws {
        let box = try Self.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-02T09:15:00Z").deliver()
        box.wire.fail(Self.sam, saying: "curl exited with status 7: Failed to connect")
        _ = try box.app("ana", at: "2026-03-02T13:00:00Z").checkIn(note: nil)
        _ = try box.app("ana", at: "2026-03-02T13:00:00Z").deliver()
        box.wire.fail(Self.sam, saying: nil)
        _ = try box.app("bob", at: "2026-03-02T13:05:00Z").deliver()
        #expect(
            Self.kinds(box.wire.sent(to: Self.sam).filter { $0.notification.kind != .dependentNonResponsive })
                == [.dependentCheckedIn], "only Ana's own try")
    }

    /// Two notices went out, then Sam's "I'm on it" held the alarm two hours: the next is the
    /// third notice she gets, and is called so.
    @Test func theNoticeAfterAHoldIsNumberedAfterWhatWasSent() throws {
        let box = try DeliveryUseCaseTests.anaWithSamsButton()
        for now in ["2026-03-02T09:05:00Z", "2026-03-02T10:06:00Z"] { _ = try box.app("ana", at: now).deliver() }
        #expect(box.wire.sent(to: Self.sam).map(\.notification.notice) == [1, 2])
        let button = try #require(
            box.wire.sent(to: "ntfy:" + DeliveryUseCaseTests.buttonTopic).last?.message.buttons.first)
        box.wire.post(
            button.body, to: DeliveryUseCaseTests.inbox, at: DeliveryUseCaseTests.time("2026-03-02T10:20:00Z"))
        for now in ["2026-03-02T10:25:00Z", "2026-03-02T12:15:00Z", "2026-03-02T12:25:00Z"] {
            _ = try box.app("ana", at: now).deliver()
        }
        let misses = box.wire.sent(to: Self.sam).filter { $0.notification.kind == .dependentNonResponsive }
        #expect(
            misses.map(\.message.title).last == "Ana missed the 09:00 check-in (third notice)",
            "\(misses.map(\.message.title))")
        #expect(misses.map(\.notification.notice) == [1, 2, 3])
        #expect(misses.last?.message.summary.contains("Third notice, 3h 15m after the first") == true)
        _ = try box.app("ana", at: "2026-03-02T13:25:00Z").deliver()
        let next = box.wire.sent(to: Self.sam).filter { $0.notification.kind == .dependentNonResponsive }.last
        #expect(next?.message.title == "Ana missed the 09:00 check-in (fourth notice)")
    }

    /// Ana's laptop is dark: Bob's relay has no "I'm on it" button (its token could count only
    /// from Ana's own device), so it says whom Sam can tell instead (issue #43 item 4).
    @Test func aWatchersRelaySaysHowToAnswerWithoutAButton() throws {
        let box = try Self.anaBobAndSam()
        _ = try box.app("bob", at: "2026-03-02T09:15:00Z").deliver()
        let relay = try #require(box.wire.sent(to: Self.sam).first?.message)
        #expect(relay.buttons.isEmpty)
        let text = relay.text()
        #expect(
            text.contains(
                "- This alarm comes from Bob's lifesignal, without an \"I'm on it\" button: to tell the others you are on it, tell Bob, who can say so with 'lifesignal notify ack'; the repeats then wait 2h."
            ), "\(text)")
        #expect(!text.contains("not confirmed"))
        // Her own device's message says nothing of the kind.
        let alone = try DeliveryUseCaseTests.anaWithSam()
        let own = try #require(alone.app("ana", at: "2026-03-02T09:05:00Z").deliver().delivered.first?.message)
        #expect(!own.text().contains("This alarm comes from"), "\(own.text())")
    }

    /// Until Ana confirms Bob, his relay and her own device both tell Sam (his delivery record
    /// stops nothing on her device): the relay says so, and Ana's status says so before it
    /// happens (issue #43 item 5).
    @Test func anUnconfirmedWatchersRelaySaysItIsNotConfirmedAndMayComeTwice() throws {
        let box = try Self.anaBobAndSam(confirmed: false)
        let warnings = try box.app("ana", at: t0).dashboard().warnings
        #expect(
            warnings.contains {
                if case .watchersNotConfirmed(let named, let twice) = $0 {
                    named.map(\.name) == ["Bob"] && twice == ["Sam"]
                } else {
                    false
                }
            }, "\(warnings)")
        _ = try box.app("bob", at: "2026-03-02T09:15:00Z").deliver()
        let relay = try #require(box.wire.sent(to: Self.sam).first?.message)
        let text = relay.text()
        #expect(text.contains("Sent by: Bob's lifesignal; Bob is not confirmed by Ana"), "\(text)")
        #expect(
            text.contains(
                "- Ana has not confirmed Bob as someone who watches over them: this alarm may come twice (from Ana's own devices too), and an \"I'm on it\" through Bob stops nothing."
            ), "\(text)")
        #expect(!text.contains("tell Bob, who can say so"))
        // The rule stays: Ana's device, awake again, tells Sam too.
        _ = try box.app("ana", at: "2026-03-02T09:30:00Z").deliver()
        let told = box.wire.sent(to: Self.sam)
        #expect(told.count == 2 && told.first?.notification.id == told.last?.notification.id)
        _ = try box.app("ana", at: "2026-03-02T09:31:00Z").confirmContact("Bob")
        let after = try box.app("ana", at: "2026-03-02T09:31:00Z").dashboard().warnings
        #expect(!after.contains { $0.code == "watcher-not-confirmed" })
    }
}
