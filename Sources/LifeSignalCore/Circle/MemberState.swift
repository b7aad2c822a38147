/// Everything known about one member, folded from the events of one or more of their devices.
///
/// The fold is a merge: applying events, or merging per-device states, gives the same result
/// in any order, because each setting keeps the stamp of the event that set it and the later
/// stamp wins. That is what lets devices sync their logs in any order without conflicts.
public struct MemberState: Equatable, Sendable {
    public var name: Stamped<String>?
    public var interval: Stamped<TimeSpan>?
    public var reminder: Stamped<TimeSpan?>?
    /// The current invite code.
    public var code: Stamped<String>?
    /// Every alert this member raised, by id.
    public var alerts: [String: AlertRecord] = [:]
    public var preferences: Stamped<FeedPreferences>?
    public var heartbeats: Stamped<Heartbeats>?
    /// The latest recorded `notify deliver` run on any of this member's devices.
    public var deliverRun: Stamp?
    /// The latest pause (or resume) and trip set (see `Schedules.swift`).
    public var pause: Stamped<Pause>?
    public var trip: Stamped<Trip>?
    /// The longest pause without `--yes` (nil: `Pause.longest`).
    public var pauseLimit: Stamped<TimeSpan>?
    /// Fixed times of day instead of the interval (nil value: the interval).
    public var schedule: Stamped<DailySchedule?>?
    /// Grace after a missed deadline, the delay between tiers, and my responders' tiers.
    public var grace: Stamped<TimeSpan?>?
    public var escalation: Stamped<TimeSpan>?
    public var tiers: [String: Stamped<Int64>] = [:]
    /// How often my unanswered alarms are told again (nil value: never; see `Repeats`).
    public var repeatEvery: Stamped<TimeSpan?>?
    /// My phone and emergency note; how my e-mail is addressed.
    public var details: Stamped<ProfileDetails>?
    public var mail: Stamped<MailSettings>?
    public var lastCheckIn: CheckIn?
    /// Recent check-ins, newest in time first: the latest few in time, and each device's latest
    /// few in the order it wrote them (see `remember`). So a reader at any clock finds the
    /// newest check-in at or before it, and check-ins stamped in the future (a wrong clock, a
    /// "what if" run) — however many — never hide a real one written after them.
    public var recentCheckIns: [CheckIn] = []
    /// Check-ins in these events. Devices' logs are disjoint, so merged counts add up.
    public var checkInCount: Int64 = 0
    /// The devices this member's devices enrolled or revoked, by device (see DeviceRoster.swift).
    public var devices: [String: DeviceEntry] = [:]
    /// The public key of this member's recovery code.
    public var recovery: Stamped<String>?
    /// The key fingerprints this member pinned, by member, then fingerprint.
    public var pins: [String: [String: Pin]] = [:]
    /// My inbox for check-ins from elsewhere (an ntfy topic URL), the tokens I committed to
    /// (by commitment, when issued), and the taps any device found for me (by commitment; see
    /// `PhoneCheckIns`).
    public var inbox: Stamped<String?>?
    public var tokens: [String: Timestamp] = [:]
    public var phoneTaps: [String: PhoneTap] = [:]
    /// The "I'm on it" tokens my devices committed to, by commitment (see `AckTokenIssued`).
    public var ackTokens: [String: AckCommitment] = [:]
    /// When buttons were last withdrawn, by whose they were (see `ButtonsWithdrawn`).
    public var withdrawn: [String: Timestamp] = [:]

    public init() {}

    /// One check-in, as it appears in state and history.
    public struct CheckIn: Equatable, Sendable {
        public var stamp: Stamp
        public var note: String?
        /// A tap of an "I'm OK" button, recorded by the device in `stamp`.
        public var fromPhone = false
        public var at: Timestamp { stamp.at }

        public init(stamp: Stamp, note: String?) {
            self.stamp = stamp
            self.note = note
        }
    }

    /// Folds one event of this member's, written by `device`; facts between members (relations,
    /// pings, external contacts) are not part of a member's state and are left out.
    public mutating func apply(_ event: Event, device: String) {
        var circle = CircleState()
        circle.members[""] = self
        event.body.fold(into: &circle, member: "", stamp: event.stamp(device: device))
        if let folded = circle.members[""] { self = folded }
    }

