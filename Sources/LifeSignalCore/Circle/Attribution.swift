/// Who a record speaks for. A device's log lies in the folder of one member, and whoever can
/// write the circle folder can write any log: so a log is believed only about the member whose
/// folder it is in. It may state what that member did or set — their profile, settings,
/// contacts and channels, check-ins and alerts, the pings they sent and the answers they gave,
/// their acknowledgements, the deliveries their devices made, their side of a relation — and
/// nothing about anyone else — except a tap of another member's "I'm OK" button read from their
/// inbox, which counts only through the token it carries (see `PhoneCheckIns`), and only for
/// the devices of the member who read it (`keepOwnTaps`): the time of a tap is the one the inbox
/// stamped, as the reader's own member or the tapping member's own devices read it, never a
/// time a third member wrote. Whatever else a log holds is left out of the circle, kept where it
/// is (nobody edits another device's file) and reported.
extension CircleState {
    /// The part of a log's state that its member, `member`, could have written, and a count of
    /// what was left out (nil when nothing was).
    public func attributed(to member: String) -> (state: CircleState, foreign: ForeignRecords?) {
        var state = CircleState()
        var foreign = ForeignRecords()
        for (id, profile) in members {
            if id == member {
                state.members[id] = profile
                continue
            }
            var taps = MemberState()
            taps.phoneTaps = profile.phoneTaps
            if !taps.phoneTaps.isEmpty { state.members[id] = taps }
            if taps != profile { foreign.members += 1 }
        }
        for (pair, roles) in relations {
            // Either side of a pair may set it; a third member never can.
            if pair.low == member || pair.high == member {
                state.relations[pair] = roles
                // What a member's own logs say of a pair is their side of it, in their roles.
                let theirs = Stamped(member == pair.low ? roles.value : roles.value?.reciprocal, roles.stamp)
                state.sides[Side(writer: member, other: pair.other(than: member))] = theirs
            } else {
                foreign.relations += 1
            }
        }
        for (owner, contacts) in externals {
            if owner == member { state.externals[owner] = contacts } else { foreign.externals += contacts.count }
        }
        for (key, ping) in pings {
            if let own = ping.attributed(to: member) { state.pings[key] = own } else { foreign.pings += 1 }
        }
        for (key, record) in deliveries {
            // A log written before deliveries named their member: its own member made them.
            if record.by.isEmpty || record.by == member {
                state.deliveries[key] = DeliveryRecord(stamp: record.stamp, by: member)
            } else {
                foreign.deliveries += 1
            }
        }
        for (thread, acks) in acknowledgements {
            for (by, stamp) in acks {
                if by == member {
                    state.acknowledgements[thread, default: [:]][by] = stamp
                } else {
                    foreign.acknowledgements += 1
                }
            }
        }
        for (subject, list) in vouches {
            for vouch in list {
                if vouch.by == member { state.vouch(vouch, for: subject) } else { foreign.vouches += 1 }
            }
        }
        return (state, foreign.isEmpty ? nil : foreign)
    }
}

extension CircleState {
    /// For a reader of another member's log (`member`'s): their taps of others' buttons left
    /// out. A member could copy a real token into their own log with another time: taken, it
    /// would make the real tap look used (a confirmed false alarm) and check the person in
    /// later, silent or not. Each reader reads the inbox itself; the member's own devices'
    /// records of their own taps still count for everyone.
    public mutating func keepOwnTaps(of member: String) {
        for other in members.keys where other != member { members[other] = nil }
    }
}

extension Ping {
    /// What of this ping `member` could have recorded: its start if they sent it, its end if
    /// they were the one to end it that way (the dependent answers, the pinger clears, either
    /// side's role change cancels). Nil when nothing of it is theirs.
    func attributed(to member: String) -> Ping? {
        guard from == member || to == member else { return nil }
        var own = Ping(id: id, from: from, to: to)
        if from == member { own.sent = sent }
        if let kind = endKind, let stamp = endStamp {
            let allowed: Bool
            switch kind {
            case .answered: allowed = to == member
            case .cleared: allowed = from == member
            case .roleRemoved: allowed = true
            }
            if allowed { own.finish(kind, stamp) }
        }
        return own.sent == nil && own.endKind == nil ? nil : own
    }
}

/// What one log held about other members than its own, left out of the circle: how many of
/// each kind, so that the warning can say what was claimed. The file keeps them as written.
public struct ForeignRecords: Equatable, Sendable {
    /// The folder the log lies in (filled in by whoever read it).
    public var member = ""
    public var device = ""
    /// Profiles of other members.
    public var members = 0
    /// Relations between two other members.
    public var relations = 0
    /// External contacts claimed for another member.
    public var externals = 0
    /// Pings neither sent nor received by the member, or ended in a way only the other side can.
    public var pings = 0
    /// Acknowledgements in another member's name.
    public var acknowledgements = 0
    /// Deliveries claimed by another member's devices.
    public var deliveries = 0
    /// Vouches in another member's name.
    public var vouches = 0

    public init() {}

    public var isEmpty: Bool { total == 0 }

    public var total: Int { members + relations + externals + pings + acknowledgements + deliveries + vouches }

    /// Each kind with its count, as words ("2 external contacts"), in a fixed order, leaving out
    /// the kinds with none.
    public var kinds: [String] {
        [
            (members, "profile", "profiles"), (relations, "relation", "relations"),
            (externals, "external contact", "external contacts"), (pings, "ping", "pings"),
            (acknowledgements, "acknowledgement", "acknowledgements"), (deliveries, "delivery", "deliveries"),
            (vouches, "vouch", "vouches"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
    }
}
