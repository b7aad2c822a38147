/// The roles of a relation as one member sees it: `responder` — the other person watches
/// me and is told of my alerts and missed check-ins; `dependent` — I watch them and may ping
/// them. Between members roles are reciprocal: my responder sees me as their dependent.
public struct Roles: Equatable, Hashable, Sendable {
    public var responder: Bool
    public var dependent: Bool

    public init(responder: Bool, dependent: Bool) {
        self.responder = responder
        self.dependent = dependent
    }

    /// The same relation seen from the other side.
    public var reciprocal: Roles { Roles(responder: dependent, dependent: responder) }
    public var isEmpty: Bool { !responder && !dependent }

    /// The app's role text: "Responder & Dependent", "Responder", "Dependent".
    public var text: String {
        switch (responder, dependent) {
        case (true, true): return "Responder & Dependent"
        case (true, false): return "Responder"
        case (false, true): return "Dependent"
        case (false, false): return "Contact"
        }
    }
}

/// Someone without lifesignal who should hear of my alerts and missed check-ins: a name and
/// the addresses to reach them. An external contact is always a responder, never a dependent
/// (there is nothing of theirs to watch).
public struct ExternalContact: Equatable, Sendable {
    public var name: String
    /// Channel URIs: `mailto:`, ntfy and https webhook URLs, Apprise URLs, `exec:`, `desktop:`.
    public var notify: [String]
    public var email: [String]
    public var phone: [String]

    public init(name: String, notify: [String], email: [String], phone: [String]) {
        self.name = name
        self.notify = notify
        self.email = email
        self.phone = phone
    }
}

/// Two members, in a fixed order, naming the one relation between them.
public struct Pair: Hashable, Sendable {
    public let low: String
    public let high: String

    public init(_ a: String, _ b: String) {
        low = min(a, b)
        high = max(a, b)
    }

    public func other(than member: String) -> String { member == low ? high : low }
}

/// One member's own word on their link with another (see `CircleState.sides`).
struct Side: Hashable, Sendable {
    let writer: String
    let other: String
}

/// A responder's "are you OK?" to a dependent, and how it ended. Its facts come from two
/// members' logs (sent and cleared by the pinger, answered by the dependent), so a device may
/// know the end of a ping before the sync brings its start: `sent` is nil until then.
public struct Ping: Equatable, Sendable {
    public enum End: String, Sendable {
        /// The dependent answered (one ping, or all at once).
        case answered
        /// The pinger cleared (cancelled) it.
        case cleared
        /// The dependent role was removed while it was pending.
        case roleRemoved
    }

    public var id: String
    public var from: String
    public var to: String
    public var sent: Stamp?
    public var endKind: End?
    public var endStamp: Stamp?

    /// What the circle keys a ping by: its id and its two members. An id is random, so only a
    /// forgery repeats one, and a forged ping between other members must not end this one.
    public var key: String { Self.key(id: id, from: from, to: to) }

    public static func key(id: String, from: String, to: String) -> String { "\(id)|\(from)|\(to)" }

    public var isPending: Bool { endKind == nil }

    /// The first end recorded wins, on every device, whatever order the logs arrive in.
    mutating func finish(_ kind: End, _ stamp: Stamp) {
        if let endStamp, endStamp <= stamp { return }
        endKind = kind
        endStamp = stamp
    }

    mutating func merge(_ other: Ping) {
        if let theirs = other.sent, sent.map({ theirs < $0 }) ?? true { sent = theirs }
        if let kind = other.endKind, let stamp = other.endStamp { finish(kind, stamp) }
    }
}

