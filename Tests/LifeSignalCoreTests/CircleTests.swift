import Testing

@testable import LifeSignalCore

/// The circle's rules as tables: reciprocal roles, the order in which logs arrive not
/// mattering, ping ends, dependents' status priority and sort order.
@Suite struct CircleTests {
    /// Each log's count is bounded when read, but a circle of many hostile logs could still
    /// add up past Int64: the sum saturates instead of trapping.
    @Test func checkInCountsSaturateWhenMerged() {
        var a = MemberState()
        var b = MemberState()
        a.checkInCount = .max - 1
        b.checkInCount = 5
        a.merge(b)
        #expect(a.checkInCount == .max)
        var c = MemberState()
        c.checkInCount = 2
        c.merge(b)
        #expect(c.checkInCount == 7)
    }

    static let ana = "00000000-0000-4000-8000-00000000000a"
    static let bea = "00000000-0000-4000-8000-00000000000b"
    static let carl = "00000000-0000-4000-8000-00000000000c"
    static let t0 = Timestamp(seconds: 1_772_355_600)
    static let h: Int64 = 3600

    /// One device's log: events written by `member` from device `device`.
    struct Log {
        var member: String
        var device: String
        var events: [(Int64, any EventBody)]

        var state: CircleState {
            var state = CircleState()
            for (i, (offset, body)) in events.enumerated() {
                state.apply(
                    Event(seq: Int64(i + 1), at: Timestamp(seconds: CircleTests.t0.seconds + offset), body: body),
                    member: member, device: device)
            }
            return state
        }
    }

    static func merged(_ logs: [Log]) -> CircleState {
        var state = CircleState()
        for log in logs { state.merge(log.state) }
        return state
    }

    struct RoleRow: Sendable, CustomTestStringConvertible {
        var name: String
        var written: Roles
        var anaSees: Roles
        var beaSees: Roles
        var testDescription: String { name }
    }

    @Test(arguments: [
        RoleRow(
            name: "Bea is Ana's responder", written: Roles(responder: true, dependent: false),
            anaSees: Roles(responder: true, dependent: false), beaSees: Roles(responder: false, dependent: true)),
        RoleRow(
            name: "Bea is Ana's dependent", written: Roles(responder: false, dependent: true),
            anaSees: Roles(responder: false, dependent: true), beaSees: Roles(responder: true, dependent: false)),
        RoleRow(
            name: "both ways", written: Roles(responder: true, dependent: true),
            anaSees: Roles(responder: true, dependent: true), beaSees: Roles(responder: true, dependent: true)),
    ])
    func rolesAreReciprocal(_ row: RoleRow) {
        // Written by Ana, and — the same relation — by Bea with the reciprocal roles.
        for log in [
            Log(member: Self.ana, device: "a1", events: [(0, RelationSet(member: Self.bea, roles: row.written))]),
            Log(
                member: Self.bea, device: "b1",
                events: [(0, RelationSet(member: Self.ana, roles: row.written.reciprocal))]),
        ] {
            let state = Self.merged([log])
            #expect(state.roles(of: Self.ana, toward: Self.bea) == row.anaSees)
            #expect(state.roles(of: Self.bea, toward: Self.ana) == row.beaSees)
        }
    }

    @Test func eitherSideMayChangeTheRelationAndTheLaterChangeWins() {
        let anaAdds = Log(
            member: Self.ana, device: "a1",
            events: [(0, RelationSet(member: Self.bea, roles: Roles(responder: true, dependent: false)))])
        let beaChanges = Log(
            member: Self.bea, device: "b1",
            events: [(60, RelationSet(member: Self.ana, roles: Roles(responder: true, dependent: true)))])
        let anaRemoves = Log(
            member: Self.ana, device: "a2", events: [(120, RelationSet(member: Self.bea, roles: nil))])
        for order in [[anaAdds, beaChanges], [beaChanges, anaAdds]] {
            #expect(Self.merged(order).roles(of: Self.ana, toward: Self.bea) == Roles(responder: true, dependent: true))
        }
        for order in [
            [anaAdds, beaChanges, anaRemoves], [anaRemoves, beaChanges, anaAdds], [beaChanges, anaRemoves, anaAdds],
        ] {
            let state = Self.merged(order)
            #expect(state.roles(of: Self.bea, toward: Self.ana) == nil)
            #expect(state.linkedMembers(of: Self.ana).isEmpty)
        }
    }

