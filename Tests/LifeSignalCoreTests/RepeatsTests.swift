import Testing

@testable import LifeSignalCore

/// When a repeat is due, and when none may go: counted from a delivery only someone who could
/// have made it recorded, and never after the alarm was answered.
@Suite struct RepeatsTests {
    static let checkedIn = Timestamp(seconds: 1_772_000_000)
    static let deadline = checkedIn + .hours(24)
    static let sis = "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d"

    /// Alice checked in and went silent; Bob watches over her; her sister is an external
    /// responder; Mal is in the circle, linked to nobody.
    static func circle() -> CircleState {
        var circle = CircleState()
        func stamp(_ device: String, _ seq: Int64) -> Stamp {
            Stamp(clock: seq, at: checkedIn, device: device, seq: seq)
        }
        CheckedIn(note: nil).fold(into: &circle, member: "alice", stamp: stamp("a", 1))
        ExternalSet(
            id: sis, contact: ExternalContact(name: "Sis", notify: ["https://example.org/sis"], email: [], phone: [])
        )
        .fold(into: &circle, member: "alice", stamp: stamp("a", 2))
        RelationSet(member: "alice", roles: Roles(responder: false, dependent: true)).fold(
            into: &circle, member: "bob", stamp: stamp("b", 1))
        // Alice confirmed him: his "I'm on it" stops her alarms.
        RelationSet(member: "bob", roles: Roles(responder: true, dependent: false)).fold(
            into: &circle, member: "alice", stamp: stamp("a", 3))
        NameSet(name: "Mal").fold(into: &circle, member: "mal", stamp: stamp("m", 1))
        return circle
    }