/// What the circle's logs say, folded: every member's profile, the relations between members,
/// each member's external contacts, and pings. One device's log folds to a `CircleState` of
/// its own events; merging all of them gives the same circle on every machine, in any order.
public struct CircleState: Equatable, Sendable {
    public var members: [String: MemberState] = [:]
    /// The roles of `pair.low` toward `pair.high`; nil once the relation was removed.
    public var relations: [Pair: Stamped<Roles?>] = [:]
    /// Each member's own latest word on a link: the roles toward the other that the last
    /// relation they wrote gave (nil once they removed it). `relations` keeps the latest word of
    /// either side; this keeps both, from the relations in each member's own logs (see
    /// `confirmedWatcher(_:by:)`).
    var sides: [Side: Stamped<Roles?>] = [:]
    /// owner → contact id → the contact (nil once removed).
    public var externals: [String: [String: Stamped<ExternalContact?>]] = [:]
    /// Pings by `Ping.key`.
    public var pings: [String: Ping] = [:]
    /// Deliveries to external contacts, by any device of the circle: which notification went
    /// through which channel, and the first device that recorded it (and its member). Whoever
    /// sees one here does not send it again, when its recorder could have sent it (see
    /// `DeliveryRules.isDelivered`).
    public var deliveries: [DeliveryKey: DeliveryRecord] = [:]
    /// Acknowledgements: thread (`Notification.Thread.key`) → the member who acknowledged it →
    /// when. Kept per member, so that one who may not acknowledge a thread cannot hide the
    /// acknowledgement of one who may (see `acknowledgement(of:)`).
    public var acknowledgements: [String: [String: Stamp]] = [:]
    /// Vouches for a member by the member who vouched (see `Vouching`).
    public var vouches: [String: [Vouch]] = [:]

    public init() {}

    /// Folds one event written by `device` of `member` (the rule is the event type's own).
    public mutating func apply(_ event: Event, member: String, device: String) {
        event.body.fold(into: &self, member: member, stamp: event.stamp(device: device))
    }

    /// The members this copy of the circle has records of, by id: those whose state holds
    /// more than taps of their "I'm OK" button relayed in another member's log. Any log may
    /// name any id in a tap, and a tap counts only through a token the member's own devices
    /// committed to: an id known from taps alone is nobody the circle can show.
    /// The facts between members alone (see `codeFacts`), without anyone's state.
    public var facts: CircleState {
        var facts = self
        facts.members = [:]
        return facts
    }

    public var knownMembers: [String] {
        members.compactMap { id, state in
            var own = state
            own.phoneTaps = [:]
            return own == MemberState() ? nil : id
        }.sorted()
    }

    /// Changes one member's state, creating it on first use.
    mutating func update(_ member: String, _ change: (inout MemberState) -> Void) {
        change(&members[member, default: MemberState()])
    }

    public mutating func merge(_ other: CircleState) {
        // Merging into nothing is taking the other side as it is (and sharing its storage):
        // the common case of one device's facts merged into everyone else's.
        if members.isEmpty {
            members = other.members
        } else {
            for (id, state) in other.members { members[id, default: MemberState()].merge(state) }
        }
        if relations.isEmpty {
            relations = other.relations
        } else {
            for (pair, value) in other.relations { relations[pair] = Stamped.latest(relations[pair], value) }
        }
        if sides.isEmpty {
            sides = other.sides
        } else {
            for (side, value) in other.sides { sides[side] = Stamped.latest(sides[side], value) }
        }
        for (owner, contacts) in other.externals {
            guard externals[owner] != nil else {
                externals[owner] = contacts
                continue
            }
            for (id, value) in contacts {
                externals[owner, default: [:]][id] = Stamped.latest(externals[owner]?[id], value)
            }
        }
        if deliveries.isEmpty {
            deliveries = other.deliveries
        } else {
            for (key, record) in other.deliveries where deliveries[key].map({ record.stamp < $0.stamp }) ?? true {
                deliveries[key] = record
            }
        }
        for (thread, acks) in other.acknowledgements {
            for (by, stamp) in acks { acknowledge(thread, by: by, stamp: stamp) }
        }
        for (member, list) in other.vouches {
            for vouch in list { self.vouch(vouch, for: member) }
        }
        if pings.isEmpty {
            pings = other.pings
        } else {
            for (id, ping) in other.pings {
                if var mine = pings[id] {
                    mine.merge(ping)
                    pings[id] = mine
                } else {
                    pings[id] = ping
                }
            }
        }
    }

    /// Records that `by` acknowledged `thread` (the latest stamp of theirs is kept: a responder
    /// says "I'm on it" again once their last one no longer holds the alarm).
    mutating func acknowledge(_ thread: String, by: String, stamp: Stamp) {
        if acknowledgements[thread]?[by].map({ $0 < stamp }) ?? true {
            acknowledgements[thread, default: [:]][by] = stamp
        }
    }

    // MARK: - Views from one member

