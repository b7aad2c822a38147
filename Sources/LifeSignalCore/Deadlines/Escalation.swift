/// Grace, tiers and acknowledgement: who is told of a missed check-in, and when.
///
/// At the deadline only the member is told. After the grace period their tier-1 responders
/// are; each further tier after another `escalation` delay, unless a responder has
/// acknowledged ("I'm on it") or the member has checked in. Alerts skip all of this and go to
/// every responder at once. An acknowledgement holds the alarm for `acknowledgementHold`:
/// "I'm on it" followed by nothing — no check-in, no vouch, no end of the alert — lets the
/// repeats and the further tiers go on, so a responder who forgot cannot quiet it for good.
public enum Escalation {
    /// The delay between tiers when the member set none.
    public static let defaultDelay = TimeSpan.hours(1)
    /// The longest grace and the longest delay between tiers: past a day, "only you are told"
    /// or "tier 2 later" is a switched-off alarm, and `grace 30d` a slip for `30m`.
    public static let longestGrace = TimeSpan.hours(24)
    public static let delays = TimeSpan.minutes(1)...TimeSpan.hours(24)
    /// How long an acknowledgement holds the repeats and further tiers of its alarm.
    public static let acknowledgementHold = TimeSpan.hours(2)

    /// A responder's tier as `member` set it (1 unless set otherwise).
    public static func tier(of responder: Notification.Recipient, for member: String, in circle: CircleState) -> Int64 {
        let id: String
        switch responder {
        case .member(let other): id = other
        case .external(_, let contact): id = contact
        }
        return circle.members[member]?.tiers[id]?.value ?? 1
    }

    /// When `responder` is to be told of `member`'s miss of `deadline`. Tiers count from the
    /// lowest one in use: with every responder moved to tier 2, tier 2 is the first told, after
    /// the grace, not one delay later with nobody told before.
    /// `first` is `firstTier(of: member, in: circle)`, when the caller has it.
    public static func due(
        _ responder: Notification.Recipient, member: String, deadline: Timestamp, in circle: CircleState,
        first: Int64? = nil
    ) -> Timestamp {
        let state = circle.members[member] ?? MemberState()
        let grace = state.effectiveGrace ?? TimeSpan(seconds: 0)
        let delay = state.effectiveEscalation
        let tier = tier(of: responder, for: member, in: circle)
        let first = first ?? firstTier(of: member, in: circle)
        return deadline + grace + TimeSpan(seconds: (tier - min(first, tier)) * delay.seconds)
    }

    /// The lowest tier among the responders `member` set: the first told (1 when none set a
    /// tier). A member who only says they watch over `member` never lowers it: their claim
    /// alone would hold back every tier by an escalation delay.
    public static func firstTier(of member: String, in circle: CircleState) -> Int64 {
        guard let state = circle.members[member], !state.tiers.isEmpty else { return 1 }
        return Notifications.confirmedResponders(of: member, in: circle).map { tier(of: $0, for: member, in: circle) }
            .min() ?? 1
    }

    /// The responders of `member` to be told of the miss of `deadline` by `now`: tier 1 after
    /// the grace, higher tiers later and only while nobody has acknowledged.
    public static func toldOfMiss(
        _ responders: [Notification.Recipient], member: String, deadline: Timestamp, now: Timestamp,
        in circle: CircleState
    ) -> [Notification.Recipient] {
        let thread = Notification.Thread.deadline(member: member, at: deadline)
        let acknowledged = circle.acknowledgement(of: thread) != nil
        let first = firstTier(of: member, in: circle)
        return responders.filter { responder in
            let tier = tier(of: responder, for: member, in: circle)
            let due = due(responder, member: member, deadline: deadline, in: circle, first: first)
            guard now >= due else { return false }
            guard tier > first, acknowledged else { return true }
            // A further tier waits while an acknowledgement holds the alarm; tiers due before
            // the first were told.
            return now >= circle.heldUntil(thread, from: due)
        }
    }
}

