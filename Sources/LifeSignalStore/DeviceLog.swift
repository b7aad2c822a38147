import LifeSignalCore

/// One device's log in the circle: `members/<member>/<device>/log.json`.
///
/// Only that device writes it. It holds the folded state of *all* the device's events (so a
/// reader never has to replay history) and the most recent events; older events move to
/// immutable segments in `archive/` (see Archive.swift), so the file — and the cost of every
/// invocation — stays small however long lifesignal is used. The shape of its events and
/// state comes from the record schema (LifeSignalCore's Schema.swift); this file owns the
/// file around them and its consistency checks.
///
/// A log may hold records of a newer lifesignal: events of types this version does not know
/// and fields of `state` it does not know. They are kept exactly as read and written back
/// when this device writes, and reported (`unknownRecords`), never taken as damage.
public struct DeviceLog: Equatable, Sendable {
    public static let schemaVersion: Int64 = 1
    /// The tail is archived once it holds more than this many events…
    public static let tailLimit = 200
    /// …keeping this many of the newest in the file.
    public static let tailKeep = 50

    public var member: String
    public var device: String
    /// The lifesignal that wrote the file (`lifesignal 0.1.0`); nil in files of versions that
    /// did not say. While the log holds records this version does not know, it keeps naming
    /// the version that wrote those, so that the warning can say what to upgrade to.
    public var writer: String?
    /// The sequence number of this device's newest event (0 before the first).
    public var lastSeq: Int64 = 0
    /// Events up to this sequence number live in `archive/`.
    public var archivedThrough: Int64 = 0
    /// The highest Lamport clock this device has given an event.
    public var clock: Int64 = 0
    /// The fold of every event of this device, archived or not.
    public var state = CircleState()
    /// Fields of `state` this version does not know, as read.
    public var keptState: [RawJSONField] = []
    /// What the file's state said about other members than its own: left out of `state` (a log
    /// is believed only about the member whose folder it is in) and reported.
    public var foreign: ForeignRecords?

    /// This device's member's profile, as far as this device's events tell.
    public var memberState: MemberState { state.members[member] ?? MemberState() }
    /// Events after `archivedThrough`, oldest first.
    public var events: [Event] = []

    public init(member: String, device: String) {
        self.member = member
        self.device = device
    }

    public mutating func append(_ body: any EventBody, at time: Timestamp, clock: Int64? = nil) {
        lastSeq += 1
        // Bounded by what every reader accepts: a peer's clock at the limit must not make this
        // device write a log its own reader refuses (later events then share the clock and are
        // ordered by time, device and sequence).
        self.clock = min(max(self.clock + 1, clock ?? 0), Limits.counter)
        let event = Event(seq: lastSeq, at: time, clock: self.clock, body: body)
        events.append(event)
        state.apply(event, member: member, device: device)
    }

    /// Events in the tail of types this version does not know.
    public var unknownEventCount: Int { events.reduce(0) { $0 + (type(of: $1.body).isKnown ? 0 : 1) } }

    /// What this log holds that this version does not know, or nil when nothing.
    public var unknownRecords: UnknownRecords? {
        let count = unknownEventCount
        guard count > 0 || !keptState.isEmpty else { return nil }
        return UnknownRecords(
            member: member, device: device, writer: writer, events: count, fields: keptState.map { $0.key })
    }

    /// The file's text: one field per line, the state on one line, one event per line — small
    /// to write and read, yet a damaged spot still has a line number a person can go to.
    func encoded() -> [UInt8] {
        let holdsUnknown = !keptState.isEmpty || unknownEventCount > 0
        let fields: [(String, JSON)] = [
            ("schemaVersion", .int(Self.schemaVersion)),
            ("writer", .optional(holdsUnknown ? writer : Release.writer)),
            ("member", .string(member)),
            ("device", .string(device)),
            ("lastSeq", .int(lastSeq)),
            ("archivedThrough", .int(archivedThrough)),
            ("clock", .int(clock)),
        ]
        // Everything is appended to one buffer: a check-in rewrites up to 200 events.
        var out = JSONRecordWriter(capacity: 1024 + events.count * 160)
        out.bytes.append(contentsOf: "{\n".utf8)
        for (key, value) in fields where value != .null {
            JSON.string(key).serialize(into: &out.bytes, pretty: false)
            out.bytes.append(contentsOf: ": ".utf8)
            value.serialize(into: &out.bytes, pretty: false)
            out.bytes.append(contentsOf: ",\n".utf8)
        }
        out.bytes.append(contentsOf: "\"state\": ".utf8)
        out.state(state, member: member, kept: keptState)
        out.bytes.append(contentsOf: ",\n\"events\": [".utf8)
        for (i, event) in events.enumerated() {
            out.bytes.append(contentsOf: (i == 0 ? "\n  " : ",\n  ").utf8)
            out.event(event)
        }
        out.bytes.append(contentsOf: (events.isEmpty ? "]\n}\n" : "\n]\n}\n").utf8)
        return out.bytes
    }