    static func firstNotice(_ circle: CircleState) throws -> Notification {
        try #require(
            Notifications.due(circle: circle, feed: Feed(), me: "bob", now: deadline + .minutes(15)).first {
                $0.kind == .dependentNonResponsive && $0.recipient == .external(owner: "alice", id: sis)
            })
    }

    static func deliver(_ n: Notification, by member: String, at: Timestamp, in circle: inout CircleState) {
        Delivered(notification: n.id, channel: "https://example.org/sis").fold(
            into: &circle, member: member, stamp: Stamp(clock: 9, at: at, device: member, seq: 9))
    }

    /// The circle, Sis's first notice of the miss, and Bob's feed holding it, which Bob's device
    /// delivered a quarter of an hour after the deadline.
    static func toldByBob() throws -> (CircleState, Notification, Feed) {
        var circle = Self.circle()
        let first = try Self.firstNotice(circle)
        var feed = Feed()
        feed.add(first)
        Self.deliver(first, by: "bob", at: Self.deadline + .minutes(15), in: &circle)
        return (circle, first, feed)
    }

    @Test func aStrangersDeliveryRecordStartsNoRepeats() throws {
        var circle = Self.circle()
        let first = try Self.firstNotice(circle)
        var feed = Feed()
        feed.add(first)
        Self.deliver(first, by: "mal", at: Self.deadline - .days(30), in: &circle)
        #expect(Repeats.due(circle: circle, feed: feed, now: Self.deadline + .minutes(20)).isEmpty)
        // Bob's device delivered it at 09:15 (its feed says so; the circle keeps Mal's earlier claim).
        feed.record(
            DeliveryAttempt(notification: first.id, channel: "https://example.org/sis", succeeded: true, error: nil),
            at: Self.deadline + .minutes(15))
        #expect(Repeats.due(circle: circle, feed: feed, now: Self.deadline + .hours(1)).isEmpty)
        let repeats = Repeats.due(circle: circle, feed: feed, now: Self.deadline + .minutes(80))
        #expect(repeats.map(\.notice) == [2])
        #expect(repeats.first?.at == Self.deadline, "a repeat's time is its cause's")
    }

    @Test func aRepeatMadeBeforeAnAcknowledgementIsNotSentAfterIt() throws {
        var (circle, _, feed) = try Self.toldByBob()
        let again = try #require(Repeats.due(circle: circle, feed: feed, now: Self.deadline + .minutes(80)).first)
        feed.add(again)
        let now = Self.deadline + .minutes(90)
        let before = DeliveryRules.plan(feed: feed, circle: circle, me: "bob", device: "b", now: now)
        #expect(before.jobs.map(\.notification.id).contains(again.id))
        Acknowledged(thread: again.thread ?? "").fold(
            into: &circle, member: "bob", stamp: Stamp(clock: 10, at: now, device: "b", seq: 10))
        let after = DeliveryRules.plan(feed: feed, circle: circle, me: "bob", device: "b", now: now)
        #expect(!after.jobs.map(\.notification.id).contains(again.id), "answered: the repeat would be a false alarm")
    }

    /// A repeat not sent before a later one was made (held back by an acknowledgement's hold, a
    /// failing channel) does not go out beside it: one notice, the newest (review G6).
    @Test func onlyTheNewestUnsentRepeatGoes() throws {
        var (circle, _, feed) = try Self.toldByBob()
        let second = try #require(Repeats.due(circle: circle, feed: feed, now: Self.deadline + .minutes(80)).first)
        feed.add(second)
        let third = try #require(Repeats.due(circle: circle, feed: feed, now: Self.deadline + .minutes(140)).first)
        feed.add(third)
        #expect(third.notice == 3)
        let plan = DeliveryRules.plan(
            feed: feed, circle: circle, me: "bob", device: "b", now: Self.deadline + .minutes(141))
        #expect(plan.jobs.map(\.notification.notice) == [3])
    }

    /// An acknowledgement holds the repeats for `Escalation.acknowledgementHold`, no longer: with
    /// nothing else answering the alarm, they go on, and the feed's digest keeps the first
    /// notice all the while so that a run with "nothing to do" still finds them.
    @Test func anAcknowledgementHoldsTheRepeatsForTwoHoursOnly() throws {
        var (circle, first, feed) = try Self.toldByBob()
        let acked = Self.deadline + .minutes(30)
        Acknowledged(thread: first.thread ?? "").fold(
            into: &circle, member: "bob", stamp: Stamp(clock: 10, at: acked, device: "b", seq: 10))
        let held = acked + Escalation.acknowledgementHold - .minutes(1)
        #expect(Repeats.due(circle: circle, feed: feed, now: held).isEmpty)
        #expect(Repeats.mayRepeat(first, circle: circle, now: held), "kept by the digest while held")
        let over = acked + Escalation.acknowledgementHold
        // Only the first notice went out before the hold (15m after the deadline, the hold from
        // 30m): the one at its end is the second, whatever slots the hold covered (issue #43).
        #expect(Repeats.due(circle: circle, feed: feed, now: over).map(\.notice) == [2])
        // The repeats count from the end of the hold: the next is an hour later, not at the next
        // hourly slot of the first notice, minutes away (campaign-diff F3).
        #expect(Repeats.due(circle: circle, feed: feed, now: over + .minutes(50)).map(\.notice) == [2])
        let next = try #require(Repeats.due(circle: circle, feed: feed, now: over + .hours(1)).first)
        #expect(next.notice == 3 && next.message.hasPrefix("Third notice, 3h 15m after the first"), "\(next.message)")
        #expect(circle.acknowledgement(of: try #require(Notification.Thread(key: first.thread ?? "")))?.by == "bob")
    }

    /// Slots a hold covered were told to nobody; holds that overlap are one; slots before the
    /// first hold and between holds were told (issue #43).
    @Test func noticesCountWhatWasToldNotTheSlotsAHoldCovered() {
        let start = Self.deadline
        let hold = Escalation.acknowledgementHold
        func sent(_ holds: [(TimeSpan, TimeSpan)], at now: TimeSpan) -> Int? {
            Repeats.sent(
                from: start, every: .hours(1), holds: holds.map { (start + $0.0, start + $0.0 + $0.1) },
                now: start + now
            )?.count
        }
        #expect(sent([], at: .hours(5)) == 1)
        // Told at 0 and 1h; held from 1h20m to 3h20m: the notice at its end is the third.
        #expect(sent([(.minutes(80), hold)], at: .minutes(200)) == 3)
        #expect(sent([(.minutes(80), hold)], at: .minutes(199)) == nil, "still held")
        // A slot at the very instant of the acknowledgement was held.
        #expect(sent([(.hours(1), hold)], at: .hours(3)) == 2)
        // A second acknowledgement within the first's hold makes one longer hold.
        #expect(sent([(.minutes(80), hold), (.minutes(120), hold)], at: .minutes(240)) == 3)
        // Two holds apart: the end of each is a notice, and the slots told between them count.
        #expect(sent([(.minutes(30), hold), (.minutes(340), hold)], at: .minutes(460)) == 6)
    }
}