    @Test func aPingEndsOnceWhateverOrderTheLogsArriveIn() {
        let id = "00000000-0000-4000-8000-0000000000f1"
        let link = Log(
            member: Self.ana, device: "a1",
            events: [
                (0, RelationSet(member: Self.bea, roles: Roles(responder: false, dependent: true))),
                (10, PingSent(id: id, to: Self.bea)),
            ])
        let answer = Log(
            member: Self.bea, device: "b1",
            events: [(20, PingEnded(id: id, from: Self.ana, to: Self.bea, end: .answered))])
        let clear = Log(
            member: Self.ana, device: "a2",
            events: [(30, PingEnded(id: id, from: Self.ana, to: Self.bea, end: .cleared))])
        for order in [[link, answer, clear], [clear, answer, link], [answer, clear, link]] {
            let ping = Self.merged(order).pings[Ping.key(id: id, from: Self.ana, to: Self.bea)]
            #expect(ping?.endKind == .answered)
            #expect(ping?.sent?.at == Timestamp(seconds: Self.t0.seconds + 10))
        }
        // The answer alone (its start not synced yet) is not shown as a ping at all.
        #expect(Self.merged([answer]).pings(involving: Self.bea).isEmpty)
    }

    @Test func removingTheDependentRoleEndsAPendingPingEvenFromAnotherMachine() {
        let id = "00000000-0000-4000-8000-0000000000f2"
        let anaPings = Log(
            member: Self.ana, device: "a1",
            events: [
                (0, RelationSet(member: Self.bea, roles: Roles(responder: false, dependent: true))),
                (10, PingSent(id: id, to: Self.bea)),
            ])
        #expect(Self.merged([anaPings]).pendingPing(from: Self.ana, to: Self.bea)?.id == id)
        // Bea, not having seen the ping yet, stops being Ana's dependent.
        let beaRemoves = Log(member: Self.bea, device: "b1", events: [(20, RelationSet(member: Self.ana, roles: nil))])
        let state = Self.merged([anaPings, beaRemoves])
        #expect(state.pendingPing(from: Self.ana, to: Self.bea) == nil)
        #expect(state.pings[Ping.key(id: id, from: Self.ana, to: Self.bea)].map(state.isPending) == false)
    }

    @Test func invitationCodesResolveToTheirCurrentOwner() {
        let old = "00000000-0000-4000-8000-0000000000c1"
        let new = "00000000-0000-4000-8000-0000000000c2"
        let state = Self.merged([
            Log(member: Self.bea, device: "b1", events: [(0, CodeSet(code: old)), (10, CodeSet(code: new))])
        ])
        #expect(state.member(withCode: new) == Self.bea)
        #expect(state.member(withCode: old) == nil)
    }

    // MARK: Dependents' status

    static func member(_ events: [(Int64, any EventBody)]) -> MemberState {
        var state = MemberState()
        for (i, (offset, body)) in events.enumerated() {
            state.apply(Event(seq: Int64(i + 1), at: Timestamp(seconds: t0.seconds + offset), body: body), device: "d")
        }
        return state
    }

