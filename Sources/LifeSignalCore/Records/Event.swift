/// One fact recorded by one device: "checked in at T", "interval set to 8h at T".
///
/// Events are never edited. A device numbers its own events 1, 2, 3… (`seq`); the pair
/// (device, seq) identifies an event across the whole circle.
public struct Event: Equatable, Sendable {
    public var seq: Int64
    public var at: Timestamp
    /// A Lamport clock: greater than the clock of every event the writing device had seen.
    /// It orders changes causally, whatever the machines' wall clocks say.
    public var clock: Int64
    public var body: any EventBody

    public init(seq: Int64, at: Timestamp, clock: Int64 = 0, body: any EventBody) {
        self.seq = seq
        self.at = at
        self.clock = clock
        self.body = body
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs.seq == rhs.seq && lhs.at == rhs.at && lhs.clock == rhs.clock && lhs.body.isEqual(to: rhs.body)
    }

    /// The stamp this event gives what it sets, written by `device`.
    public func stamp(device: String) -> Stamp { Stamp(clock: clock, at: at, device: device, seq: seq) }
}

/// What an event says. Each kind of fact is one type (see Events.swift) that declares, in one
/// place, the name stored in its `type` field, its fields (`Schema.code`, from which the log's
/// JSON is derived) and its fold rule. A new kind of event is that type, one line in
/// `EventTypes.named`, and its rendering in the CLI.
public protocol EventBody: Schema, Equatable, Sendable {
    /// The name stored in the event's `type` field. Never changes once released: older and
    /// newer lifesignals read it.
    static var typeName: String { get }
    /// The fold rule: what this fact, recorded by `member` with `stamp`, changes in the state.
    /// Applying events or merging states in any order must give the same result, so every
    /// setting keeps the stamp that set it and the later stamp wins.
    func fold(into circle: inout CircleState, member: String, stamp: Stamp)

    // Derived from the description; event types do not implement these. They are requirements
    // so that each type's implementation is specialised for the JSON coders.
    /// Writes the whole event: its envelope, `type` and fields.
    func writeJSON(seq: Int64, at: Timestamp, clock: Int64, to writer: inout JSONRecordWriter)
    /// Reads the fields of an event of this type (the envelope is read already).
    static func readJSON(from reader: inout JSONRecordReader) throws(JSONShapeError) -> Self
    /// False only for `UnknownEvent`.
    static var isKnown: Bool { get }
}

extension EventBody {
    public func writeJSON(seq: Int64, at: Timestamp, clock: Int64, to writer: inout JSONRecordWriter) {
        writer.envelope(seq: seq, at: at, clock: clock, type: Self.typeName)
        var fields = self
        writing { () throws(CannotFail) in try fields.code(&writer) }
        writer.close()
    }

    public static func readJSON(from reader: inout JSONRecordReader) throws(JSONShapeError) -> Self {
        var body = Self()
        try body.code(&reader)
        return body
    }

    public static var isKnown: Bool { true }

    func isEqual(to other: any EventBody) -> Bool { (other as? Self) == self }
}

/// An event of a type this version does not know, written by a newer lifesignal. It is kept
/// exactly as it was read (`raw`: the event's JSON text) wherever its log goes — the tail, an
/// archive segment — so that nothing is lost when this device writes again; the fold skips it.
public struct UnknownEvent: EventBody {
    /// Not a stored name: this type stands for every type this version does not know.
    public static var typeName: String { "" }
    public static var isKnown: Bool { false }
    /// The name in the event's `type` field.
    public var type: String
    /// The event's JSON text, as read.
    public var raw: [UInt8]

    public init() {
        type = ""
        raw = []
    }

