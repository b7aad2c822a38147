import Testing

@testable import LifeSignalCore

/// Grace, tiers and acknowledgement at the boundary second: who of a member's responders is
/// told of a missed deadline at each instant.
@Suite struct EscalationTests {
    static let h: Int64 = 3600
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }
    static let deadline = at(24 * 3600)

    /// Bea (checked in at 0, deadline 24h) with Ana (member, tier 1) and Sam (external,
    /// tier 2); grace 30m, escalation 1h; Ana acknowledged at `ack` when given.
    static func circle(ack: Int64? = nil, grace: Bool = true) -> CircleState {
        var circle = CircleState()
        var events: [(Int64, any EventBody)] = [(0, NameSet(name: "Bea")), (0, CheckedIn(note: nil))]
        if grace { events.append((1, GraceSet(grace: .minutes(30)))) }
        events += [(2, EscalationSet(delay: .hours(1))), (3, TierSet(contact: "sam", tier: 2))]
        circle.members["bea"] = CheckInStatusTests.member(events, device: "b")
        circle.members["ana"] = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        // Ana (the pair's low side) watches over Bea, and Bea confirmed it.
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: at(0), device: "a", seq: 1))
        circle.sides[Side(writer: "bea", other: "ana")] = Stamped(
            Roles(responder: true, dependent: false), Stamp(clock: 1, at: at(0), device: "b", seq: 8))
        circle.externals["bea"] = [
            "sam": Stamped(
                ExternalContact(name: "Sam", notify: ["exec:true"], email: [], phone: []),
                Stamp(clock: 1, at: at(0), device: "b", seq: 9))
        ]
        if let ack {
            circle.acknowledgements[Notification.Thread.deadline(member: "bea", at: deadline).key] = [
                "ana": Stamp(clock: 5, at: at(ack), device: "a", seq: 2)
            ]
        }
        return circle
    }

    static let ana = Notification.Recipient.member("ana")
    static let sam = Notification.Recipient.external(owner: "bea", id: "sam")

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var now: Int64
        var ack: Int64?
        var grace = true
        var told: [Notification.Recipient]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "during the grace nobody", now: 24 * h + 1800 - 1, told: []),
        Row(name: "when the grace ends tier 1", now: 24 * h + 1800, told: [ana]),
        Row(name: "one second before tier 2 is due", now: 24 * h + 5400 - 1, told: [ana]),
        Row(name: "tier 2 after the delay without an acknowledgement", now: 24 * h + 5400, told: [ana, sam]),
        Row(name: "an acknowledgement before tier 2 holds it", now: 24 * h + 9000, ack: 24 * h + 3600, told: [ana]),
        Row(
            name: "one second before the acknowledgement's hold ends", now: 24 * h + 3600 + 7200 - 1,
            ack: 24 * h + 3600, told: [ana]),
        Row(
            name: "the hold of an acknowledgement ends: tier 2 after all", now: 24 * h + 3600 + 7200,
            ack: 24 * h + 3600, told: [ana, sam]),
        Row(
            name: "an acknowledgement after tier 2 was due does not unsay it", now: 24 * h + 9000, ack: 24 * h + 5400,
            told: [ana, sam]),
        Row(name: "without grace tier 1 at the deadline", now: 24 * h + 1, grace: false, told: [ana]),
    ]

    @Test(arguments: rows)
    func told(_ row: Row) {
        let circle = Self.circle(ack: row.ack, grace: row.grace)
        let told = Escalation.toldOfMiss(
            [Self.ana, Self.sam], member: "bea", deadline: Self.deadline, now: Self.at(row.now), in: circle)
        #expect(told == row.told)
    }

    @Test func theMemberIsToldAtTheDeadlineWithWhenTheirResponders() {
        let due = Notifications.due(circle: Self.circle(), feed: Feed(), me: "bea", now: Self.at(24 * Self.h + 1))
        let mine = due.filter { $0.kind == .missedCheckIn }
        #expect(mine.count == 1)
        #expect(mine.first?.message.contains("Your responders are told at 2026-03-02 09:30 UTC") == true)
        #expect(!due.contains { $0.kind == .dependentNonResponsive }, "the grace holds them back")
    }

    @Test func anAlertSkipsGraceAndTiers() {
        var circle = Self.circle()
        circle.members["bea"]?.apply(
            Event(seq: 20, at: Self.at(3600), body: AlertRaised(id: "alert1", message: nil)), device: "b")
        // Bea's device tells Sam; Ana's device tells Ana: both at once, in the grace, tier 2 or not.
        let due = ["bea", "ana"].flatMap { Notifications.due(circle: circle, feed: Feed(), me: $0, now: Self.at(3600)) }
        let told = due.filter { $0.kind == .dependentAlert }.map(\.recipient)
        #expect(Set(told.map(\.key)) == Set([Self.ana, Self.sam].map(\.key)))
    }

    @Test func anAcknowledgementIsToldToThePersonAndThoseWhoWereTold() {
        let circle = Self.circle(ack: 24 * Self.h + 3600)
        let due = Notifications.due(circle: circle, feed: Feed(), me: "bea", now: Self.at(24 * Self.h + 3600))
        let acks = due.filter { $0.kind == .acknowledged }
        #expect(acks.map(\.recipient) == [.member("bea")], "Sam was never told of the miss; Ana acked it herself")
        #expect(acks.first?.message.hasPrefix("Ana is on it") == true)
        // Its title names who answered, as its text does.
        let message = acks.first.map {
            Messages.make(
                $0, circle: circle, feed: Feed(), sentAt: Self.at(24 * Self.h + 3600),
                zone: Message.Zone(name: "UTC", rules: .utc))
        }
        #expect(message?.title == "Ana is on it for Bea")
        // And she is not among those still to be told of her own answer.
        #expect(message.map { !($0.beingTold + $0.alsoTold).contains("Ana") } == true, "\(String(describing: message))")
    }

    /// A grace and a delay set by an older lifesignal, which had no bounds, are held to them: a
    /// grace of 400 days would have told nobody for 400 days.
    @Test func anUnboundedGraceOrDelayFromAnOlderVersionIsHeldToTheBounds() {
        var circle = Self.circle()
        circle.members["bea"]?.apply(Event(seq: 30, at: Self.at(4), body: GraceSet(grace: .days(400))), device: "b")
        circle.members["bea"]?.apply(
            Event(seq: 31, at: Self.at(5), body: EscalationSet(delay: .days(400))), device: "b")
        let told = { (offset: Int64) in
            Escalation.toldOfMiss(
                [Self.ana, Self.sam], member: "bea", deadline: Self.deadline, now: Self.at(24 * Self.h + offset),
                in: circle
            ).map(\.key)
        }
        #expect(told(24 * Self.h - 1).isEmpty)
        #expect(told(24 * Self.h) == [Self.ana.key])
        #expect(told(48 * Self.h) == [Self.ana.key, Self.sam.key])
    }

    /// With Ana moved to tier 2 and Sam to tier 3, Ana is the first told, after the grace, and
    /// her acknowledgement stops Sam's tier as it would stop tier 2's.
    @Test func theLowestTierInUseIsFirstAndAnAcknowledgementStopsTheNext() {
        var circle = Self.circle(ack: 24 * Self.h + 1800 + 60)
        circle.members["bea"]?.apply(
            Event(seq: 40, at: Self.at(6), body: TierSet(contact: "ana", tier: 2)), device: "b")
        circle.members["bea"]?.apply(
            Event(seq: 41, at: Self.at(7), body: TierSet(contact: "sam", tier: 3)), device: "b")
        let told = { (offset: Int64) in
            Escalation.toldOfMiss(
                [Self.ana, Self.sam], member: "bea", deadline: Self.deadline, now: Self.at(offset), in: circle
            ).map(\.key)
        }
        #expect(told(24 * Self.h + 1799).isEmpty, "the grace")
        #expect(told(24 * Self.h + 1800) == [Self.ana.key], "tier 2 is the first in use")
        #expect(told(26 * Self.h) == [Self.ana.key], "Ana acknowledged before Sam's tier came")
    }

    /// Review G1: each responder's "I'm on it" holds the alarm for two hours from when they
    /// said it — a second responder's, or the same one's again once theirs ran out — so the
    /// holds follow one another, and the alarm goes on only when the last one ends.
    @Test func everyAcknowledgementHoldsFromWhenItWasGiven() throws {
        var circle = Self.circle(ack: 24 * Self.h + 3600)
        let thread = Notification.Thread.deadline(member: "bea", at: Self.deadline)
        circle.members["carl"] = CheckInStatusTests.member([(0, NameSet(name: "Carl"))], device: "c")
        circle.relations[Pair("bea", "carl")] = Stamped(
            Roles(responder: true, dependent: false), Stamp(clock: 1, at: Self.at(0), device: "c", seq: 1))
        circle.sides[Side(writer: "bea", other: "carl")] = Stamped(
            Roles(responder: true, dependent: false), Stamp(clock: 1, at: Self.at(0), device: "b", seq: 10))
        Acknowledged(thread: thread.key).fold(
            into: &circle, member: "carl", stamp: Stamp(clock: 9, at: Self.at(24 * Self.h + 9000), device: "c", seq: 2))
        let told = { (offset: Int64) in
            Escalation.toldOfMiss(
                [Self.ana, Self.sam], member: "bea", deadline: Self.deadline, now: Self.at(offset), in: circle
            ).map(\.key)
        }
        // Ana at 10:00 holds until 12:00; Carl at 11:30 until 13:30; Sam (due 10:30) waits.
        #expect(told(24 * Self.h + 3 * 3600) == [Self.ana.key])
        #expect(circle.acknowledgement(of: thread, holdingAt: Self.at(24 * Self.h + 3 * 3600))?.by == "carl")
        #expect(told(24 * Self.h + 9000 + 7200 - 1) == [Self.ana.key])
        #expect(told(24 * Self.h + 9000 + 7200) == [Self.ana.key, Self.sam.key])
        // Ana again at 14:00, after every hold ran out: the alarm is held anew.
        Acknowledged(thread: thread.key).fold(
            into: &circle, member: "ana", stamp: Stamp(clock: 12, at: Self.at(29 * Self.h), device: "a", seq: 3))
        #expect(circle.acknowledgement(of: thread, holdingAt: Self.at(30 * Self.h))?.by == "ana")
        #expect(circle.acknowledgements(of: thread).map(\.by) == ["carl", "ana"], "each one's latest")
        // Each is told: "Ana is on it" and "Carl is on it", to Bea and those told by then.
        let notices = Notifications.due(circle: circle, feed: Feed(), me: "bea", now: Self.at(30 * Self.h))
            .filter { $0.kind == .acknowledged }
        #expect(Set(notices.map { $0.message.prefix(12) }) == ["Ana is on it", "Carl is on i"])
        // The alarm that goes on after every hold names each one's word (campaign-e 3).
        let miss = try #require(
            Notifications.due(circle: circle, feed: Feed(), me: "bea", now: Self.at(32 * Self.h)).first {
                $0.kind == .dependentNonResponsive
            })
        let message = Messages.make(
            miss, circle: circle, feed: Feed(), sentAt: Self.at(32 * Self.h), zone: .utc)
        #expect(
            message.summary.hasPrefix(
                "Carl said they were on it at Mon 2 Mar 2026, 11:30 UTC, Ana at Mon 2 Mar 2026, 14:00 UTC; in the 3h since the last, no check-in"
            ), "\(message.summary)")
    }
}