    struct StatusRow: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [(Int64, any EventBody)]
        var alert: Int64?
        var ping: Int64?
        var now: Int64
        var kind: DependentStatus.Kind
        var text: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        StatusRow(
            name: "alert beats everything", events: [(0, CheckedIn(note: nil))], alert: 30 * h - 600, ping: 25 * h,
            now: 30 * h, kind: .alert, text: "Sent out an alert 10m ago"),
        StatusRow(
            name: "non-responsive beats pinged", events: [(0, CheckedIn(note: nil))], alert: nil, ping: 20 * h,
            now: 26 * h + 300, kind: .nonResponsive, text: "Non-responsive 2h 5m ago"),
        StatusRow(
            name: "pinged beats the countdown", events: [(0, CheckedIn(note: nil))], alert: nil, ping: 20 * h,
            now: 20 * h + 300, kind: .pinged, text: "Pinged 5m ago"),
        StatusRow(
            name: "countdown in days and hours",
            events: [(0, CheckedIn(note: nil)), (0, IntervalSet(interval: .hours(48)))],
            alert: nil, ping: nil, now: 20 * h, kind: .countdown, text: "1d 4h"),
        StatusRow(
            name: "countdown in hours and minutes", events: [(0, CheckedIn(note: nil))], alert: nil, ping: nil,
            now: 20 * h + 48 * 60, kind: .countdown, text: "3h 12m"),
        StatusRow(
            name: "at the deadline exactly is still the countdown", events: [(0, CheckedIn(note: nil))], alert: nil,
            ping: nil, now: 24 * h, kind: .countdown, text: "0s"),
        StatusRow(
            name: "one second after is non-responsive", events: [(0, CheckedIn(note: nil))], alert: nil, ping: nil,
            now: 24 * h + 1, kind: .nonResponsive, text: "Non-responsive just now"),
        StatusRow(
            name: "never checked in", events: [], alert: nil, ping: nil, now: 0, kind: .noCheckIn, text: "No check-in"),
        StatusRow(
            name: "never checked in but pinged", events: [], alert: nil, ping: 0, now: 120, kind: .pinged,
            text: "Pinged 2m ago"),
    ])
    func dependentStatus(_ row: StatusRow) {
        let status = DependentStatus(
            member: Self.member(row.events), alertSince: row.alert.map { Timestamp(seconds: Self.t0.seconds + $0) },
            pendingPingSent: row.ping.map { Timestamp(seconds: Self.t0.seconds + $0) },
            now: Timestamp(seconds: Self.t0.seconds + row.now))
        #expect(status.kind == row.kind)
        #expect(status.text == row.text)
    }

    @Test func dependentsSortByPriorityThenTimeLeft() {
        let now = Timestamp(seconds: Self.t0.seconds + 30 * Self.h)
        func status(_ events: [(Int64, any EventBody)], alert: Int64? = nil, ping: Int64? = nil) -> DependentStatus {
            DependentStatus(
                member: Self.member(events), alertSince: alert.map { Timestamp(seconds: Self.t0.seconds + $0) },
                pendingPingSent: ping.map { Timestamp(seconds: Self.t0.seconds + $0) }, now: now)
        }
        let people: [(String, DependentStatus)] = [
            ("Dan (6h left)", status([(12 * Self.h, CheckedIn(note: nil))])),
            ("Eve (1h left)", status([(7 * Self.h, CheckedIn(note: nil))])),
            ("Fay (no check-in)", status([])),
            ("Gus (pinged)", status([(29 * Self.h, CheckedIn(note: nil))], ping: 29 * Self.h)),
            ("Hal (overdue 6h)", status([(0, CheckedIn(note: nil))])),
            ("Ida (alert)", status([(29 * Self.h, CheckedIn(note: nil))], alert: 29 * Self.h)),
            ("Jo (overdue 1h)", status([(5 * Self.h, CheckedIn(note: nil))])),
        ]
        let order = DependentStatus.sorted(people, status: { $0.1 }, name: { $0.0 }).map(\.0)
        #expect(
            order == [
                "Ida (alert)", "Hal (overdue 6h)", "Jo (overdue 1h)", "Gus (pinged)", "Fay (no check-in)",
                "Eve (1h left)", "Dan (6h left)",
            ])
    }

    @Test func contactLookup() throws {
        let stamp = Stamp(at: Self.t0, device: "d", seq: 1)
        let contacts = [
            Contact(
                id: Self.bea, kind: .member, name: "Bea", roles: Roles(responder: true, dependent: false), since: stamp),
            Contact(
                id: "11111111-0000-4000-8000-000000000001", kind: .external, name: "Sam Lee",
                roles: Roles(responder: true, dependent: false), since: stamp),
            Contact(
                id: "11111111-0000-4000-8000-000000000002", kind: .external, name: "Sammy",
                roles: Roles(responder: true, dependent: false), since: stamp),
        ]
        #expect(try ContactLookup.find("bea", in: contacts).id == Self.bea)
        #expect(try ContactLookup.find(Self.bea, in: contacts).name == "Bea")
        #expect(try ContactLookup.find("sam lee", in: contacts).name == "Sam Lee")
        #expect(try ContactLookup.find("Samm", in: contacts).name == "Sammy")
        #expect(throws: ContactLookup.Failure.ambiguous("Sam", candidates: Array(contacts.dropFirst()))) {
            try ContactLookup.find("Sam", in: contacts)
        }
        #expect(throws: ContactLookup.Failure.ambiguous("1111", candidates: Array(contacts.dropFirst()))) {
            try ContactLookup.find("1111", in: contacts)
        }
        #expect(throws: ContactLookup.Failure.notFound("Zed")) { try ContactLookup.find("Zed", in: contacts) }
    }

    @Test(arguments: [
        ("desktop:", true), ("mailto:sam@example.org", true), ("mailto:sam", false),
        ("mailto:a@b.c\r\nBcc: x@y.z", false),
        ("ntfy:https://ntfy.sh/my-topic_1", true), ("ntfy:https://ntfy.sh/", false),
        ("ntfy:https://ntfy.sh/a/b", false),
        ("ntfy:http://127.0.0.1:8080/t", true), ("ntfy:http://example.org/t", false),
        ("https://hooks.example.org/x?y=1", true), ("http://localhost:9000/hook", true),
        ("http://example.org/hook", false), ("https://", false),
        ("apprise:tgram://bot/chat", true), ("apprise:json://127.0.0.1:9/", true), ("apprise:nothing", false),
        ("exec:/usr/local/bin/page-me --loud", true), ("exec:", false), ("ftp://x", false), ("", false),
    ])
    func channelAddresses(uri: String, valid: Bool) {
        #expect((Address.problem(withChannel: uri) == nil) == valid)
    }

    @Test func emailAndPhone() {
        #expect(Address.problem(withEmail: "sam@example.org") == nil)
        #expect(Address.problem(withEmail: "sam@@example.org") != nil)
        #expect(Address.problem(withEmail: "sam lee@example.org") != nil)
        #expect(Address.problem(withPhone: "+44 20 7946 0958") == nil)
        #expect(Address.normalizedPhone("+44 (20) 7946-0958") == "+442079460958")
        #expect(Address.problem(withPhone: "020 7946 0958") != nil)
        #expect(Address.problem(withPhone: "+0123") != nil)
        #expect(Address.problem(withPhone: "+1234567890123456") != nil)
    }
}
