import Foundation
import Testing

@testable import LifeSignalCore
@testable import LifeSignalStore

/// The record schema in the logs: every event type and every field of the state comes back
/// as written, and a log written before the schema was derived (no `writer` field) reads
/// back to the same state and is written again byte for byte, with only `writer` added.
@Suite struct LogCodecTests {
    static let ana = "0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f"
    static let bea = "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"
    static let carl = "2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081"
    static let phone = "3e8f5d84-af61-40b1-8243-4d5e6f708192"

    /// Every event type, every optional both present and absent, every enum case.
    static var allEvents: [any EventBody] {
        [
            NameSet(name: "Ana \"Lima\" é"), IntervalSet(interval: .hours(16)), ReminderSet(reminder: .minutes(45)),
            CodeSet(code: "K7P-2QX"), CheckedIn(note: nil), CheckedIn(note: "back from the hike ✓\n"),
            ReminderSet(reminder: nil), RelationSet(member: bea, roles: Roles(responder: true, dependent: false)),
            RelationSet(member: carl, roles: Roles(responder: false, dependent: true)),
            RelationSet(member: carl, roles: nil),
            ExternalSet(
                id: "8d4e5f60-7182-4394-b5a6-c7d8e9fa0b1c",
                contact: ExternalContact(
                    name: "Dr. Ng", notify: ["mailto:ng@example.org", "exec:/usr/local/bin/page"],
                    email: ["ng@example.org"], phone: ["+44 20 7946 0000"])),
            ExternalSet(
                id: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d",
                contact: ExternalContact(name: "Sam", notify: [], email: [], phone: [])),
            ExternalSet(id: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d", contact: nil),
            PingSent(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e40", to: bea),
            PingSent(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e41", to: bea),
            PingEnded(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e41", from: ana, to: bea, end: .cleared),
            PingEnded(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e42", from: carl, to: ana, end: .answered),
            PingEnded(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e43", from: carl, to: ana, end: .roleRemoved),
            AlertRaised(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", message: "fell on the trail, \"help\""),
            AlertEnded(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9"),
            AlertRaised(id: "6b2c3d4e-5f60-4172-9384-a5b6c7d8e9fa", message: nil),
            AlertEnded(id: "7c3d4e5f-6071-4283-a495-b6c7d8e9fa0b"),
            PreferencesSet(preferences: FeedPreferences()),
            PreferencesSet(
                preferences: FeedPreferences(
                    category: .checkIns, unreadOnly: true, channels: ["ntfy:https://ntfy.sh/ana", "desktop:"])),
        ]
    }

    /// A log of `allEvents`, one a minute, some with a clock that jumps ahead.
    static var fullLog: DeviceLog {
        var log = DeviceLog(member: ana, device: phone)
        for (i, body) in allEvents.enumerated() {
            log.append(
                body, at: Timestamp(seconds: 1_772_355_600 + Int64(i + 1) * 61), clock: i % 3 == 0 ? Int64(i * 2) : nil)
        }
        return log
    }

    /// `fullLog` as the version before the derived schema wrote it.
    static let earlierFullLog = #"""
        {
        "schemaVersion": 1,
        "member": "0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f",
        "device": "3e8f5d84-af61-40b1-8243-4d5e6f708192",
        "lastSeq": 24,
        "archivedThrough": 0,
        "clock": 44,
        "state": {"name":{"value":"Ana \"Lima\" é","at":"2026-03-01T09:01:01Z","clock":1,"seq":1},"interval":{"seconds":57600,"at":"2026-03-01T09:02:02Z","clock":2,"seq":2},"reminder":{"seconds":null,"at":"2026-03-01T09:07:07Z","clock":12,"seq":7},"code":{"value":"K7P-2QX","at":"2026-03-01T09:04:04Z","clock":6,"seq":4},"lastCheckIn":{"at":"2026-03-01T09:06:06Z","clock":8,"seq":6,"note":"back from the hike ✓\n"},"alerts":[{"id":"5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9","message":"fell on the trail, \"help\"","start":{"at":"2026-03-01T09:19:19Z","clock":36,"seq":19},"end":{"at":"2026-03-01T09:20:20Z","clock":37,"seq":20}},{"id":"6b2c3d4e-5f60-4172-9384-a5b6c7d8e9fa","message":null,"start":{"at":"2026-03-01T09:21:21Z","clock":38,"seq":21},"end":null},{"id":"7c3d4e5f-6071-4283-a495-b6c7d8e9fa0b","message":null,"start":null,"end":{"at":"2026-03-01T09:22:22Z","clock":42,"seq":22}}],"preferences":{"value":{"category":"check-ins","unreadOnly":true,"channels":["ntfy:https://ntfy.sh/ana","desktop:"]},"at":"2026-03-01T09:24:24Z","clock":44,"seq":24},"checkIns":2,"relations":[{"low":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","high":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70","roles":{"responder":true,"dependent":false},"at":"2026-03-01T09:08:08Z","clock":13,"seq":8},{"low":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","high":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","roles":null,"at":"2026-03-01T09:10:10Z","clock":18,"seq":10}],"externals":[{"owner":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","id":"8d4e5f60-7182-4394-b5a6-c7d8e9fa0b1c","contact":{"name":"Dr. Ng","notify":["mailto:ng@example.org","exec:/usr/local/bin/page"],"email":["ng@example.org"],"phone":["+44 20 7946 0000"]},"at":"2026-03-01T09:11:11Z","clock":19,"seq":11},{"owner":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","id":"9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d","contact":null,"at":"2026-03-01T09:13:13Z","clock":24,"seq":13}],"pings":[{"id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e40","from":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","to":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70","sent":{"at":"2026-03-01T09:14:14Z","clock":25,"seq":14},"end":null},{"id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e41","from":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","to":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70","sent":{"at":"2026-03-01T09:15:15Z","clock":26,"seq":15},"end":{"kind":"cleared","at":"2026-03-01T09:16:16Z","clock":30,"seq":16}},{"id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e42","from":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","to":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","sent":null,"end":{"kind":"answered","at":"2026-03-01T09:17:17Z","clock":31,"seq":17}},{"id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e43","from":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","to":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","sent":null,"end":{"kind":"roleRemoved","at":"2026-03-01T09:18:18Z","clock":32,"seq":18}}]},
        "events": [
          {"seq":1,"at":"2026-03-01T09:01:01Z","clock":1,"type":"nameSet","name":"Ana \"Lima\" é"},
          {"seq":2,"at":"2026-03-01T09:02:02Z","clock":2,"type":"intervalSet","seconds":57600},
          {"seq":3,"at":"2026-03-01T09:03:03Z","clock":3,"type":"reminderSet","seconds":2700},
          {"seq":4,"at":"2026-03-01T09:04:04Z","clock":6,"type":"codeSet","code":"K7P-2QX"},
          {"seq":5,"at":"2026-03-01T09:05:05Z","clock":7,"type":"checkIn"},
          {"seq":6,"at":"2026-03-01T09:06:06Z","clock":8,"type":"checkIn","note":"back from the hike ✓\n"},
          {"seq":7,"at":"2026-03-01T09:07:07Z","clock":12,"type":"reminderSet","seconds":null},
          {"seq":8,"at":"2026-03-01T09:08:08Z","clock":13,"type":"relationSet","member":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70","roles":{"responder":true,"dependent":false}},
          {"seq":9,"at":"2026-03-01T09:09:09Z","clock":14,"type":"relationSet","member":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","roles":{"responder":false,"dependent":true}},
          {"seq":10,"at":"2026-03-01T09:10:10Z","clock":18,"type":"relationSet","member":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","roles":null},
          {"seq":11,"at":"2026-03-01T09:11:11Z","clock":19,"type":"externalSet","id":"8d4e5f60-7182-4394-b5a6-c7d8e9fa0b1c","contact":{"name":"Dr. Ng","notify":["mailto:ng@example.org","exec:/usr/local/bin/page"],"email":["ng@example.org"],"phone":["+44 20 7946 0000"]}},
          {"seq":12,"at":"2026-03-01T09:12:12Z","clock":20,"type":"externalSet","id":"9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d","contact":{"name":"Sam","notify":[],"email":[],"phone":[]}},
          {"seq":13,"at":"2026-03-01T09:13:13Z","clock":24,"type":"externalSet","id":"9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d","contact":null},
          {"seq":14,"at":"2026-03-01T09:14:14Z","clock":25,"type":"pingSent","id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e40","to":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"},
          {"seq":15,"at":"2026-03-01T09:15:15Z","clock":26,"type":"pingSent","id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e41","to":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"},
          {"seq":16,"at":"2026-03-01T09:16:16Z","clock":30,"type":"pingEnded","id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e41","from":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","to":"1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70","end":"cleared"},
          {"seq":17,"at":"2026-03-01T09:17:17Z","clock":31,"type":"pingEnded","id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e42","from":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","to":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","end":"answered"},
          {"seq":18,"at":"2026-03-01T09:18:18Z","clock":32,"type":"pingEnded","id":"b0718293-a4b5-46c7-a8d9-fa0b1c2d3e43","from":"2d7e4c73-9e50-4fa0-b132-3c4d5e6f7081","to":"0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f","end":"roleRemoved"},
          {"seq":19,"at":"2026-03-01T09:19:19Z","clock":36,"type":"alertRaised","id":"5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9","message":"fell on the trail, \"help\""},
          {"seq":20,"at":"2026-03-01T09:20:20Z","clock":37,"type":"alertEnded","id":"5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9"},
          {"seq":21,"at":"2026-03-01T09:21:21Z","clock":38,"type":"alertRaised","id":"6b2c3d4e-5f60-4172-9384-a5b6c7d8e9fa"},
          {"seq":22,"at":"2026-03-01T09:22:22Z","clock":42,"type":"alertEnded","id":"7c3d4e5f-6071-4283-a495-b6c7d8e9fa0b"},
          {"seq":23,"at":"2026-03-01T09:23:23Z","clock":43,"type":"preferencesSet","preferences":{"category":null,"unreadOnly":false,"channels":[]}},
          {"seq":24,"at":"2026-03-01T09:24:24Z","clock":44,"type":"preferencesSet","preferences":{"category":"check-ins","unreadOnly":true,"channels":["ntfy:https://ntfy.sh/ana","desktop:"]}}
        ]
        }
        """#

    static let earlierEmptyLog = #"""
        {
        "schemaVersion": 1,
        "member": "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70",
        "device": "3e8f5d84-af61-40b1-8243-4d5e6f708192",
        "lastSeq": 0,
        "archivedThrough": 0,
        "clock": 0,
        "state": {"checkIns":0,"relations":[],"externals":[],"pings":[]},
        "events": []
        }
        """#

    /// The file (a literal lacks its final newline) with the `writer` line this version adds
    /// after `schemaVersion`.
    static func withWriter(_ text: String) -> String {
        text.replacingOccurrences(
            of: "\"schemaVersion\": 1,\n", with: "\"schemaVersion\": 1,\n\"writer\": \"\(Release.writer)\",\n") + "\n"
    }

    static func text(_ log: DeviceLog) -> String { String(decoding: log.encoded(signer: nil), as: UTF8.self) }

    static func decode(_ text: String, member: String = ana) throws -> DeviceLog {
        try DeviceLog.decode(Array(text.utf8), path: "log.json", member: member, device: phone, backup: nil)
    }

    @Test func anEarlierLogReadsBackAndIsWrittenAgainByteForByte() throws {
        let log = try Self.decode(Self.earlierFullLog)
        #expect(log.writer == nil)
        #expect(Self.text(log) == Self.withWriter(Self.earlierFullLog))
        // The fold now also keeps the latest check-ins (a later field); an earlier log has none
        // and is written back without them.
        var folded = Self.fullLog
        for member in folded.state.members.keys { folded.state.members[member]?.recentCheckIns = [] }
        #expect(Self.text(folded) == Self.withWriter(Self.earlierFullLog))
        #expect(log.state == folded.state)
        #expect(log.events == Self.fullLog.events)
        let empty = try Self.decode(Self.earlierEmptyLog, member: Self.bea)
        #expect(Self.text(empty) == Self.withWriter(Self.earlierEmptyLog))
    }

    @Test func everyEventAndTheStateComeBack() throws {
        let log = Self.fullLog
        let back = try DeviceLog.decode(
            log.encoded(signer: nil), path: "log.json", member: Self.ana, device: Self.phone, backup: nil)
        #expect(back.events == log.events)
        #expect(back.state == log.state)
        #expect(back.writer == Release.writer)
        #expect(back.keptState.isEmpty && back.unknownRecords == nil)
        // The state in the head is the fold of the events.
        var folded = CircleState()
        for event in back.events { folded.apply(event, member: Self.ana, device: Self.phone) }
        #expect(folded == back.state)
    }

    /// `circle` as one device of `member` holds it: that member's state only, every stamp the
    /// device's.
    static func asOneDevice(_ circle: CircleState, member: String, device: String) -> CircleState {
        func own(_ stamp: Stamp) -> Stamp { Stamp(clock: stamp.clock, at: stamp.at, device: device, seq: stamp.seq) }
        func own<V>(_ value: Stamped<V>?) -> Stamped<V>? { value.map { Stamped($0.value, own($0.stamp)) } }
        var state = circle.members[member] ?? MemberState()
        state.name = own(state.name)
        state.interval = own(state.interval)
        state.reminder = own(state.reminder)
        state.code = own(state.code)
        state.preferences = own(state.preferences)
        state.lastCheckIn = state.lastCheckIn.map { MemberState.CheckIn(stamp: own($0.stamp), note: $0.note) }
        state.alerts = state.alerts.mapValues { alert in
            var mine = alert
            mine.start = alert.start.map(own)
            mine.end = alert.end.map(own)
            return mine
        }
        var result = CircleState()
        result.members = [member: state]
        result.relations = circle.relations.mapValues { Stamped($0.value, own($0.stamp)) }
        result.externals = circle.externals.mapValues { $0.mapValues { Stamped($0.value, own($0.stamp)) } }
        result.pings = circle.pings.mapValues { ping in
            var mine = ping
            mine.sent = ping.sent.map(own)
            mine.endStamp = ping.endStamp.map(own)
            return mine
        }
        result.deliveries = circle.deliveries.mapValues { DeliveryRecord(stamp: own($0.stamp), by: $0.by) }
        result.acknowledgements = circle.acknowledgements.mapValues { $0.mapValues(own) }
        return result
    }

    /// The same full state the cache tests use, through a log's JSON: every field comes back.
    @Test func everyFieldOfTheStateComesBackThroughTheLog() throws {
        for member in [CacheCodecTests.ana, CacheCodecTests.bea, CacheCodecTests.carl] {
            var log = DeviceLog(member: member, device: Self.phone)
            log.state = Self.asOneDevice(CacheCodecTests.fullCircle, member: member, device: Self.phone)
            let back = try DeviceLog.decode(
                log.encoded(signer: nil), path: "log.json", member: member, device: Self.phone, backup: nil)
            // What the log says of other members is read back and left out (see Attribution.swift).
            let attributed = log.state.attributed(to: member)
            #expect(back.state == attributed.state)
            #expect(back.foreign?.total == attributed.foreign?.total)
            #expect(back.foreign.map { [$0.member, $0.device] } ?? [member, Self.phone] == [member, Self.phone])
        }
    }

    /// One event of every registered type, each with its fields set.
    static var oneOfEach: [any EventBody] {
        let key = String(repeating: "ab", count: 32)
        let token = String(repeating: "0f", count: 16)
        let thread = "deadline|\(bea)|1772355600"
        return [
            CheckedIn(note: "ok"), NameSet(name: "Ana"), IntervalSet(interval: .hours(8)), ReminderSet(reminder: nil),
            CodeSet(code: "K7P-2QX"), RelationSet(member: bea, roles: Roles(responder: true, dependent: true)),
            ExternalSet(
                id: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d",
                contact: ExternalContact(name: "Sam", notify: [], email: [], phone: [])),
            PingSent(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e40", to: bea),
            PingEnded(id: "b0718293-a4b5-46c7-a8d9-fa0b1c2d3e40", from: ana, to: bea, end: .answered),
            AlertRaised(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", message: "help"),
            AlertEnded(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9"),
            AlertUpdated(id: "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", message: "still here"),
            Delivered(notification: "0123456789abcdef", channel: "mailto:ng@example.org"),
            HeartbeatsSet(heartbeats: Heartbeats(checkIn: ["https://hc-ping.com/x"], deliver: [])), DeliverRan(),
            PauseSet(pause: Pause(until: Timestamp(seconds: 1_772_400_000), note: "away")),
            TripSet(trip: Trip(deadline: Timestamp(seconds: 1_772_400_000), note: "ridge")),
            PauseLimitSet(limit: .days(10)), ScheduleSet(schedule: nil), GraceSet(grace: .minutes(30)),
            EscalationSet(delay: .hours(2)), RepeatSet(every: .minutes(30)),
            InboxSet(url: "https://ntfy.sh/ana-inbox-7f3k9q2m"), TokenIssued(hash: token),
            PhoneTapped(member: bea, token: token, at: Timestamp(seconds: 1_772_355_700)),
            Vouched(member: bea, deadline: Timestamp(seconds: 1_772_355_600), note: "saw her"),
            AckTokenIssued(hash: token, thread: thread, owner: bea, contact: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d"),
            ButtonsWithdrawn(of: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d"),
            TierSet(contact: "9e5f6071-8293-44a5-86b7-d8e9fa0b1c2d", tier: 2), Acknowledged(thread: thread),
            DetailsSet(details: ProfileDetails(phone: "+44 20 7946 0000", emergencyNote: "diabetic")),
            MailSet(mail: MailSettings(from: "ana@example.org", replyTo: nil)),
            DeviceEnrolled(device: phone, key: key), DeviceRevoked(device: phone, key: key, through: 3),
            RecoveryKeySet(key: key), KeyPinned(member: bea, fingerprint: String(repeating: "cd", count: 16)),
            PreferencesSet(preferences: FeedPreferences(category: .alerts, unreadOnly: false, channels: ["desktop:"])),
        ]
    }

    /// The registry is one list: every type in it is found by its own name, no two share one,
    /// and one event of each comes back through a log's JSON as it went in.
    @Test func theRegistryKnowsEveryTypeAndEachComesBack() throws {
        let names = EventTypes.all.map { $0.typeName }
        #expect(Set(names).count == names.count)
        for type in EventTypes.all {
            #expect(EventTypes.named(type.typeName).map { ObjectIdentifier($0) } == ObjectIdentifier(type))
        }
        #expect(EventTypes.named("vacationSet") == nil)
        #expect(Set(Self.oneOfEach.map { type(of: $0).typeName }) == Set(names), "a sample of every type")
        var log = DeviceLog(member: Self.ana, device: Self.phone)
        for (i, body) in Self.oneOfEach.enumerated() {
            log.append(body, at: Timestamp(seconds: 1_772_355_600 + Int64(i) * 60))
        }
        let back = try DeviceLog.decode(
            log.encoded(signer: nil), path: "log.json", member: Self.ana, device: Self.phone, backup: nil)
        #expect(back.events == log.events)
    }

    /// A log's taps for other members are bounded: a hostile log cannot make a circle of
    /// thousands of members out of taps.
    @Test func tapsForOtherMembersAreBounded() throws {
        var log = DeviceLog(member: Self.ana, device: Self.phone)
        for n in 0..<200 {
            let member = "00000\(String(100 + n))-0000-4000-8000-000000000000"
            PhoneTapped(
                member: member, token: String(repeating: "0f", count: 16), at: Timestamp(seconds: 1_772_355_600)
            )
            .fold(
                into: &log.state, member: Self.ana,
                stamp: Stamp(at: Timestamp(seconds: 1_772_355_600), device: Self.phone, seq: 1))
        }
        let back = try DeviceLog.decode(
            log.encoded(signer: nil), path: "log.json", member: Self.ana, device: Self.phone, backup: nil)
        #expect(back.state.members.count <= PhoneCheckIns.othersLimit + 1, "\(back.state.members.count)")
        #expect(back.state.members.count > 1)
    }

    /// Every `EventBody` the sources declare (directly, or as a `MemberSetting`) is registered
    /// (a forgotten one would be read as "from a newer version" and skipped).
    @Test func everyDeclaredEventTypeIsRegistered() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LifeSignalCore")
        let registered = Set(EventTypes.all.map { String(describing: $0) })
        var declared: [String] = []
        for file in FileManager.default.enumerator(atPath: sources.path)?.compactMap({ $0 as? String }) ?? []
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n")
            where [": EventBody {", ": MemberSetting {"].contains(where: line.contains) && line.contains("struct ") {
                let name = line.split(separator: "struct ").last?.split(separator: ":").first.map(String.init) ?? ""
                declared.append(name)
            }
        }
        #expect(declared.count > 30, "the sources were found: \(declared)")
        #expect(Set(declared).subtracting(registered) == ["UnknownEvent"], "registered: \(registered.sorted())")
    }
}
