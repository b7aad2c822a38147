import Testing

@testable import LifeSignalCore

/// Which taps of an "I'm OK" button count for a member, folded from the logs of any device.
@Suite struct PhoneTokenTests {
    static let token = String(repeating: "0123456789abcdef", count: 2)
    static let issued = Timestamp(seconds: 1_772_000_000)

    /// Alice's device committed to `token` at `issued`; a device of Bob's recorded taps.
    static func circle(taps: [(String, Timestamp)]) -> CircleState {
        var circle = CircleState()
        TokenIssued(hash: PhoneCheckIns.commitment(of: token)).fold(
            into: &circle, member: "alice", stamp: Stamp(clock: 1, at: issued, device: "a1", seq: 1))
        for (index, (token, at)) in taps.enumerated() {
            PhoneTapped(member: "alice", token: token, at: at).fold(
                into: &circle, member: "bob", stamp: Stamp(clock: 2, at: at, device: "b1", seq: Int64(index + 2)))
        }
        return circle
    }

    @Test func aTapOfACommittedTokenIsACheckInFromThePhone() throws {
        let at = Self.issued + .hours(2)
        let state = try #require(Self.circle(taps: [(Self.token, at)]).members["alice"])
        let last = try #require(state.lastCheckIn(asOf: at + .minutes(1)))
        #expect(last.at == at && last.fromPhone)
        #expect(CheckInStatus(member: state, now: at + .minutes(1)).deadline == at + .hours(24))
    }

