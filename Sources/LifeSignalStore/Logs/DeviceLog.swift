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
    /// The device's public key (64 hex digits) when the file is signed; nil in a file of an
    /// older lifesignal, which did not sign.
    public var key: String?
    /// Whether the file's signature was checked and held, as read (nil: not checked; this
    /// device's own private copy and logs no decision rests on are not).
    public var signature: DeviceVoice.Signature?
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
    /// The hash of the tail its head names, as read with the events (see `encoded`).
    var tail: String?
    /// Whether the events were decoded (else only the header and state were).
    var hasEvents = true
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
    ///
    /// Signed by `signer` (see `Signing`): the signature covers the head — every field before
    /// `"events"`, among them the device's public key and `tail`, the SHA-512 of the text from
    /// `,` `"events"` to the end — so a reader of the state alone verifies it without the tail.
    func encoded(signer: SigningKey?) -> [UInt8] {
        // The tail first: its hash goes in the head. Everything is appended to one buffer: a
        // check-in rewrites up to 200 events.
        var tail = JSONRecordWriter(capacity: 64 + events.count * 160)
        tail.bytes.append(contentsOf: ",\n\"events\": [".utf8)
        for event in events {
            tail.bytes.append(contentsOf: (tail.bytes.last == UInt8(ascii: "[") ? "\n  " : ",\n  ").utf8)
            tail.event(event)
        }
        tail.bytes.append(contentsOf: (events.isEmpty ? "]\n}\n" : "\n]\n}\n").utf8)
        let holdsUnknown = !keptState.isEmpty || unknownEventCount > 0
        let fields: [(String, JSON)] = [
            ("schemaVersion", .int(Self.schemaVersion)),
            ("writer", .optional(holdsUnknown ? writer : Release.writer)),
            ("member", .string(member)),
            ("device", .string(device)),
            ("key", .optional(signer?.publicKeyText)),
            ("lastSeq", .int(lastSeq)),
            ("archivedThrough", .int(archivedThrough)),
            ("clock", .int(clock)),
            ("tail", .optional(signer.map { _ in Signing.hash(tail.bytes[...]) })),
        ]
        var out = JSONRecordWriter(capacity: 1024 + tail.bytes.count)
        out.bytes.append(contentsOf: "{\n".utf8)
        for (key, value) in fields where value != .null {
            JSON.string(key).serialize(into: &out.bytes, pretty: false)
            out.bytes.append(contentsOf: ": ".utf8)
            value.serialize(into: &out.bytes, pretty: false)
            out.bytes.append(contentsOf: ",\n".utf8)
        }
        out.bytes.append(contentsOf: "\"state\": ".utf8)
        out.state(state, member: member, kept: keptState)
        let head = out.bytes.count
        out.bytes += tail.bytes
        guard let signer else { return out.bytes }
        return Signing.sign(out.bytes, domain: .log, key: signer, signedEnd: head)
    }
}
