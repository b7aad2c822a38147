import Testing

@testable import LifeSignalCore

/// A watcher's copy is current after a deadline only if the dependent's phone inbox was read
/// after it too: an "I'm OK" tap not read yet may be the check-in that answers the miss
/// (campaign-c C3: an inbox answering HTTP 500 let a miss go to the sister as confirmed).
@Suite struct InboxEvidenceTests {
    static let h: Int64 = 3600
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }
    static let deadline = at(24 * h)
    static let inbox = "ntfy:https://ntfy.sh/bea-inbox-7f3k9q2m4x"

    static let token = "0123456789abcdef0123456789abcdef"

    /// Bea (checked in at 0, due at 24h) watched over by Ana; the folder is written directly.
    /// Her reminder at 23h30 handed out an "I'm OK" button (`token`), unless `button` is false.
    static func circle(button: Bool = true) -> CircleState {
        var circle = CircleState()
        circle.members["bea"] = CheckInStatusTests.member(
            [(0, NameSet(name: "Bea")), (0, InboxSet(url: Self.inbox)), (0, CheckedIn(note: nil))]
                + (button ? [(24 * h - 1800, TokenIssued(hash: Self.token))] : []), device: "b")
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: at(0), device: "a", seq: 1))
        return circle
    }

    static func relay(inboxRead: Timestamp??, now: Int64, button: Bool = true) -> RelayDecision {
        var sync = SyncView.direct(now: at(now))
        if let inboxRead { sync.inboxReads[Self.inbox] = inboxRead }
        return DeliveryRules.relay(
            missOf: "bea", deadline: deadline, me: "ana", device: "a", circle: circle(button: button), sync: sync,
            now: at(now))
    }

    /// Review G4: with no "I'm OK" button out that a tap could have come from, an inbox not
    /// read changes nothing: the miss is confirmed as without an inbox.
    @Test func anUnreadInboxDoubtsNothingWhenNoButtonWasOut() {
        let now = 24 * Self.h + 900
        guard case .send(true, _) = Self.relay(inboxRead: .some(nil), now: now, button: false) else {
            Issue.record("no button handed out: confirmed")
            return
        }
        #expect(
            DeliveryRules.ownMiss(
                deadline: Self.deadline, me: "bea", circle: Self.circle(button: false),
                sync: { () -> SyncView in
                    var sync = SyncView.direct(now: Self.at(now))
                    sync.inboxReads[Self.inbox] = .some(nil)
                    return sync
                }(), feed: Feed()) == .send(confirmed: true, evidence: nil))
    }

    @Test func anInboxNotReadSinceTheDeadlineConfirmsNothing() {
        let now = 24 * Self.h + 900
        guard case .send(true, _) = Self.relay(inboxRead: nil, now: now) else {
            Issue.record("no inbox: the folder written directly confirms it")
            return
        }
        guard case .send(true, _) = Self.relay(inboxRead: .some(Self.at(24 * Self.h + 600)), now: now) else {
            Issue.record("read after the deadline: confirmed")
            return
        }
        #expect(
            Self.relay(inboxRead: .some(Self.at(24 * Self.h - 300)), now: now) == .hold(until: Self.at(26 * Self.h)))
        #expect(Self.relay(inboxRead: .some(nil), now: now) == .hold(until: Self.at(26 * Self.h)), "never read")
        #expect(
            Self.relay(inboxRead: .some(Self.at(24 * Self.h - 300)), now: 26 * Self.h)
                == .send(confirmed: false, evidence: nil), "after the hold: told, marked unconfirmed")
        // The watcher's own user is told at once, marked unconfirmed.
        var sync = SyncView.direct(now: Self.at(now))
        sync.inboxReads[Self.inbox] = Self.at(24 * Self.h - 300)
        #expect(
            DeliveryRules.ownWord(
                missOf: "bea", deadline: Self.deadline, me: "ana", device: "a", circle: Self.circle(), sync: sync,
                now: Self.at(now))
                == .send(confirmed: false, evidence: nil))
    }

    /// Two members with one inbox (one phone for both): each one's miss waits for its read
    /// (review-latest D3).
    @Test func anInboxSharedByTwoMembersHoldsBoth() {
        var circle = Self.circle()
        circle.members["cy"] = CheckInStatusTests.member(
            [
                (0, NameSet(name: "Cy")), (0, InboxSet(url: Self.inbox)), (0, CheckedIn(note: nil)),
                (24 * Self.h - 1800, TokenIssued(hash: "fedcba9876543210fedcba9876543210")),
            ], device: "c")
        circle.relations[Pair("ana", "cy")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: Self.at(0), device: "a", seq: 2))
        var sync = SyncView.direct(now: Self.at(24 * Self.h + 900))
        sync.inboxReads[Self.inbox] = Self.at(24 * Self.h - 300)
        for member in ["bea", "cy"] {
            #expect(
                DeliveryRules.relay(
                    missOf: member, deadline: Self.deadline, me: "ana", device: "a", circle: circle, sync: sync,
                    now: Self.at(24 * Self.h + 900)) == .hold(until: Self.at(26 * Self.h)), "\(member)")
        }
    }

    /// "Last heard from" is never older than the last check-in, also when the device that
    /// tells is the one the person checked in on (their server; campaign-d F2).
    @Test func lastHeardFromIsNeverOlderThanTheLastCheckIn() {
        var circle = Self.circle()
        circle.members["bea"]?.apply(
            Event(seq: 9, at: Self.at(23 * Self.h), body: CheckedIn(note: nil)), device: "server")
        let miss = Notification(
            kind: .dependentNonResponsive, cause: "x", message: "Bea missed", at: Self.at(47 * Self.h), subject: "bea",
            recipient: .external(owner: "bea", id: "sis"))
        let telling = Messages.Telling(
            me: "bea", device: "server", confirmed: true, evidence: nil, sync: .direct(now: Self.at(47 * Self.h + 300)))
        let message = Messages.make(
            miss, circle: circle, feed: Feed(), sentAt: Self.at(47 * Self.h + 300),
            zone: Message.Zone(name: "UTC", rules: .utc), telling: telling)
        #expect(message.lastHeardFrom == Self.at(23 * Self.h))
    }
}
