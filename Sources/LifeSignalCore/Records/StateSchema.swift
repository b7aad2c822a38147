/// The folded state, described once (see `Schema`): a log's `state` and the private cache
/// are both written and read from these descriptions. The order of the calls is the order of
/// the fields in the files.

extension Roles: Schema {
    public init() { self.init(responder: false, dependent: false) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.bool("responder", &responder)
        try c.bool("dependent", &dependent)
    }
}

extension ExternalContact: Schema {
    public init() { self.init(name: "", notify: [], email: [], phone: []) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("name", &name)
        try c.strings("notify", &notify)
        try c.strings("email", &email)
        try c.strings("phone", &phone)
    }
}

extension FeedPreferences: Schema {
    public init() { self.init(category: nil, unreadOnly: false, channels: []) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalRawValue("category", &category, .null, "category")
        try c.bool("unreadOnly", &unreadOnly)
        try c.strings("channels", &channels)
    }
}

extension Heartbeats: Schema {
    public init() { self.init(checkIn: [], deliver: []) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.strings("checkin", &checkIn)
        try c.strings("deliver", &deliver)
    }
}

extension MemberState {
    /// One member's state. A log holds its own member's; the cache every member's.
    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.stamped("name", &name, seed: "") { c, v throws(C.Failure) in try c.string("value", &v) }
        try c.stamped("interval", &interval, seed: Rules.defaultInterval) { c, v throws(C.Failure) in
            try c.span("seconds", &v)
        }
        try c.stamped("reminder", &reminder, seed: nil) { c, v throws(C.Failure) in
            try c.optionalSpan("seconds", &v, .null)
        }
        try c.stamped("code", &code, seed: "") { c, v throws(C.Failure) in try c.string("value", &v) }
        try c.record("lastCheckIn", &lastCheckIn, .omitted, seed: CheckIn(stamp: .unset, note: nil)) {
            c, v throws(C.Failure) in
            try c.stamp(&v.stamp)
            try c.optionalString("note", &v.note, .omitted)
        }
        try c.entries("recentCheckIns", &recentCheckIns, as: CheckInEntry.self, omitEmpty: true)
        try c.entries("alerts", &alerts, as: AlertEntry.self, omitEmpty: true)
        try c.stamped("preferences", &preferences, seed: FeedPreferences()) { c, v throws(C.Failure) in
            try c.record("value", &v)
        }
        try c.int("checkIns", &checkInCount, in: 0...Limits.counter)
        try c.stamped("heartbeats", &heartbeats, seed: Heartbeats()) { c, v throws(C.Failure) in
            try c.record("value", &v)
        }
        try c.record("deliverRun", &deliverRun, .omitted, seed: Stamp.unset) { c, v throws(C.Failure) in
            try c.stamp(&v)
        }
        try c.stamped("pause", &pause, seed: Pause()) { c, v throws(C.Failure) in try c.record("value", &v) }
        try c.stamped("trip", &trip, seed: Trip()) { c, v throws(C.Failure) in try c.record("value", &v) }
        try c.stamped("pauseLimit", &pauseLimit, seed: Pause.longest) { c, v throws(C.Failure) in
            try c.span("seconds", &v)
        }
        try c.stamped("schedule", &schedule, seed: nil) { c, v throws(C.Failure) in try c.record("value", &v, .null) }
        try c.stamped("grace", &grace, seed: nil) { c, v throws(C.Failure) in try c.optionalSpan("seconds", &v, .null) }
        try c.stamped("escalation", &escalation, seed: Escalation.defaultDelay) { c, v throws(C.Failure) in
            try c.span("seconds", &v)
        }
        try c.entries("tiers", &tiers, as: TierEntry.self, omitEmpty: true)
        try c.stamped("repeat", &repeatEvery, seed: nil) { c, v throws(C.Failure) in
            try c.optionalSpan("seconds", &v, .null)
        }
        try c.stamped("details", &details, seed: ProfileDetails()) { c, v throws(C.Failure) in try c.record("value", &v)
        }
        try c.stamped("mail", &mail, seed: MailSettings()) { c, v throws(C.Failure) in try c.record("value", &v) }
        try c.entries("devices", &devices, as: DeviceEntryRecord.self, omitEmpty: true)
        try c.stamped("recovery", &recovery, seed: "") { c, v throws(C.Failure) in
            var key: String? = v
            try c.publicKey("key", &key)
            v = key ?? ""
        }
        try c.entries("pins", &pins, as: PinEntry.self, omitEmpty: true)
        try c.stamped("inbox", &inbox, seed: nil) { c, v throws(C.Failure) in try c.optionalString("url", &v, .null) }
        try c.entries("tokens", &tokens, as: TokenEntry.self, omitEmpty: true)
        try c.entries("phoneTaps", &phoneTaps, as: PhoneTapEntry.self, omitEmpty: true)
        try c.entries("ackTokens", &ackTokens, as: AckTokenEntry.self, omitEmpty: true)
        try c.entries("withdrawn", &withdrawn, as: WithdrawnEntry.self, omitEmpty: true)
    }
}

