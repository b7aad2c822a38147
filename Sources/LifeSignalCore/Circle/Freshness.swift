/// Believable alarms: whether this device's copy of the circle is known to be current, and so
/// whether a silence it sees is the person's or its own. A watcher whose sync is down sees
/// everyone go quiet; it must not tell a sister to call the emergency number while the person
/// is checking in on time elsewhere.
///
/// A device knows its copy is current after an instant when it holds evidence written after it:
/// a record of the person's own devices or of another device of this one's member (a copy that
/// received those would have received the person's check-in too), or its sync engine vouching
/// for it (a git fetch that worked, Syncthing's API saying the folder is up to date, a folder
/// written directly that no other account can write). A third member's record is no evidence on
/// its own: a member who can write the folder can put the person's older log back and keep
/// writing their own. Nothing stamped later than this device's clock is evidence either (a
/// device whose clock ran a year ahead would vouch for every copy for a year). A miss it can
/// confirm is relayed as confirmed; one it cannot is held, said to its own user, and relayed
/// after the hold marked unconfirmed — never silence, never false certainty.

/// How the circle folder is kept in step, as this device can tell.
public enum SyncEngine: String, CaseIterable, Sendable {
    /// No sync engine: one machine's folder, or a network file system every device writes.
    case direct
    case git
    case syncthing
    /// A tool lifesignal cannot ask (rsync, cp, a cloud folder): only records are evidence.
    case other
}

/// What this device knows of its sync engine, from outside the circle: the engine, until when
/// it vouches for this copy, what is wrong with it, and how long a miss it cannot confirm is
/// held. Made by the application layer (from the folder, `circle sync`'s record of its fetches,
/// Syncthing's API); the rules below take it as data.
public struct SyncView: Equatable, Sendable {
    public var engine: SyncEngine
    /// Until when the engine vouches that this copy is complete (nil: it cannot say).
    public var currentAt: Timestamp?
    /// What is wrong with it, as a person reads it: "git fetch fails since 08:40 (…)".
    public var problem: String?
    /// How long after a deadline a miss this device cannot confirm is held.
    public var hold: TimeSpan
    /// The phone inboxes this device reads, by URL, and when it last read each (nil: never).
    /// A tap not read yet may be the check-in that answers a miss: an inbox read before the
    /// deadline confirms nothing about it. An inbox not listed is not known here, and judged by
    /// the rest of the evidence.
    public var inboxReads: [String: Timestamp?] = [:]

    /// A watcher relays an unconfirmable miss two hours after the deadline, unless set.
    public static let defaultHold = TimeSpan.hours(2)

    public init(engine: SyncEngine, currentAt: Timestamp?, problem: String? = nil, hold: TimeSpan = defaultHold) {
        self.engine = engine
        self.currentAt = currentAt
        self.problem = problem
        self.hold = hold
    }

    /// A folder written directly, by this account only, is current whenever it is read.
    public static func direct(now: Timestamp) -> SyncView { SyncView(engine: .direct, currentAt: now) }
}

/// Evidence that this copy is current after an instant: what it is and when it was written.
public struct Evidence: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// A record the person's own devices wrote.
        case person
        /// Another device of this member.
        case myOtherDevice
        /// The sync engine's word.
        case engine(SyncEngine)
    }

    public var source: Source
    public var at: Timestamp
}

extension MemberState {
    /// The latest stamp of this member's state written by a device other than `device`: when
    /// they were last heard from, here, through someone else's copy. Nil when never. With
    /// `asOf`, a stamp later than that clock (and its tolerance) is not taken: a record from a
    /// device whose clock runs ahead says nothing of when it was written.
    public func lastHeard(excludingDevice device: String? = nil, asOf now: Timestamp? = nil) -> Timestamp? {
        var stamps: [Stamp?] = [
            name?.stamp, interval?.stamp, reminder?.stamp, code?.stamp, preferences?.stamp, heartbeats?.stamp,
            deliverRun, pause?.stamp, trip?.stamp, pauseLimit?.stamp, schedule?.stamp, grace?.stamp,
            escalation?.stamp, details?.stamp, mail?.stamp, lastCheckIn?.stamp,
        ]
        stamps += recentCheckIns.map(\.stamp)
        for alert in alerts.values { stamps += [alert.start, alert.end, alert.update?.stamp] }
        let limit = now.map { $0 + Self.clockTolerance } ?? Timestamp(seconds: .max)
        return stamps.compactMap { $0 }.filter { $0.device != device && $0.at <= limit }.map(\.at).max()
    }
}

extension CircleState {
    /// Evidence that this copy, as `device` of `me` holds it at `now`, is current after
    /// `instant` for news about `subject`: the engine's word, the person's own records, or
    /// another device of `me`'s — none stamped later than `now`.
    public func evidence(
        about subject: String, after instant: Timestamp, me: String, device: String, sync: SyncView, now: Timestamp
    ) -> Evidence? {
        var best: Evidence?
        func consider(_ source: Evidence.Source, _ at: Timestamp?) {
            guard let at, at > instant, at <= now + MemberState.clockTolerance, best.map({ at > $0.at }) ?? true
            else { return }
            best = Evidence(source: source, at: at)
        }
        consider(.engine(sync.engine), sync.currentAt)
        consider(.person, members[subject]?.lastHeard(excludingDevice: device, asOf: now))
        if me != subject { consider(.myOtherDevice, members[me]?.lastHeard(excludingDevice: device, asOf: now)) }
        return best
    }