    /// Parses and checks a log file read from `path`, which must belong to `member`/`device`.
    /// With `member` and `device` nil (a private copy, which lies in no member's folder), the
    /// file names them itself.
    static func decode(
        _ bytes: [UInt8], path: String, member: String?, device: String?, backup: String?, events: Bool = true
    ) throws(StoreError) -> DeviceLog {
        let root = try Files.parse(bytes, path: path, backup: backup, supported: schemaVersion)
        do throws(JSONShapeError) {
            let o = try JSONCursor(root).object()
            var log = try header(o, member: member, device: device)
            let state = try JSONRecordReader.state(o.required("state"), member: log.member, device: log.device)
            let attributed = state.state.attributed(to: log.member)
            log.state = attributed.state
            if var foreign = attributed.foreign {
                foreign.member = log.member
                foreign.device = log.device
                log.foreign = foreign
            }
            if !state.unknownKeys.isEmpty {
                log.keptState = Files.rawFields(state.unknownKeys, under: "state", in: bytes, parsed: o)
            }
            if events {
                log.events = try Files.events(o.required("events"), in: bytes)
                try log.checkSequence()
            }
            return log
        } catch {
            throw .damaged(path: path, problem: "at \(error.path): \(error.message)", backup: backup)
        }
    }

    /// The log's header and state, without decoding its tail of events: what a reader of the
    /// circle's state needs (the state is the fold of every event), at a cost that does not
    /// grow with the tail. `events` stays empty.
    ///
    /// It takes the text before the top-level `"events"` line that `encoded()` writes, and
    /// checks that the file still ends as written (a cut-off copy is read in full, and so
    /// reported). Anything else — another layout, a log written by a newer lifesignal (whose
    /// tail may hold records to warn about), a prefix that does not parse — is read in full,
    /// so a damaged file is reported exactly as before.
    static func decodeState(_ bytes: [UInt8], path: String, member: String, device: String, backup: String?)
        throws(StoreError) -> DeviceLog
    {
        guard let cut = stateEnd(in: bytes),
            let log = try? decode(
                Array(bytes[..<cut]) + Array("\n}\n".utf8), path: path, member: member,
                device: device, backup: backup, events: false),
            Release.isNotNewer(log.writer)
        else {
            return try decode(bytes, path: path, member: member, device: device, backup: backup)
        }
        return log
    }

    /// Where the text before `,\n"events": [` ends, when the file also ends as `encoded()`
    /// ends it. A newline cannot occur inside a JSON string, so the marker at a line's start is
    /// the top-level key.
    private static func stateEnd(in bytes: [UInt8]) -> Int? {
        let ending = Array("]\n}\n".utf8)
        guard bytes.count > 64, bytes.suffix(ending.count).elementsEqual(ending) else { return nil }
        let marker = Array(",\n\"events\": [".utf8)
        var i = 0
        let last = bytes.count - marker.count
        while i <= last {
            if bytes[i] == UInt8(ascii: ","), bytes[i + 1] == UInt8(ascii: "\n"),
                bytes[(i + 2)..<(i + marker.count)].elementsEqual(marker[2...])
            {
                return i
            }
            i += 1
        }
        return nil
    }

    /// The fields before the state, checked against the folder the file lies in.
    private static func header(_ o: JSONObjectCursor, member: String?, device: String?) throws(JSONShapeError)
        -> DeviceLog
    {
        try Files.checkVersion(o)
        let memberCursor = try o.required("member")
        let deviceCursor = try o.required("device")
        var log = DeviceLog(member: try memberCursor.string(), device: try deviceCursor.string())
        guard Identifier.isValid(log.member) else { throw memberCursor.fail("is not a lifesignal id") }
        guard Identifier.isValid(log.device) else { throw deviceCursor.fail("is not a lifesignal id") }
        guard log.member == member ?? log.member, log.device == device ?? log.device else {
            throw JSONShapeError(
                path: "member",
                message:
                    "names member \(log.member) device \(log.device) but the file lies in the folder of member \(member ?? "") device \(device ?? "")"
            )
        }
        log.writer = try o.optional("writer")?.string()
        log.lastSeq = try o.required("lastSeq").int()
        log.archivedThrough = try o.required("archivedThrough").int()
        let clockCursor = try o.required("clock")
        log.clock = try clockCursor.int()
        // Every write counts on from the highest clock in the circle: one log's clock
        // at the top of Int64 must not stop every device from checking in.
        guard (0...Limits.counter).contains(log.clock) else {
            throw clockCursor.fail("must be from 0 to \(Limits.counter)")
        }
        return log
    }

    /// The events follow `archivedThrough` in order, within the log's clock, up to `lastSeq`.
    private func checkSequence() throws(JSONShapeError) {
        var previous = archivedThrough
        for (i, event) in events.enumerated() {
            guard event.seq > previous else {
                throw JSONShapeError(path: "events[\(i)].seq", message: "\(event.seq) does not follow \(previous)")
            }
            previous = event.seq
            guard event.clock <= clock else {
                throw JSONShapeError(
                    path: "events[\(i)].clock", message: "\(event.clock) is above the log's clock \(clock)")
            }
        }
        guard (0...Limits.counter).contains(archivedThrough) else {
            throw JSONShapeError(path: "archivedThrough", message: "must be from 0 to \(Limits.counter)")
        }
        guard lastSeq == (events.last?.seq ?? archivedThrough) else {
            throw JSONShapeError(path: "lastSeq", message: "\(lastSeq) does not match the events the file holds")
        }
    }
}