extension CircleState {
    /// The facts between members: relations, external contacts, pings. The cache keeps each
    /// member's `sides` too; a log never carries them, since a reader derives them from its own
    /// relations (see `attributed(to:)`).
    mutating func codeFacts<C: FieldCoder>(_ c: inout C, sides withSides: Bool = true) throws(C.Failure) {
        try c.entries("relations", &relations, as: RolesEntry<Pair>.self, omitEmpty: false)
        try c.entries("externals", &externals, as: ExternalEntry.self, omitEmpty: false)
        try c.entries("pings", &pings, as: PingEntry.self, omitEmpty: false)
        try c.entries("deliveries", &deliveries, as: DeliveryEntry.self, omitEmpty: true)
        try c.entries("acknowledgements", &acknowledgements, as: AcknowledgementEntry.self, omitEmpty: true)
        try c.entries("vouches", &vouches, as: VouchEntry.self, omitEmpty: true)
        if withSides { try c.entries("sides", &sides, as: RolesEntry<Side>.self, omitEmpty: true) }
    }

    /// One device's fold — `member`'s state and the facts, in one record: a log's `state`.
    mutating func code<C: FieldCoder>(_ c: inout C, member: String) throws(C.Failure) {
        var state = members[member] ?? MemberState()
        try state.code(&c)
        if C.reads { members[member] = state }
        try codeFacts(&c, sides: false)
        // The one thing a log may hold about another member: taps of their "I'm OK" button
        // that this device read from their inbox (see PhoneCheckIns).
        var taps = C.reads ? [:] : members.filter { $0.key != member && !$0.value.phoneTaps.isEmpty }
        try c.entries("tapsForOthers", &taps, as: OthersTapEntry.self, omitEmpty: true)
        if C.reads {
            for (other, found) in taps where other != member {
                for tap in found.phoneTaps.values { members[other, default: MemberState()].remember(tap: tap) }
            }
        }
    }
}

extension FieldCoder {
    /// A record holding only a stamp, null when there is none.
    mutating func stampRecord(_ key: String, _ value: inout Stamp?) throws(Failure) {
        try record(key, &value, .null, seed: Stamp.unset) { c, s throws(Failure) in try c.stamp(&s) }
    }
}

// MARK: - Entries of the state's collections

struct MemberEntry: KeyedEntry {
    var key = ""
    var value = MemberState()

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &key)
        try value.code(&c)
    }
}

/// One of the recent check-ins, newest first.
struct CheckInEntry: SchemaEntry {
    var value = MemberState.CheckIn(stamp: .unset, note: nil)

    init() {}
    init(_ value: MemberState.CheckIn) { self.value = value }

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.stamp(&value.stamp)
        try c.optionalString("note", &value.note, .omitted)
    }

    static func entries(of collection: [MemberState.CheckIn]) -> [CheckInEntry] { collection.map(CheckInEntry.init) }
    static func insert(_ entry: CheckInEntry, into collection: inout [MemberState.CheckIn]) {
        // Kept in order and bounded whatever order (or length) a file gives them in.
        var state = MemberState()
        state.recentCheckIns = collection
        state.remember(entry.value)
        collection = state.recentCheckIns
    }
    static func reserve(_ count: Int, in collection: inout [MemberState.CheckIn]) {}
    func precedes(_ other: CheckInEntry) -> Bool { Stamp.earlierInTime(other.value.stamp, value.stamp) }
}

struct AlertEntry: KeyedEntry {
    var value = AlertRecord(id: "")
    var key: String { value.id }

