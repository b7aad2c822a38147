import Testing

@testable import LifeSignalCore

/// A link either side may write is a claim; only the watched member's own word on it gives a
/// watcher a say over their alarms (`CircleState.answersFor`). Mal can write the folder and
/// has Alice's invite code; Bob is the responder Alice added herself.
@Suite struct ConsentTests {
    static let start = Timestamp(seconds: 1_772_000_000)
    static let deadline = start + .hours(24)
    static let watches = Roles(responder: false, dependent: true)
    static let watched = Roles(responder: true, dependent: false)

    static func stamp(_ device: String, _ seq: Int64, at: Timestamp = start) -> Stamp {
        Stamp(clock: seq, at: at, device: device, seq: seq)
    }

    /// Alice checked in at `start` (24h interval), with Sam as her external responder. Bob
    /// watches over her by her own word; Mal says he does.
    static func circle() -> CircleState {
        var circle = CircleState()
        CheckedIn(note: nil).fold(into: &circle, member: "alice", stamp: stamp("a", 1))
        ExternalSet(
            id: "sam", contact: ExternalContact(name: "Sam", notify: ["https://example.org/sam"], email: [], phone: [])
        )
        .fold(into: &circle, member: "alice", stamp: stamp("a", 2))
        RelationSet(member: "bob", roles: watched).fold(into: &circle, member: "alice", stamp: stamp("a", 3))
        RelationSet(member: "alice", roles: watches).fold(into: &circle, member: "mal", stamp: stamp("m", 1))
        return circle
    }