    /// When anything in this copy was last written by a device other than `device` (by `now`:
    /// a record stamped later says nothing of when it came): how stale the copy looks, for the
    /// warning that cannot confirm a miss.
    public func lastChange(excludingDevice device: String, asOf now: Timestamp) -> Timestamp? {
        members.values.compactMap { $0.lastHeard(excludingDevice: device, asOf: now) }.max()
    }
}

/// What a watcher does with a dependent's miss it would relay to their external responders.
public enum RelayDecision: Equatable, Sendable {
    /// Not yet: until `until` (the person's own device is alive and tells them itself, or this
    /// copy cannot confirm the miss and the hold has not run out).
    case hold(until: Timestamp)
    /// Tell them now; `confirmed` when this copy is known current after the deadline.
    case send(confirmed: Bool, evidence: Evidence?)
}

extension DeliveryRules {
    /// How a dependent's miss is told to this device's own user: at once, never held (the
    /// watcher hears of a possible miss first, and can look into it), but confirmed only as a
    /// relay would be: with evidence that this copy is current after the deadline, or word
    /// from the person's own devices since. Without either it is said to be unconfirmed.
    public static func ownWord(
        missOf subject: String, deadline: Timestamp, me: String, device: String, circle: CircleState, sync: SyncView,
        now: Timestamp
    ) -> RelayDecision {
        let evidence = Self.evidence(
            about: subject, after: deadline, me: me, device: device, circle: circle, sync: sync, now: now)
        let heard =
            circle.members[subject]?.lastHeard(excludingDevice: device, asOf: now).map { $0 > deadline } ?? false
        return .send(
            confirmed: evidence != nil || (heard && !inboxBehind(subject, deadline, sync, circle)), evidence: evidence)
    }

    /// The evidence that this copy is current after `deadline` about `subject`, none while
    /// their phone inbox has not been read since: a tap there may be their check-in.
    public static func evidence(
        about subject: String, after deadline: Timestamp, me: String, device: String, circle: CircleState,
        sync: SyncView, now: Timestamp
    ) -> Evidence? {
        guard !inboxBehind(subject, deadline, sync, circle) else { return nil }
        return circle.evidence(about: subject, after: deadline, me: me, device: device, sync: sync, now: now)
    }

    /// Whether `subject` has a phone inbox this device has not read since `deadline`, where a
    /// tap that counts before the deadline may wait (see `PhoneCheckIns.mayWait`).
    public static func inboxBehind(_ subject: String, _ deadline: Timestamp, _ sync: SyncView, _ circle: CircleState)
        -> Bool
    {
        guard let state = circle.members[subject], let url = state.inbox?.value ?? nil,
            let read = sync.inboxReads[url]
        else { return false }
        return (read ?? Timestamp(seconds: .min)) <= deadline && PhoneCheckIns.mayWait(before: deadline, in: state)
    }

    /// How my own device tells my external contacts of my own miss of `deadline`: at once, never
    /// held (this is the alarm's first way out), but said to be unconfirmed while my phone inbox
    /// has not been read here since the deadline and a tap of "I'm OK" may wait there unread: a
    /// button reached my phone from here since my last check-in (`feed` records the phone
    /// topic's deliveries), or another device of mine may have sent one. Its correction follows
    /// when the tap is read.
    public static func ownMiss(deadline: Timestamp, me: String, circle: CircleState, sync: SyncView, feed: Feed)
        -> RelayDecision
    {
        guard inboxBehind(me, deadline, sync, circle), let state = circle.members[me] else {
            return .send(confirmed: true, evidence: nil)
        }
        let since = state.lastCheckIn(asOf: deadline)?.at ?? Timestamp(seconds: .min)
        let reachedPhone = feed.deliveries.contains { key, delivery in
            key.channel == phoneChannel && (delivery.deliveredAt.map { $0 >= since && $0 <= deadline } ?? false)
        }
        return .send(confirmed: !(reachedPhone || state.devices.count > 1), evidence: nil)
    }

    /// Whether `me`'s device `device` relays `subject`'s miss of `deadline` at `now`.
    public static func relay(
        missOf subject: String, deadline: Timestamp, me: String, device: String, circle: CircleState,
        sync: SyncView, now: Timestamp
    ) -> RelayDecision {
        let holdEnds = deadline + sync.hold
        let evidence = Self.evidence(
            about: subject, after: deadline, me: me, device: device, circle: circle, sync: sync, now: now)
        // The person's own device wrote after the deadline: it is alive and tells its own
        // responders; a watcher steps in only if it has not by the end of the hold.
        let personHeard = circle.members[subject]?.lastHeard(excludingDevice: device, asOf: now)
        if let personHeard, personHeard > deadline, now < holdEnds { return .hold(until: holdEnds) }
        if let evidence { return .send(confirmed: true, evidence: evidence) }
        return now >= holdEnds ? .send(confirmed: false, evidence: nil) : .hold(until: holdEnds)
    }
}
