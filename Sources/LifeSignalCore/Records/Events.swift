/// Every kind of fact a device records. Each type is the whole of its event: the name stored
/// in `type`, its fields once (`code`, from which the log's JSON comes) and its fold rule.
/// Register a new type in `EventTypes.all`; its rendering belongs to the CLI. A setting of the
/// member's own, in which the latest stamp wins, is a `MemberSetting` (Settings.swift).

/// I checked in.
public struct CheckedIn: EventBody {
    public static var typeName: String { "checkIn" }
    public var note: String?

    public init() {}
    public init(note: String?) { self.note = note }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.optionalString("note", &note, .omitted)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { state in
            state.checkInCount += 1
            // The last check-in is the latest in time, not the latest written.
            let checkIn = MemberState.CheckIn(stamp: stamp, note: note)
            if state.lastCheckIn.map({ Stamp.earlierInTime($0.stamp, stamp) }) ?? true {
                state.lastCheckIn = checkIn
            }
            state.remember(checkIn)
        }
    }
}

/// My roles toward another member; nil removes the relation. Either side may write it.
public struct RelationSet: EventBody {
    public static var typeName: String { "relationSet" }
    public var member = ""
    public var roles: Roles?

    public init() {}
    public init(member: String, roles: Roles?) {
        self.member = member
        self.roles = roles
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("member", &member)
        try c.record("roles", &roles, .null)
    }

    public func fold(into circle: inout CircleState, member writer: String, stamp: Stamp) {
        // Stored once per pair, as the lower id's roles toward the higher.
        let pair = Pair(writer, member)
        let canonical = writer == pair.low ? roles : roles?.reciprocal
        circle.relations[pair].keepLatest(Stamped(canonical, stamp))
        circle.sides[Side(writer: writer, other: member)].keepLatest(Stamped(roles, stamp))
    }
}

/// One of my external contacts added or edited; nil removes it.
public struct ExternalSet: EventBody {
    public static var typeName: String { "externalSet" }
    public var id = ""
    public var contact: ExternalContact?

    public init() {}
    public init(id: String, contact: ExternalContact?) {
        self.id = id
        self.contact = contact
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &id)
        try c.record("contact", &contact, .null)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.externals[member, default: [:]][id].keepLatest(Stamped(contact, stamp))
    }
}

/// I (a responder) pinged `to`, one of my dependents.
public struct PingSent: EventBody {
    public static var typeName: String { "pingSent" }
    public var id = ""
    public var to = ""

    public init() {}
    public init(id: String, to: String) {
        self.id = id
        self.to = to
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &id)
        try c.id("to", &to)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        var sent = Ping(id: id, from: member, to: to)
        sent.sent = stamp
        circle.pings[sent.key, default: Ping(id: id, from: member, to: to)].merge(sent)
    }
}

/// A ping from `from` to `to` ended: answered by the dependent, cleared by the pinger, or
/// cancelled because the dependent role was removed.
public struct PingEnded: EventBody {
    public static var typeName: String { "pingEnded" }
    public var id = ""
    public var from = ""
    public var to = ""
    public var end = Ping.End.answered

    public init() {}
    public init(id: String, from: String, to: String, end: Ping.End) {
        self.id = id
        self.from = from
        self.to = to
        self.end = end
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &id)
        try c.id("from", &from)
        try c.id("to", &to)
        try c.rawValue("end", &end, "ping end")
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.pings[Ping.key(id: id, from: from, to: to), default: Ping(id: id, from: from, to: to)].finish(end, stamp)
    }
}

/// I raised a manual emergency alert.
public struct AlertRaised: EventBody {
    public static var typeName: String { "alertRaised" }
    public var id = ""
    public var message: String?

    public init() {}
    public init(id: String, message: String?) {
        self.id = id
        self.message = message
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &id)
        try c.optionalString("message", &message, .omitted)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        var record = AlertRecord(id: id)
        record.start = stamp
        record.message = message
        circle.update(member) { $0.alerts[id, default: AlertRecord(id: id)].merge(record) }
    }
}

/// I gave my active alert a new message (where I am now, what happened since).
public struct AlertUpdated: EventBody {
    public static var typeName: String { "alertUpdated" }
    public var id = ""
    public var message: String?

    public init() {}
    public init(id: String, message: String?) {
        self.id = id
        self.message = message
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("id", &id)
        try c.optionalString("message", &message, .omitted)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        var record = AlertRecord(id: id)
        record.update = Stamped(message, stamp)
        circle.update(member) { $0.alerts[id, default: AlertRecord(id: id)].merge(record) }
    }
}

/// I ended my alert.
public struct AlertEnded: EventBody {
    public static var typeName: String { "alertEnded" }
    public var id = ""

    public init() {}
    public init(id: String) { self.id = id }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) { try c.id("id", &id) }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        var record = AlertRecord(id: id)
        record.end = stamp
        circle.update(member) { $0.alerts[id, default: AlertRecord(id: id)].merge(record) }
    }
}

/// I delivered a notification to an external contact (mine, or a dependent's) through one
/// channel: every device of the circle then knows it was sent, by whom and when, and does not
/// send it again.
public struct Delivered: EventBody {
    public static var typeName: String { "delivered" }
    public var notification = ""
    public var channel = ""

    public init() {}
    public init(notification: String, channel: String) {
        self.notification = notification
        self.channel = channel
    }

    /// How long a record is kept after the newest one in the same log: longer than any feed
    /// keeps the notification, so a record outlives every chance to send it again.
    public static let kept = TimeSpan.days(45)

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("notification", &notification)
        try c.string("channel", &channel)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        let key = DeliveryKey(notification: notification, channel: channel)
        if circle.deliveries[key].map({ stamp < $0.stamp }) ?? true {
            circle.deliveries[key] = DeliveryRecord(stamp: stamp, by: member)
        }
        // Bounded: records far older than this one can no longer matter.
        let horizon = stamp.at - Self.kept
        if circle.deliveries.values.contains(where: { $0.stamp.at < horizon }) {
            circle.deliveries = circle.deliveries.filter { $0.value.stamp.at >= horizon }
        }
    }
}

/// `notify deliver` ran on this device (recorded at most every `period(for:)`): the circle can
/// tell whether anyone's cron still watches, and a watcher that sees another device's run
/// after a deadline knows its copy of the circle is current (Freshness.swift).
public struct DeliverRan: EventBody {
    public static var typeName: String { "deliverRan" }

    /// How often a git circle's device records that it delivers: git's fetch is its evidence,
    /// and a record more often would be a commit on every run.
    public static let period = TimeSpan.hours(3)

    /// How often a device records it: in a git circle `period`; elsewhere every relay delay,
    /// so that a watcher holds another device's record written after any deadline in time.
    public static func period(for engine: SyncEngine) -> TimeSpan {
        engine == .git ? period : DeliveryRules.relayDelay
    }

    public init() {}

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {}

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { state in
            if state.deliverRun.map({ $0.at < stamp.at }) ?? true { state.deliverRun = stamp }
        }
    }
}