    init() {}
    init(key: String, value: AlertRecord) { self.value = value }

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &value.id)
        try c.optionalString("message", &value.message, .null)
        try c.stampRecord("start", &value.start)
        try c.stampRecord("end", &value.end)
        try c.stamped("update", &value.update, seed: nil) { c, v throws(C.Failure) in
            try c.optionalString("message", &v, .null)
        }
    }
}

/// Roles as set at a stamp, under a key of two members: a relation (`Pair`), or one member's
/// own word on it (`Side`).
struct RolesEntry<Key: RolesKey>: KeyedEntry {
    var key = Key.none
    var value = Stamped<Roles?>(nil, .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try key.code(&c)
        try c.record("roles", &value.value, .null)
        try c.stamp(&value.stamp)
    }
}

/// The key of a `RolesEntry`: two member ids, coded as its own fields.
protocol RolesKey: Hashable, Comparable {
    static var none: Self { get }
    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure)
}

extension Pair: RolesKey {
    static var none: Pair { Pair("", "") }

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        var (low, high) = (self.low, self.high)
        try c.id("low", &low)
        try c.id("high", &high)
        try c.check(low < high, "low", "must sort before high")
        if C.reads { self = Pair(low, high) }
    }
}

extension Side: RolesKey {
    static var none: Side { Side(writer: "", other: "") }

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        var (writer, other) = (self.writer, self.other)
        try c.id("writer", &writer)
        try c.id("other", &other)
        if C.reads { self = Side(writer: writer, other: other) }
    }
}

/// One external contact of one owner; the state keeps them by owner, then by id.
struct ExternalEntry: NestedEntry {
    var outer = ""
    var inner = ""
    var value = Stamped<ExternalContact?>(nil, .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("owner", &outer)
        try c.id("id", &inner)
        try c.record("contact", &value.value, .null)
        try c.stamp(&value.stamp)
    }
}

struct TierEntry: KeyedEntry {
    var key = ""
    var value = Stamped<Int64>(1, .unset)

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("contact", &key)
        try c.int("tier", &value.value, in: 1...9)
        try c.stamp(&value.stamp)
    }
}

/// One member's acknowledgement of one thread; the state keeps them by thread, then by member.
struct AcknowledgementEntry: NestedEntry {
    var outer = ""
    var inner = ""
    var value = Stamp.unset

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("thread", &outer)
        try c.id("by", &inner)
        try c.stamp(&value)
    }
}

/// A delivery recorded in the circle. `by` is the recorder's member: a log's own (older logs
/// leave it out, and a reader of a log takes it from the folder); the cache keeps it.
struct DeliveryEntry: KeyedEntry {
    var key = DeliveryKey(notification: "", channel: "")
    var value = DeliveryRecord(stamp: .unset, by: "")

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("notification", &key.notification)
        try c.string("channel", &key.channel)
        try c.stamp(&value.stamp)
        var by: String? = value.by.isEmpty ? nil : value.by
        try c.optionalString("by", &by, .omitted)
        try c.check(by.map(Identifier.isValid) ?? true, "by", "is not a lifesignal id")
        if C.reads { value.by = by ?? "" }
    }
}

struct PingEntry: KeyedEntry {
    var value = Ping(id: "", from: "", to: "")
    var key: String { value.key }

    init() {}
    init(key: String, value: Ping) { self.value = value }

    mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &value.id)
        try c.id("from", &value.from)
        try c.id("to", &value.to)
        try c.stampRecord("sent", &value.sent)
        try c.record("end", &value.ending, .null, seed: (Ping.End.answered, Stamp.unset)) { c, end throws(C.Failure) in
            try c.rawValue("kind", &end.kind, "ping end")
            try c.stamp(&end.stamp)
        }
    }
}

extension Ping {
    /// How the ping ended, as one value (the two are set together).
    var ending: (kind: End, stamp: Stamp)? {
        get { endKind.flatMap { kind in endStamp.map { (kind, $0) } } }
        set {
            endKind = newValue?.kind
            endStamp = newValue?.stamp
        }
    }
}

extension Pair: Comparable {
    public static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.low, lhs.high) < (rhs.low, rhs.high) }
}

extension Side: Comparable {
    static func < (lhs: Side, rhs: Side) -> Bool { (lhs.writer, lhs.other) < (rhs.writer, rhs.other) }
}
