import Testing

@testable import LifeSignalCore

/// What may confirm that a watcher's copy is current after a deadline (Freshness.swift), when a
/// member who can write the circle folder wishes the person harm: Mal puts Bea's older log back
/// before Ana's device reads the new one, and keeps writing records of his own. Only Bea's own
/// records, Ana's other devices' and the sync engine's word confirm; nothing stamped after the
/// watcher's clock does.
@Suite struct WithheldRecordTests {
    static let h: Int64 = 3600
    static func at(_ offset: Int64) -> Timestamp { CheckInStatusTests.at(offset) }
    static let deadline = at(24 * h)

    /// Bea (checked in at 0, due at 24h), watched over by Ana (devices "a" and "a2"); Mal, a third
    /// member, with a record at `mal`; `bea` and `ana2`: a record of Bea's, of Ana's other device.
    static func circle(mal: Int64? = nil, bea: Int64? = nil, ana2: Int64? = nil) -> CircleState {
        var circle = CircleState()
        circle.members["bea"] = CheckInStatusTests.member(
            [(0, NameSet(name: "Bea")), (0, CheckedIn(note: nil))] + (bea.map { [($0, DeliverRan())] } ?? []),
            device: "b")
        var ana = CheckInStatusTests.member([(0, NameSet(name: "Ana"))], device: "a")
        if let ana2 { ana.merge(CheckInStatusTests.member([(ana2, DeliverRan())], device: "a2")) }
        circle.members["ana"] = ana
        circle.members["mal"] = CheckInStatusTests.member(
            [(0, NameSet(name: "Mal"))] + (mal.map { [($0, DeliverRan())] } ?? []), device: "m")
        circle.relations[Pair("ana", "bea")] = Stamped(
            Roles(responder: false, dependent: true), Stamp(clock: 1, at: at(0), device: "a", seq: 1))
        return circle
    }

    /// No engine vouches (a folder other accounts can write, or a tool lifesignal cannot ask).
    static let unvouched = SyncView(engine: .direct, currentAt: nil)

    static func relay(_ circle: CircleState, now: Int64, sync: SyncView = unvouched) -> RelayDecision {
        DeliveryRules.relay(
            missOf: "bea", deadline: deadline, me: "ana", device: "a", circle: circle, sync: sync, now: at(now))
    }

    @Test func aThirdMembersRecordsConfirmNothing() {
        let now = 24 * Self.h + 16 * 60
        let circle = Self.circle(mal: 24 * Self.h + 600)
        #expect(Self.relay(circle, now: now) == .hold(until: Self.at(26 * Self.h)))
        #expect(Self.relay(circle, now: 26 * Self.h) == .send(confirmed: false, evidence: nil))
        #expect(
            DeliveryRules.ownWord(
                missOf: "bea", deadline: Self.deadline, me: "ana", device: "a", circle: circle, sync: Self.unvouched,
                now: Self.at(now)) == .send(confirmed: false, evidence: nil))
        // Ana's other device, or the engine, does confirm.
        let mine = Self.circle(mal: 24 * Self.h + 600, ana2: 24 * Self.h + 700)
        #expect(
            Self.relay(mine, now: now)
                == .send(confirmed: true, evidence: Evidence(source: .myOtherDevice, at: Self.at(24 * Self.h + 700))))
        #expect(
            Self.relay(circle, now: now, sync: .direct(now: Self.at(now)))
                == .send(confirmed: true, evidence: Evidence(source: .engine(.direct), at: Self.at(now))))
    }

    /// One run of Ana's other device (or Bea's) with its clock a year ahead vouches for nothing:
    /// the relay and Ana's own word on the miss agree it is unconfirmed.
    @Test func aRecordFromTheFutureConfirmsNothing() {
        let now = 24 * Self.h + 16 * 60
        let year = 365 * 24 * Self.h
        for circle in [Self.circle(ana2: year), Self.circle(bea: year)] {
            #expect(Self.relay(circle, now: now) == .hold(until: Self.at(26 * Self.h)))
            #expect(Self.relay(circle, now: 26 * Self.h) == .send(confirmed: false, evidence: nil))
            #expect(
                DeliveryRules.ownWord(
                    missOf: "bea", deadline: Self.deadline, me: "ana", device: "a", circle: circle,
                    sync: Self.unvouched, now: Self.at(now)) == .send(confirmed: false, evidence: nil))
        }
        // Nor is it when the copy last changed, or when Bea was last heard from.
        let ahead = Self.circle(bea: year)
        #expect(ahead.lastChange(excludingDevice: "a", asOf: Self.at(now)) == Self.at(0))
        #expect(ahead.members["bea"]?.lastHeard(excludingDevice: "a", asOf: Self.at(now)) == Self.at(0))
        // Within the clocks' tolerance, a record just after the deadline still counts.
        #expect(
            Self.relay(Self.circle(ana2: 24 * Self.h + 60), now: 24 * Self.h + 30)
                == .send(confirmed: true, evidence: Evidence(source: .myOtherDevice, at: Self.at(24 * Self.h + 60))))
    }
}