    /// Combines the states of two disjoint sets of events (two devices of one member).
    public mutating func merge(_ other: MemberState) {
        name = Stamped.latest(name, other.name)
        interval = Stamped.latest(interval, other.interval)
        reminder = Stamped.latest(reminder, other.reminder)
        code = Stamped.latest(code, other.code)
        preferences = Stamped.latest(preferences, other.preferences)
        heartbeats = Stamped.latest(heartbeats, other.heartbeats)
        if let theirs = other.deliverRun, deliverRun.map({ $0.at < theirs.at }) ?? true { deliverRun = theirs }
        pause = Stamped.latest(pause, other.pause)
        trip = Stamped.latest(trip, other.trip)
        pauseLimit = Stamped.latest(pauseLimit, other.pauseLimit)
        schedule = Stamped.latest(schedule, other.schedule)
        grace = Stamped.latest(grace, other.grace)
        escalation = Stamped.latest(escalation, other.escalation)
        repeatEvery = Stamped.latest(repeatEvery, other.repeatEvery)
        for (id, tier) in other.tiers { tiers[id] = Stamped.latest(tiers[id], tier) }
        details = Stamped.latest(details, other.details)
        mail = Stamped.latest(mail, other.mail)
        for (id, record) in other.alerts { alerts[id, default: AlertRecord(id: id)].merge(record) }
        if let theirs = other.lastCheckIn, lastCheckIn.map({ Stamp.earlierInTime($0.stamp, theirs.stamp) }) ?? true {
            lastCheckIn = theirs
        }
        for checkIn in other.recentCheckIns { remember(checkIn) }
        for (device, entry) in other.devices {
            if var known = devices[device] {
                known.merge(entry, device: device)
                devices[device] = known
            } else {
                devices[device] = entry
            }
        }
        recovery = Stamped.latest(recovery, other.recovery)
        for (member, keys) in other.pins {
            for (fingerprint, pin) in keys { pins[member, default: [:]][fingerprint, default: pin].merge(pin) }
        }
        inbox = Stamped.latest(inbox, other.inbox)
        // Commitments before taps: which taps are kept prefers those with a commitment.
        for (hash, issued) in other.tokens { remember(token: hash, issued: issued) }
        for (hash, commitment) in other.ackTokens { remember(ack: hash, commitment) }
        for (key, at) in other.withdrawn { withdraw(buttonsOf: key, at: at) }
        for tap in other.phoneTaps.values { remember(tap: tap) }
        // Each log's count is bounded; their sum saturates rather than trap on hostile files.
        let (sum, overflow) = checkInCount.addingReportingOverflow(other.checkInCount)
        checkInCount = overflow ? .max : sum
    }

    /// How many recent check-ins are kept in time order, and per device in write order.
    public static let recentLimit = 4
    /// How many devices' latest check-ins are kept (those that wrote most recently).
    public static let recentDevices = 8
    /// How far ahead of the reader's clock a check-in may be stamped and still count (clocks
    /// of a circle's machines drift a little).
    public static let clockTolerance = TimeSpan.minutes(5)

    /// Keeps `checkIn` among the recent ones if it is one of the latest in time, or one of the
    /// latest its device wrote. Which check-ins are kept depends only on the set of them, not
    /// on the order they are remembered in, so merging devices' states in any order agrees.
    mutating func remember(_ checkIn: CheckIn) {
        guard !recentCheckIns.contains(where: { $0.stamp == checkIn.stamp }) else { return }
        let index = recentCheckIns.firstIndex { Stamp.earlierInTime($0.stamp, checkIn.stamp) } ?? recentCheckIns.count
        recentCheckIns.insert(checkIn, at: index)
        if recentCheckIns.count > Self.recentLimit { keepRecent() }
    }

    /// Drops the check-ins that are neither among the latest in time nor among the latest of
    /// one of the devices that wrote most recently.
    private mutating func keepRecent() {
        var keep = recentCheckIns.indices.map { $0 < Self.recentLimit }
        var byDevice: [String: [Int]] = [:]
        for (i, checkIn) in recentCheckIns.enumerated() { byDevice[checkIn.stamp.device, default: []].append(i) }
        let newest = byDevice.mapValues { indices in indices.map { recentCheckIns[$0].stamp }.max() ?? .unset }
        let devices = byDevice.keys.sorted { (newest[$0] ?? .unset) > (newest[$1] ?? .unset) }
        for device in devices.prefix(Self.recentDevices) {
            let written = (byDevice[device] ?? []).sorted {
                recentCheckIns[$0].stamp.seq > recentCheckIns[$1].stamp.seq
            }
            for i in written.prefix(Self.recentLimit) { keep[i] = true }
        }
        recentCheckIns = recentCheckIns.indices.filter { keep[$0] }.map { recentCheckIns[$0] }
    }

    /// The check-in a deadline counts from at `now`: the latest not stamped later than `now`
    /// (within the tolerance). A check-in from the future does not count until its time comes:
    /// a wrong clock must cause a loud false alarm, never a silent disarm.
    /// A tap of an "I'm OK" button that counts is a check-in too, from the phone.
    public func lastCheckIn(asOf now: Timestamp) -> CheckIn? {
        let mine = deviceCheckIn(asOf: now)
        guard let phone = phoneCheckIn(asOf: now), phone.at > mine?.at ?? Timestamp(seconds: .min) else { return mine }
        return phone
    }

    private func deviceCheckIn(asOf now: Timestamp) -> CheckIn? {
        let limit = now + Self.clockTolerance
        guard let last = lastCheckIn, last.at > limit else { return lastCheckIn }
        return recentCheckIns.first { $0.at <= limit }
    }

    /// The latest check-in stamped beyond `now` (and the tolerance), which does not count yet.
    public func futureCheckIn(asOf now: Timestamp) -> CheckIn? {
        guard let last = lastCheckIn, last.at > now + Self.clockTolerance else { return nil }
        return last
    }

    /// The alert raised most recently that has not ended (two raised in one second: the later
    /// event).
    public var activeAlert: AlertRecord? {
        alerts.values.filter { $0.isActive }.max {
            Stamp.earlierInTime($0.start ?? .unset, $1.start ?? .unset)
        }
    }

    public var effectivePreferences: FeedPreferences { preferences?.value ?? FeedPreferences() }

    public var effectiveInterval: TimeSpan { interval?.value ?? Rules.defaultInterval }
    public var effectiveReminder: TimeSpan? { reminder.map { $0.value } ?? Rules.defaultReminder }
    public var effectiveRepeat: TimeSpan? { repeatEvery.map { $0.value } ?? Repeats.defaultEvery }
}