    public init(type: String, raw: [UInt8]) {
        self.type = type
        self.raw = raw
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {}

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {}

    public func writeJSON(seq: Int64, at: Timestamp, clock: Int64, to writer: inout JSONRecordWriter) {
        writer.raw(raw)
    }
}

/// Every event type this version knows: the one registry. A new type is one line here; a
/// type left out would be read as "from a newer version" and skipped, which the tests catch
/// (every `EventBody` declared in the sources is in this list, by its own name, once).
public enum EventTypes {
    public static let all: [any EventBody.Type] = [
        CheckedIn.self, NameSet.self, IntervalSet.self, ReminderSet.self, CodeSet.self, RelationSet.self,
        ExternalSet.self, PingSent.self, PingEnded.self, AlertRaised.self, AlertEnded.self, AlertUpdated.self,
        Delivered.self, HeartbeatsSet.self, DeliverRan.self, PauseSet.self, TripSet.self, PauseLimitSet.self,
        ScheduleSet.self, GraceSet.self, EscalationSet.self, RepeatSet.self, InboxSet.self, TokenIssued.self,
        PhoneTapped.self, Vouched.self, AckTokenIssued.self, ButtonsWithdrawn.self, TierSet.self, Acknowledged.self,
        DetailsSet.self,
        MailSet.self, PreferencesSet.self, DeviceEnrolled.self, DeviceRevoked.self, RecoveryKeySet.self,
        KeyPinned.self,
    ]

    private static let byName: [String: any EventBody.Type] = Dictionary(
        all.map { ($0.typeName, $0) }, uniquingKeysWith: { first, _ in first })

    /// The type whose `type` field reads `name`, or nil for one of a newer version.
    public static func named(_ name: String) -> (any EventBody.Type)? { byName[name] }
}

/// Orders facts about the same thing across devices. A change made after seeing another
/// (a removal after the add it removes) has a larger Lamport clock and wins even if both
/// happened in the same second or the machines' clocks disagree; changes made without seeing
/// each other are ordered by time, then device id, then sequence number. Every device
/// computes the same order, so merging the circle's logs gives the same state in any order.
public struct Stamp: Comparable, Hashable, Sendable {
    public var clock: Int64
    public var at: Timestamp
    public var device: String
    public var seq: Int64

    public init(clock: Int64 = 0, at: Timestamp, device: String, seq: Int64) {
        self.clock = clock
        self.at = at
        self.device = device
        self.seq = seq
    }

    public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.clock, lhs.at, lhs.device, lhs.seq) < (rhs.clock, rhs.at, rhs.device, rhs.seq)
    }

    /// Time order, for what people read as a timeline (check-ins, ping lists): by time first.
    public static func earlierInTime(_ lhs: Stamp, _ rhs: Stamp) -> Bool {
        (lhs.at, lhs.clock, lhs.device, lhs.seq) < (rhs.at, rhs.clock, rhs.device, rhs.seq)
    }

    /// A placeholder, for a reader to overwrite.
    static var unset: Stamp { Stamp(at: Timestamp(seconds: 0), device: "", seq: 0) }
}

/// A setting together with the stamp of the event that set it (last writer wins).
///
/// `Value` is not required to be Equatable here but in the extension below: a generic
/// requirement makes the runtime look up the conformance every time the type is first used
/// from another module, which measurably slowed start-up.
///
/// The value and its stamp are kept in a box shared until one copy changes (copy on write): a
/// member's state holds about twenty settings, and with each inline it took about 2 KB, so a
/// circle of a thousand members took megabytes to hold and every copy moved all of it.
public struct Stamped<Value: Sendable>: Sendable {
    private var box: Box

    public var value: Value {
        get { box.value }
        _modify {
            unique()
            yield &box.value
        }
    }

    public var stamp: Stamp {
        get { box.stamp }
        _modify {
            unique()
            yield &box.stamp
        }
    }

    public init(_ value: Value, _ stamp: Stamp) {
        box = Box(value, stamp)
    }

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value, box.stamp) }
    }

    /// Changed only through a `Stamped` that holds the only reference to it (`unique`), so
    /// sharing it between threads is as safe as sharing the value.
    private final class Box: @unchecked Sendable {
        var value: Value
        var stamp: Stamp

        init(_ value: Value, _ stamp: Stamp) {
            self.value = value
            self.stamp = stamp
        }
    }

    /// The later of two settings; nil loses to anything.
    static func latest(_ a: Stamped?, _ b: Stamped?) -> Stamped? {
        guard let a else { return b }
        guard let b else { return a }
        return b.stamp > a.stamp ? b : a
    }
}

extension Stamped: Equatable where Value: Equatable {
    public static func == (a: Stamped, b: Stamped) -> Bool {
        a.box === b.box || (a.stamp == b.stamp && a.value == b.value)
    }
}

extension Optional {
    /// Keeps the later of this setting and `candidate` (a fold rule's usual step).
    mutating func keepLatest<V>(_ candidate: Stamped<V>) where Wrapped == Stamped<V> {
        self = Stamped.latest(self, candidate)
    }
}
