import Testing

@testable import LifeSignalCore

/// The record schema's JSON coders on their own: each event type is written and read back,
/// a type this version does not know is kept as its text and skipped by the fold, and a field
/// of the wrong shape is named by its JSON path.
@Suite struct SchemaTests {
    static let ana = "0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f"
    static let bea = "1c6d3b62-8d4f-4e9f-a021-2b3c4d5e6f70"
    static let id = "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9"
    static let t0 = Timestamp(seconds: 1_772_355_600)

    static let bodies: [any EventBody] = [
        CheckedIn(note: nil), CheckedIn(note: "é \"x\"\n"), NameSet(name: "Ana"), IntervalSet(interval: .hours(8)),
        ReminderSet(reminder: nil), ReminderSet(reminder: .minutes(30)), CodeSet(code: "K7P-2QX"),
        RelationSet(member: bea, roles: nil), RelationSet(member: bea, roles: Roles(responder: true, dependent: true)),
        ExternalSet(id: id, contact: nil),
        ExternalSet(id: id, contact: ExternalContact(name: "Sam", notify: ["desktop:"], email: ["s@x"], phone: ["1"])),
        PingSent(id: id, to: bea), PingEnded(id: id, from: ana, to: bea, end: .roleRemoved),
        AlertRaised(id: id, message: nil), AlertRaised(id: id, message: "help"), AlertEnded(id: id),
        PreferencesSet(preferences: FeedPreferences()),
        PreferencesSet(preferences: FeedPreferences(category: .alerts, unreadOnly: true, channels: ["desktop:"])),
    ]

    static func written(_ event: Event) -> [UInt8] {
        var writer = JSONRecordWriter(capacity: 256)
        writer.event(event)
        return writer.bytes
    }

    static func read(_ text: [UInt8]) throws -> Event {
        try JSONRecordReader.event(JSONCursor(JSONParser.parse(text))) { text }
    }

    @Test(arguments: 0..<bodies.count)
    func eachEventComesBack(index: Int) throws {
        let event = Event(seq: 7, at: Self.t0, clock: 9, body: Self.bodies[index])
        let text = Self.written(event)
        #expect(try Self.read(text) == event, "\(String(decoding: text, as: UTF8.self))")
        // The same text as the JSON tree of the same fields gives.
        #expect(try JSONParser.parse(text).serializedBytes(pretty: false) == text)
    }

    @Test func anUnknownTypeIsKeptAsItsTextAndSkippedByTheFold() throws {
        let text = Array(
            #"{"seq": 3, "at": "2026-03-01T09:00:00Z", "clock": 4, "type": "vacationSet", "x": 1.50}"#.utf8)
        let event = try Self.read(text)
        #expect(event.seq == 3 && event.clock == 4 && event.at == Self.t0)
        #expect((event.body as? UnknownEvent) == UnknownEvent(type: "vacationSet", raw: text))
        #expect(!type(of: event.body).isKnown)
        #expect(Self.written(event) == text)
        var circle = CircleState()
        circle.apply(event, member: Self.ana, device: Self.bea)
        #expect(circle == CircleState())
        var member = MemberState()
        member.apply(event, device: Self.bea)
        #expect(member == MemberState())
    }

    @Test func spansFindTheTextOfEachPart() {
        let text = Array(#"{"a": [1, {"b": 2}], "state" : {"x": "y" , "z":[ ]}, "events": [ {"k": 1.50} ,"s"]}"#.utf8)
        func parts(_ key: String) -> [String] {
            (JSONParser.spans(under: key, in: text) ?? []).map {
                ($0.key.map { $0 + "=" } ?? "") + String(decoding: text[$0.span], as: UTF8.self)
            }
        }
        #expect(parts("events") == [#"{"k": 1.50}"#, #""s""#])
        #expect(parts("state") == [#"x="y""#, "z=[ ]"])
        #expect(parts("a") == ["1", #"{"b": 2}"#])
        #expect(JSONParser.spans(under: "missing", in: text) == nil)
    }

    @Test(arguments: [
        (
            #"{"checkIns": 0, "relations": [], "externals": [], "pings": [], "interval": {"seconds": 0, "at": "2026-03-01T09:00:00Z", "clock": 1, "seq": 1}}"#,
            "interval.seconds"
        ),
        (#"{"checkIns": -1, "relations": [], "externals": [], "pings": []}"#, "checkIns"),
        (
            #"{"checkIns": 0, "relations": [{"low": "x", "high": "y", "roles": null, "at": "2026-03-01T09:00:00Z", "clock": 1, "seq": 1}], "externals": [], "pings": []}"#,
            "relations[0].low"
        ),
        (
            #"{"checkIns": 0, "relations": [], "externals": [], "pings": [{"id": "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", "from": "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", "to": "5a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9", "sent": null, "end": {"kind": "lost", "at": "2026-03-01T09:00:00Z", "clock": 1, "seq": 1}}]}"#,
            "pings[0].end.kind"
        ),
        (#"{"checkIns": 0, "relations": [], "externals": []}"#, "pings"),
    ])
    func aFieldOfTheWrongShapeIsNamedByItsPath(text: String, path: String) throws {
        let cursor = JSONCursor(try JSONParser.parse(text), path: "state")
        #expect(throws: JSONShapeError.self) {
            try JSONRecordReader.state(cursor, member: Self.ana, device: Self.bea)
        }
        do {
            _ = try JSONRecordReader.state(cursor, member: Self.ana, device: Self.bea)
        } catch {
            #expect(error.path == "state." + path, "\(error.message)")
        }
    }
}