extension MemberState {
    /// The grace in force, held to `Escalation.longestGrace` even when an older lifesignal,
    /// which had no bound, set it longer.
    public var effectiveGrace: TimeSpan? { grace?.value.map { min($0, Escalation.longestGrace) } }

    /// The delay between tiers in force, held to `Escalation.delays` likewise.
    public var effectiveEscalation: TimeSpan {
        let delay = escalation?.value ?? Escalation.defaultDelay
        return min(max(delay, Escalation.delays.lowerBound), Escalation.delays.upperBound)
    }
}

/// Who acknowledged a thread (a missed check-in, an alert) first, and when.
public struct Acknowledgement: Equatable, Sendable {
    public var by: String
    public var stamp: Stamp
    /// For an external responder's "I'm on it" from their phone: their contact id (of the
    /// subject's), and `by` is the member whose device sent them the alarm.
    public var external: String? = nil
}

/// A responder of mine (a member or an external contact) is in this tier.
public struct TierSet: EventBody {
    public static var typeName: String { "tierSet" }
    public var contact = ""
    public var tier: Int64 = 1

    public init() {}
    public init(contact: String, tier: Int64) {
        self.contact = contact
        self.tier = tier
    }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.id("contact", &contact)
        try c.int("tier", &tier, in: 1...9)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.update(member) { state in
            if state.tiers[contact].map({ $0.stamp < stamp }) ?? true { state.tiers[contact] = Stamped(tier, stamp) }
        }
    }
}

/// I acknowledge a thread of someone I watch over: "I'm on it".
public struct Acknowledged: EventBody {
    public static var typeName: String { "acknowledged" }
    public var thread = ""

    public init() {}
    public init(thread: String) { self.thread = thread }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.string("thread", &thread)
    }

    public func fold(into circle: inout CircleState, member: String, stamp: Stamp) {
        circle.acknowledge(thread, by: member, stamp: stamp)
    }
}

extension CircleState {
    /// The acknowledgements of `thread` by those who answer for the one it is about
    /// (`answersFor`: only a responder they confirmed may say "I'm on it"), and by their external
    /// responders' phones, earliest first: each responder's latest.
    public func acknowledgements(of thread: Notification.Thread) -> [Acknowledgement] {
        guard let subject = Notifications.subject(of: thread, in: self) else { return [] }
        var found = (acknowledgements[thread.key] ?? [:]).compactMap { by, stamp in
            answersFor(subject, watcher: by) ? Acknowledgement(by: by, stamp: stamp) : nil
        }
        found += phoneAcknowledgements(of: thread, subject: subject)
        return found.sorted { Stamp.earlierInTime($0.stamp, $1.stamp) }
    }

    /// The first acknowledgement of `thread` (see `acknowledgements(of:)`).
    public func acknowledgement(of thread: Notification.Thread) -> Acknowledgement? {
        acknowledgements(of: thread).first
    }

    /// The latest acknowledgement of `thread` that holds its alarm at `now`: given less than
    /// `Escalation.acknowledgementHold` before it.
    public func acknowledgement(of thread: Notification.Thread, holdingAt now: Timestamp) -> Acknowledgement? {
        acknowledgements(of: thread).last { $0.stamp.at <= now && now < $0.stamp.at + Escalation.acknowledgementHold }
    }

    /// When what falls due at `due` in `thread` (a further tier) is told: at once, or, while an
    /// acknowledgement given before it holds the alarm, when the last of the holds that follow
    /// one another ends (what fell due at the instant of an acknowledgement was due before it).
    public func heldUntil(_ thread: Notification.Thread, from due: Timestamp) -> Timestamp {
        var at = due
        for ack in acknowledgements(of: thread) where ack.stamp.at < at {
            at = max(at, ack.stamp.at + Escalation.acknowledgementHold)
        }
        return at
    }
}
