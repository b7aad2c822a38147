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

    /// Bea (checked in at 0, due at 24h) watched over by Ana; the folder is written directly.
    static func circle() -> CircleState {
        var circle = CircleState()
        circle.members["bea"] = CheckInStatusTests.member(
            [(0, NameSet(name: "Bea")), (0, InboxSet(url: Self.inbox)), (0, CheckedIn(note: nil))], device: "b")
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: at(0), device: "a", seq: 1))
        return circle
    }

    static func relay(inboxRead: Timestamp??, now: Int64) -> RelayDecision {
        var sync = SyncView.direct(now: at(now))
        if let inboxRead { sync.inboxReads[Self.inbox] = inboxRead }
        return DeliveryRules.relay(
            missOf: "bea", deadline: deadline, me: "ana", device: "a", circle: circle(), sync: sync, now: at(now))
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
                missOf: "bea", deadline: Self.deadline, me: "ana", device: "a", circle: Self.circle(), sync: sync)
                == .send(confirmed: false, evidence: nil))
    }

    /// Two members with one inbox (one phone for both): each one's miss waits for its read
    /// (review-latest D3).
    @Test func anInboxSharedByTwoMembersHoldsBoth() {
        var circle = Self.circle()
        circle.members["cy"] = CheckInStatusTests.member(
            [(0, NameSet(name: "Cy")), (0, InboxSet(url: Self.inbox)), (0, CheckedIn(note: nil))], device: "c")
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
