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
    public var body: EventBody

    public init(seq: Int64, at: Timestamp, clock: Int64 = 0, body: EventBody) {
        self.seq = seq
        self.at = at
        self.clock = clock
        self.body = body
    }
}

public enum EventBody: Equatable, Sendable {
    case checkIn(note: String?)
    case nameSet(String)
    case intervalSet(TimeSpan)
    /// nil turns the reminder off.
    case reminderSet(TimeSpan?)
    /// My invite code; a new one replaces (and invalidates) the old.
    case codeSet(String)
    /// My roles toward another member; nil removes the relation. Either side may write it.
    case relationSet(member: String, roles: Roles?)
    /// One of my external contacts added or edited; nil removes it.
    case externalSet(id: String, contact: ExternalContact?)
    /// I (a responder) pinged `to`, one of my dependents.
    case pingSent(id: String, to: String)
    /// A ping from `from` to `to` ended: answered by the dependent, cleared by the pinger, or
    /// cancelled because the dependent role was removed.
    case pingEnded(id: String, from: String, to: String, end: Ping.End)
    /// I raised a manual emergency alert.
    case alertRaised(id: String, message: String?)
    /// I ended my alert.
    case alertEnded(id: String)
    /// My feed settings and my own delivery channels.
    case preferencesSet(FeedPreferences)

    /// The name written in the `type` field of stored events.
    public var typeName: String {
        switch self {
        case .checkIn: return "checkIn"
        case .nameSet: return "nameSet"
        case .intervalSet: return "intervalSet"
        case .reminderSet: return "reminderSet"
        case .codeSet: return "codeSet"
        case .relationSet: return "relationSet"
        case .externalSet: return "externalSet"
        case .pingSent: return "pingSent"
        case .pingEnded: return "pingEnded"
        case .alertRaised: return "alertRaised"
        case .alertEnded: return "alertEnded"
        case .preferencesSet: return "preferencesSet"
        }
    }
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
}

/// A setting together with the stamp of the event that set it (last writer wins).
///
/// `Value` is not required to be Equatable here but in the extension below: a generic
/// requirement makes the runtime look up the conformance every time the type is first used
/// from another module, which measurably slowed start-up.
public struct Stamped<Value: Sendable>: Sendable {
    public var value: Value
    public var stamp: Stamp

    public init(_ value: Value, _ stamp: Stamp) {
        self.value = value
        self.stamp = stamp
    }

    /// The later of two settings; nil loses to anything.
    static func latest(_ a: Stamped?, _ b: Stamped?) -> Stamped? {
        guard let a else { return b }
        guard let b else { return a }
        return b.stamp > a.stamp ? b : a
    }
}

extension Stamped: Equatable where Value: Equatable {}