    @Test func anUnknownAReplayedAndAnExpiredTokenCountForNothing() throws {
        let other = String(repeating: "f", count: 32)
        let first = Self.issued + .hours(2)
        let state = try #require(
            Self.circle(taps: [(other, first), (Self.token, first), (Self.token, first + .days(1))]).members["alice"])
        #expect(PhoneCheckIns.verdict(of: other, at: first, for: state) == .unknown)
        #expect(PhoneCheckIns.verdict(of: Self.token, at: first + .days(1), for: state) == .used(at: first))
        #expect(state.lastCheckIn(asOf: first + .days(2))?.at == first, "the replay a day later moves nothing")
        let late = Self.issued + PhoneCheckIns.validity + .minutes(1)
        let expired = try #require(Self.circle(taps: [(Self.token, late)]).members["alice"])
        #expect(PhoneCheckIns.verdict(of: Self.token, at: late, for: expired) == .expired(issued: Self.issued))
        #expect(expired.lastCheckIn(asOf: late) == nil)
    }

    @Test func aTapIsKeptInTheRecordersStateAndNothingElseOfAlicesIs() throws {
        var log = CircleState()
        PhoneTapped(member: "alice", token: Self.token, at: Self.issued + .hours(1)).fold(
            into: &log, member: "bob", stamp: Stamp(clock: 2, at: Self.issued, device: "b1", seq: 2))
        log.update("alice") { $0.interval = Stamped(.hours(1), Stamp(at: Self.issued, device: "b1", seq: 3)) }
        let (kept, foreign) = log.attributed(to: "bob")
        #expect(kept.members["alice"]?.phoneTaps.count == 1)
        #expect(kept.members["alice"]?.interval == nil, "a setting of Alice's in Bob's log counts for nothing")
        #expect(foreign?.members == 1)
    }

    @Test func anIdKnownOnlyFromRelayedTapsIsNoMemberOfTheCircle() {
        var circle = Self.circle(taps: [(Self.token, Self.issued + .hours(1))])
        NameSet(name: "Bob").fold(into: &circle, member: "bob", stamp: Stamp(at: Self.issued, device: "b1", seq: 9))
        // Bob's log relays a tap for an id nobody in the circle has records of.
        PhoneTapped(member: "ghost", token: Self.token, at: Self.issued).fold(
            into: &circle, member: "bob", stamp: Stamp(at: Self.issued, device: "b1", seq: 10))
        #expect(circle.members["ghost"]?.phoneTaps.count == 1, "the tap is kept, counting only through a token")
        #expect(circle.knownMembers == ["alice", "bob"])
    }

    @Test func tokensAndTapsAreBounded() {
        var state = MemberState()
        for n in 0..<200 {
            state.remember(token: String(n), issued: Self.issued + TimeSpan(seconds: Int64(n)))
            let token = String(repeating: "0", count: 29) + String(100 + n)
            state.remember(tap: PhoneTap(token: token, at: Self.issued + TimeSpan(seconds: Int64(n)), recorded: .unset))
        }
        #expect(state.tokens.count == PhoneCheckIns.tokenLimit)
        #expect(state.tokens["199"] != nil && state.tokens["0"] == nil, "the newest are kept")
        #expect(state.phoneTaps.count == PhoneCheckIns.tapLimit)
    }

    /// Junk taps (tokens nobody committed to, stamped far ahead) cannot push out a real one:
    /// Alice's check-in from the phone stands, and her token stays used.
    @Test func junkTapsDoNotPushOutARealOne() throws {
        let at = Self.issued + .hours(2)
        var circle = Self.circle(taps: [(Self.token, at)])
        for n in 0..<300 {
            let junk = String(repeating: "0", count: 26) + String(100_000 + n)
            PhoneTapped(member: "alice", token: junk, at: Timestamp(seconds: 4_000_000_000 + Int64(n))).fold(
                into: &circle, member: "mal", stamp: Stamp(clock: 5, at: at, device: "m1", seq: Int64(10 + n)))
        }
        let state = try #require(circle.members["alice"])
        #expect(state.phoneTaps.count == PhoneCheckIns.tapLimit)
        #expect(state.lastCheckIn(asOf: at + .hours(1))?.fromPhone == true)
        #expect(PhoneCheckIns.verdict(of: Self.token, at: at + .days(1), for: state) == .used(at: at))
    }

    /// "I'm on it" commitments are bounded the same in a fold and in a merge of devices.
    @Test func ackCommitmentsStayBoundedThroughAMerge() {
        var phone = MemberState()
        var laptop = MemberState()
        for n in 0..<100 {
            let commitment = AckCommitment(
                thread: "alert|x", owner: "alice", contact: "sis", issued: Self.issued + TimeSpan(seconds: Int64(n)))
            phone.remember(ack: "p\(n)", commitment)
            laptop.remember(ack: "l\(n)", commitment)
        }
        phone.merge(laptop)
        #expect(phone.ackTokens.count == PhoneCheckIns.tokenLimit)
        #expect(phone.ackTokens["p99"] != nil && phone.ackTokens["p0"] == nil, "the newest are kept")
    }
    /// An "I'm on it" counts only on a token the person's own device committed to: a watcher
    /// reads the circle and could commit and tap tokens of its own, which would let it say a
    /// responder is on it.
    @Test func onlyThePersonsOwnDevicesCommitToImOnIt() {
        let deadline = Self.issued + .hours(1)
        let thread = Notification.Thread.deadline(member: "alice", at: deadline)
        let tapped = deadline + .minutes(30)
        func circle(committedBy member: String, device: String) -> CircleState {
            var circle = CircleState()
            // Bob watches over Alice: he would relay her alarms to Sis.
            RelationSet(member: "alice", roles: Roles(responder: false, dependent: true)).fold(
                into: &circle, member: "bob", stamp: Stamp(clock: 1, at: Self.issued, device: "b1", seq: 1))
            AckTokenIssued(
                hash: PhoneCheckIns.commitment(of: Self.token), thread: thread.key, owner: "alice", contact: "sis"
            )
            .fold(into: &circle, member: member, stamp: Stamp(clock: 1, at: deadline, device: device, seq: 2))
            PhoneTapped(member: member, token: Self.token, at: tapped).fold(
                into: &circle, member: "bob", stamp: Stamp(clock: 2, at: tapped, device: "b1", seq: 3))
            return circle
        }
        let alices = circle(committedBy: "alice", device: "a1")
        #expect(alices.acknowledgement(of: thread)?.external == "sis")
        #expect(PhoneCheckIns.ackVerdict(of: Self.token, at: tapped, committedBy: "alice", in: alices) == .counts)
        let bobs = circle(committedBy: "bob", device: "b1")
        #expect(bobs.acknowledgement(of: thread) == nil, "a watcher's own token says nothing for Sis")
        #expect(PhoneCheckIns.ackVerdict(of: Self.token, at: tapped, committedBy: "alice", in: bobs) == .unknown)
    }
    /// Withdrawn buttons count for nothing: an "I'm OK" token handed out before its phone topic
    /// was withdrawn is no check-in, and one of the same second as the withdrawal still is.
    @Test func aWithdrawnButtonCountsForNothing() throws {
        let at = Self.issued + .hours(2)
        var circle = Self.circle(taps: [(Self.token, at)])
        #expect(circle.members["alice"]?.lastCheckIn(asOf: at)?.fromPhone == true)
        ButtonsWithdrawn(of: PhoneCheckIns.phone).fold(
            into: &circle, member: "alice", stamp: Stamp(clock: 3, at: Self.issued + .hours(1), device: "a1", seq: 9))
        let state = try #require(circle.members["alice"])
        #expect(PhoneCheckIns.verdict(of: Self.token, at: at, for: state) == .withdrawn(at: Self.issued + .hours(1)))
        #expect(state.lastCheckIn(asOf: at) == nil)
        #expect(!state.hasButtonsOut(for: PhoneCheckIns.phone))
        var sameSecond = Self.circle(taps: [(Self.token, at)])
        ButtonsWithdrawn(of: PhoneCheckIns.phone).fold(
            into: &sameSecond, member: "alice", stamp: Stamp(clock: 3, at: Self.issued, device: "a1", seq: 9))
        #expect(sameSecond.members["alice"]?.lastCheckIn(asOf: at)?.fromPhone == true)
    }
}
