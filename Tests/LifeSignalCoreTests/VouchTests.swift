import Testing

@testable import LifeSignalCore

/// Which vouches count: only by someone who watches over the member, only for the deadline
/// they missed, and not a third miss in a row.
@Suite struct VouchTests {
    static let start = Timestamp(seconds: 1_772_000_000)

    /// Alice checked in at `start` (24h interval); Bob watches over her, and she confirmed it;
    /// Mal is only linked.
    static func circle() -> CircleState {
        var circle = CircleState()
        CheckedIn(note: nil).fold(
            into: &circle, member: "alice", stamp: Stamp(clock: 1, at: start, device: "a", seq: 1))
        RelationSet(member: "alice", roles: Roles(responder: false, dependent: true)).fold(
            into: &circle, member: "bob", stamp: Stamp(clock: 1, at: start, device: "b", seq: 1))
        RelationSet(member: "bob", roles: Roles(responder: true, dependent: false)).fold(
            into: &circle, member: "alice", stamp: Stamp(clock: 2, at: start, device: "a", seq: 2))
        RelationSet(member: "alice", roles: Roles(responder: true, dependent: false)).fold(
            into: &circle, member: "mal", stamp: Stamp(clock: 1, at: start, device: "m", seq: 1))
        return circle
    }

    static func vouch(_ circle: inout CircleState, by: String, deadline: Timestamp, at: Timestamp, seq: Int64 = 2) {
        Vouched(member: "alice", deadline: deadline, note: nil).fold(
            into: &circle, member: by, stamp: Stamp(clock: 2, at: at, device: by, seq: seq))
    }

    @Test func aResponderVouchRestartsTheCountdownAndOnlyAResponders() {
        var circle = Self.circle()
        let deadline = Self.start + .hours(24)
        Self.vouch(&circle, by: "mal", deadline: deadline, at: deadline + .hours(1))
        #expect(circle.status(of: "alice", now: deadline + .hours(2)).phase == .overdue, "Alice watches Mal, not back")
        Self.vouch(&circle, by: "bob", deadline: deadline + .hours(1), at: deadline + .hours(1))
        #expect(circle.status(of: "alice", now: deadline + .hours(2)).phase == .overdue, "not the deadline she missed")
        Self.vouch(&circle, by: "bob", deadline: deadline, at: deadline + .hours(1), seq: 3)
        let status = circle.status(of: "alice", now: deadline + .hours(2))
        #expect(status.phase == .ok)
        #expect(status.deadline == deadline + .hours(25))
        #expect(status.lastCheckIn?.at == Self.start, "a vouch is not her check-in")
    }

    @Test func notThreeMissesInARow() {
        var circle = Self.circle()
        var deadline = Self.start + .hours(24)
        for n in 0..<3 {
            Self.vouch(&circle, by: "bob", deadline: deadline, at: deadline + .hours(1), seq: Int64(2 + n))
            deadline = deadline + .hours(25)
        }
        let status = circle.status(of: "alice", now: deadline)
        #expect(status.vouchedInARow == 2)
        #expect(status.phase == .overdue, "the third vouch in a row counts for nothing")
        #expect(status.deadline == Self.start + .hours(24 + 25 + 25), "the miss after the second vouch stands")
    }

    /// A vouch is for a miss happening now: one dated more than a day after the deadline (a
    /// voucher's machine sliding its own record forward) ends nothing.
    @Test func aVouchLongAfterTheDeadlineEndsNothing() {
        var circle = Self.circle()
        let deadline = Self.start + .hours(24)
        Self.vouch(&circle, by: "bob", deadline: deadline, at: deadline + .hours(25))
        #expect(circle.status(of: "alice", now: deadline + .hours(26)).phase == .overdue)
        #expect(circle.status(of: "alice", now: deadline + .hours(26)).deadline == deadline)
    }

    /// Vouches of one who may not vouch cannot push out those of one who may.
    @Test func aStrangersVouchesDoNotPushOutAResponders() {
        var circle = Self.circle()
        let deadline = Self.start + .hours(24)
        Self.vouch(&circle, by: "bob", deadline: deadline, at: deadline + .hours(1))
        for n in 0..<20 {
            Self.vouch(
                &circle, by: "mal", deadline: Timestamp(seconds: 4_000_000_000 + Int64(n)),
                at: Timestamp(seconds: 4_000_000_000 + Int64(n)), seq: Int64(10 + n))
        }
        let status = circle.status(of: "alice", now: deadline + .hours(2))
        #expect(status.phase == .ok, "Bob's vouch stands")
        #expect((circle.vouches["alice"] ?? []).filter { $0.by == "mal" }.count == Vouching.kept)
    }
}