    /// My roles toward `other`, or nil when we are not linked.
    public func roles(of member: String, toward other: String) -> Roles? {
        let pair = Pair(member, other)
        guard let value = relations[pair]?.value, !value.isEmpty else { return nil }
        return member == pair.low ? value : value.reciprocal
    }

    /// Whether `member`'s own latest word on their link with `watcher` makes `watcher` their
    /// responder: they added `watcher` so (by code), made them one (`contacts edit`), or
    /// confirmed the link `watcher` made (`contacts confirm`), and said nothing else since.
    /// Either side may write a relation, and an invite code is no secret (it lies in its
    /// member's log), so the other side's word alone is a claim: anyone who can write the circle
    /// folder can make it. Only the watching itself is confirmed, never the link in general: a
    /// dependent of `member` who turns the link around is not their watcher by that.
    public func confirmedWatcher(_ watcher: String, by member: String) -> Bool {
        sides[Side(writer: member, other: watcher)]?.value?.responder ?? false
    }

    /// Whether `watcher` may answer for `member`'s alarms — an "I'm on it" that stops the
    /// escalation, a vouch that ends a miss, a delivery that stands for everyone's: they watch
    /// over `member`, and `member` confirmed it. Being told and relaying need no more than the
    /// watching: a claim can cost a false alarm, never a missed one.
    public func answersFor(_ member: String, watcher: String) -> Bool {
        (roles(of: watcher, toward: member)?.dependent ?? false) && confirmedWatcher(watcher, by: member)
    }

    /// The members who say they watch over `member` without `member` having confirmed it.
    public func unconfirmedWatchers(of member: String) -> [String] {
        linkedMembers(of: member).filter {
            (roles(of: $0, toward: member)?.dependent ?? false) && !confirmedWatcher($0, by: member)
        }
    }

    /// When the relation between two members was last set (added or changed).
    public func relationStamp(_ a: String, _ b: String) -> Stamp? { relations[Pair(a, b)]?.stamp }

    /// The members `member` is linked with.
    public func linkedMembers(of member: String) -> [String] { linked(with: member).sorted() }

    /// The same, in no order: for a caller that keeps only some of them, or a set.
    func linked(with member: String) -> [String] {
        relations.compactMap { pair, value in
            guard value.value.map({ !$0.isEmpty }) ?? false, pair.low == member || pair.high == member else {
                return nil
            }
            return pair.other(than: member)
        }
    }

    public func externalContacts(of member: String) -> [(id: String, contact: ExternalContact, stamp: Stamp)] {
        (externals[member] ?? [:]).compactMap { id, value in value.value.map { (id, $0, value.stamp) } }.sorted {
            $0.id < $1.id
        }
    }

    /// The member whose current invite code is `code`.
    public func member(withCode code: String) -> String? {
        members.first { $0.value.code?.value == code }?.key
    }

    /// Every member whose current invite code is `code` (one, unless someone copied it).
    public func members(withCode code: String) -> [String] {
        members.filter { $0.value.code?.value == code }.map(\.key).sorted()
    }

    /// A ping is pending while nothing ended it, its start is known, and the pinger still has
    /// the dependent role (a role removed on another machine before it saw the ping ends it).
    public func isPending(_ ping: Ping) -> Bool {
        ping.isPending && ping.sent != nil && (roles(of: ping.from, toward: ping.to)?.dependent ?? false)
    }

    /// Pings with a known start that `member` sent or received, newest first. Only between
    /// two members who are (or were) linked: a ping is something a responder sends to someone
    /// they watch over, and a stranger's "ping" in their own log is nobody's.
    public func pings(involving member: String) -> [(ping: Ping, sent: Stamp)] {
        pings.values.compactMap { ping in
            guard let sent = ping.sent, ping.from == member || ping.to == member,
                relations[Pair(ping.from, ping.to)] != nil
            else { return nil }
            return (ping, sent)
        }.sorted { Stamp.earlierInTime($1.sent, $0.sent) }
    }

    /// The pending ping from `from` to `to`, if any (at most one per pair).
    public func pendingPing(from: String, to: String) -> Ping? {
        var newest: Ping?
        for ping in pings.values where ping.from == from && ping.to == to && isPending(ping) {
            if let best = newest?.sent, let sent = ping.sent, !Stamp.earlierInTime(best, sent) { continue }
            newest = ping
        }
        return newest
    }
}