    @Test func onlyTheWatchedMembersOwnWordGivesASay() {
        let circle = Self.circle()
        #expect(circle.roles(of: "mal", toward: "alice")?.dependent == true, "the claim stands as a relation")
        #expect(circle.answersFor("alice", watcher: "bob"))
        #expect(!circle.answersFor("alice", watcher: "mal"))
        #expect(circle.unconfirmedWatchers(of: "alice") == ["mal"])
        #expect(
            circle.contacts(of: "alice").map { "\($0.kind == .member ? $0.id : $0.name):\($0.confirmedByMe)" }.sorted()
                == ["Sam:true", "bob:true", "mal:false"])
        #expect(circle.contacts(of: "mal").first?.confirmedByThem == false)
    }

    @Test func aClaimantsAcknowledgementVouchAndDeliveryStopNothing() {
        var circle = Self.circle()
        let thread = Notification.Thread.deadline(member: "alice", at: Self.deadline)
        let after = Self.deadline + .minutes(6)
        Acknowledged(thread: thread.key).fold(into: &circle, member: "mal", stamp: Self.stamp("m", 2, at: after))
        Vouched(member: "alice", deadline: Self.deadline, note: nil)
            .fold(into: &circle, member: "mal", stamp: Self.stamp("m", 3, at: after))
        let key = DeliveryKey(notification: "0123456789abcdef", channel: "https://example.org/sam")
        circle.deliveries[key] = DeliveryRecord(stamp: Self.stamp("m", 4, at: after), by: "mal")
        let sam = Notification.Recipient.external(owner: "alice", id: "sam")

        #expect(circle.acknowledgement(of: thread) == nil)
        #expect(circle.vouches(for: "alice").isEmpty)
        #expect(circle.status(of: "alice", now: after).phase == .overdue)
        #expect(!DeliveryRules.isDelivered(key, to: sam, feed: Feed(), circle: circle))

        // The same records by Bob, whom Alice added, count.
        Acknowledged(thread: thread.key).fold(into: &circle, member: "bob", stamp: Self.stamp("b", 1, at: after))
        circle.deliveries[key] = DeliveryRecord(stamp: Self.stamp("b", 2, at: after), by: "bob")
        #expect(circle.acknowledgement(of: thread)?.by == "bob")
        #expect(DeliveryRules.isDelivered(key, to: sam, feed: Feed(), circle: circle))

        // Alice confirms Mal: his word counts from then on.
        RelationSet(member: "mal", roles: Self.watched).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 4))
        #expect(circle.answersFor("alice", watcher: "mal"))
        #expect(circle.vouches(for: "alice").map(\.by) == ["mal"])
    }

    @Test func aLinkTheMemberRemovedStaysUnconfirmedWhenTheClaimantWritesItAgain() {
        var circle = Self.circle()
        RelationSet(member: "mal", roles: Self.watched).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 4))
        RelationSet(member: "mal", roles: nil).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 5))
        #expect(circle.roles(of: "mal", toward: "alice") == nil)
        RelationSet(member: "alice", roles: Self.watches).fold(into: &circle, member: "mal", stamp: Self.stamp("m", 9))
        #expect(circle.roles(of: "mal", toward: "alice")?.dependent == true)
        #expect(!circle.answersFor("alice", watcher: "mal"))
    }

    /// Review F3-1: Alice watches over Mal (her own word, as his responder). Mal turning the link
    /// around — "and I watch over Alice" — is his claim: her word on the link confirms only what
    /// it said, so his acknowledgement and delivery records count for nothing. Review F3-2: nor
    /// does his claim, tier 1 by default, hold back the tier she put everyone in.
    @Test func aDependentWhoTurnsTheLinkAroundIsNotConfirmedAndSetsNoTier() {
        var circle = Self.circle()
        RelationSet(member: "mal", roles: Self.watches).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 4))
        #expect(circle.confirmedWatcher("alice", by: "mal") == false, "Mal never said Alice watches over him")
        RelationSet(member: "alice", roles: Roles(responder: true, dependent: true))
            .fold(into: &circle, member: "mal", stamp: Self.stamp("m", 5))
        #expect(circle.roles(of: "mal", toward: "alice") == Roles(responder: true, dependent: true))
        #expect(!circle.answersFor("alice", watcher: "mal"))
        #expect(circle.unconfirmedWatchers(of: "alice") == ["mal"])
        #expect(circle.contacts(of: "alice").first { $0.id == "mal" }?.confirmedByMe == false)
        #expect(circle.contacts(of: "alice").first { $0.id == "mal" }?.confirmedByThem == true)

        TierSet(contact: "bob", tier: 2).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 6))
        TierSet(contact: "sam", tier: 2).fold(into: &circle, member: "alice", stamp: Self.stamp("a", 7))
        #expect(Escalation.firstTier(of: "alice", in: circle) == 2)
        #expect(
            Notifications.confirmedResponders(of: "alice", in: circle).count == 2,
            "Bob and Sam; Mal is told, but is none of hers")
        #expect(Notifications.responders(of: "alice", in: circle).count == 3)
    }

    /// Anyone may call themselves anything ("Emergency services"): a message that names who
    /// else is told marks one the person never confirmed.
    @Test func aMessageMarksWhoThePersonNeverConfirmed() {
        var circle = Self.circle()
        NameSet(name: "Alice").fold(into: &circle, member: "alice", stamp: Self.stamp("a", 8))
        NameSet(name: "Emergency services").fold(into: &circle, member: "mal", stamp: Self.stamp("m", 8))
        NameSet(name: "Bob").fold(into: &circle, member: "bob", stamp: Self.stamp("b", 8))
        let miss = Notification(
            kind: .dependentNonResponsive, cause: "\(Self.deadline.seconds)", message: "", at: Self.deadline,
            subject: "alice", recipient: .external(owner: "alice", id: "sam"),
            thread: .deadline(member: "alice", at: Self.deadline))
        let others = Messages.others(miss, circle: circle, feed: Feed(), sentAt: Self.deadline + .hours(1))
        #expect(others.beingTold.sorted() == ["Bob", "Emergency services (not confirmed by Alice)"])
    }

    /// A vouch in another member's name is left out and counted as a vouch, not as an
    /// acknowledgement: the warning says what the log claimed.
    @Test func aVouchInAnotherMembersNameIsCountedAsAVouch() {
        var forged = CircleState()
        forged.vouch(
            Vouch(by: "bob", deadline: Self.deadline, note: "saw her", stamp: Self.stamp("m", 1)), for: "alice")
        let attributed = forged.attributed(to: "mal")
        #expect(attributed.state.vouches.isEmpty)
        #expect(attributed.foreign?.vouches == 1 && attributed.foreign?.acknowledgements == 0)
        #expect(attributed.foreign?.kinds == ["1 vouch"])
    }

    /// Each side comes from the member's own logs: a log cannot speak for the other side, and a
    /// merge keeps each member's latest word whichever copy comes first.
    @Test func sidesAreAttributedToTheLogsMemberAndMergeInAnyOrder() {
        var forged = CircleState()
        RelationSet(member: "alice", roles: Self.watches).fold(into: &forged, member: "mal", stamp: Self.stamp("m", 1))
        // Mal's log claiming Alice's word, and a relation between two others.
        forged.sides[Side(writer: "alice", other: "mal")] = Stamped(Self.watched, Self.stamp("m", 2))
        forged.relations[Pair("alice", "bob")] = Stamped(Self.watched, Self.stamp("m", 3))
        let attributed = forged.attributed(to: "mal")
        #expect(attributed.state.sides.keys.map { "\($0.writer)>\($0.other)" } == ["mal>alice"])
        #expect(attributed.state.relations[Pair("alice", "bob")] == nil)

        var alice = CircleState()
        RelationSet(member: "mal", roles: Self.watched).fold(into: &alice, member: "alice", stamp: Self.stamp("a", 1))
        var laterAlice = CircleState()
        RelationSet(member: "mal", roles: nil).fold(into: &laterAlice, member: "alice", stamp: Self.stamp("p", 2))
        var one = attributed.state
        one.merge(alice.attributed(to: "alice").state)
        one.merge(laterAlice.attributed(to: "alice").state)
        var other = laterAlice.attributed(to: "alice").state
        other.merge(alice.attributed(to: "alice").state)
        other.merge(attributed.state)
        #expect(one.sides == other.sides)
        #expect(!one.confirmedWatcher("mal", by: "alice"))
    }
}
