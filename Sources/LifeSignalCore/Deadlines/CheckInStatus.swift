/// Where a member stands against their deadline at a given instant. Never stored: computed
/// from `MemberState` and `now` on every invocation.
public struct CheckInStatus: Equatable, Sendable {
    public enum Phase: String, Sendable {
        /// Never checked in: there is no deadline yet.
        case noCheckIn
        /// Before the reminder time (or reminders are off and the deadline is ahead).
        case ok
        /// At or after the reminder time, and not past the deadline.
        case dueSoon
        /// Strictly after the deadline.
        case overdue
        /// A pause is in force: no deadline, no reminder until it ends.
        case paused
    }

    public var phase: Phase
    public var lastCheckIn: MemberState.CheckIn?
    public var interval: TimeSpan
    public var reminder: TimeSpan?
    public var deadline: Timestamp?
    public var reminderAt: Timestamp?
    /// deadline − now: positive while time is left, negative once overdue.
    public var timeLeft: TimeSpan?
    /// A check-in stamped later than this clock (a wrong clock on some device, a "what if"
    /// run): it does not count until its time comes.
    public var futureCheckIn: MemberState.CheckIn?
    /// The clock reads earlier than the latest check-in (one stamped in the future).
    public var clockBehind: Bool { futureCheckIn != nil }
    /// The pause in force, and when it was set.
    public var pause: Stamped<Pause>?
    /// The trip in force: its deadline replaces the interval's until the next check-in.
    public var trip: Stamped<Trip>?
    /// Fixed times of day in force instead of the interval.
    public var schedule: DailySchedule?
    /// How long after a missed deadline only the member is told, and the delay between tiers.
    public var grace: TimeSpan?
    public var escalation: TimeSpan
    /// How often an unanswered alarm is told again (nil: never).
    public var repeatEvery: TimeSpan?
    /// The longest pause allowed without confirmation.
    public var pauseLimit: TimeSpan

    /// The instant this status is for.
    public var now: Timestamp
    /// The vouch the countdown runs from, when it came after the last check-in, and how many
    /// misses in a row vouches have ended (at `Vouching.inARow`, the next miss cannot be).
    public var vouch: Vouch?
    public var vouchedInARow = 0

    /// Where a member stands, counting the vouches of those who watch over them (see
    /// `CircleState.status(of:now:)`, which finds them).
    public init(member: MemberState, now: Timestamp, vouches: [Vouch]) {
        guard !vouches.isEmpty else {
            self.init(member: member, now: now)
            return
        }
        let (vouch, inARow) = Vouching.accepted(vouches, member: member, now: now)
        self.init(member: member, now: now, counting: vouch)
        vouchedInARow = inARow
    }

    public init(member: MemberState, now: Timestamp) {
        self.init(member: member, now: now, counting: nil)
    }

    /// Where a member stood just before `checkIn`: with the check-ins before it only, and
    /// what was set up to its second (a trip set in the same second before it).
    init(member: MemberState, before checkIn: MemberState.CheckIn) {
        // Check-ins count up to the clock tolerance ahead of `now`: those up to a second before.
        let earlier = member.lastCheckIn(asOf: checkIn.at - MemberState.clockTolerance - TimeSpan(seconds: 1))
        self.init(member: member, now: checkIn.at, counting: nil, last: .some(earlier))
    }

    /// Where a member stands, the countdown running from `vouch` when it came after the last
    /// check-in (`last`, when given, instead of the one `member` has at `now`).
    init(member: MemberState, now: Timestamp, counting vouch: Vouch?, last: MemberState.CheckIn?? = nil) {
        self.now = now
        interval = member.effectiveInterval
        reminder = member.effectiveReminder
        futureCheckIn = member.futureCheckIn(asOf: now)
        lastCheckIn = last ?? member.lastCheckIn(asOf: now)
        pause = member.pause(at: now)
        trip = member.trip(at: now, last: lastCheckIn)
        schedule = member.schedule?.value
        grace = member.effectiveGrace
        escalation = member.effectiveEscalation
        repeatEvery = member.effectiveRepeat
        pauseLimit = member.pauseLimit?.value ?? Pause.longest
        guard pause == nil, let last = lastCheckIn else {
            phase = pause == nil ? .noCheckIn : .paused
            deadline = nil
            reminderAt = nil
            timeLeft = nil
            return
        }
        if let vouch, vouch.at > last.at {
            self.vouch = vouch
            // A vouch ends a trip as a check-in would: the next countdown is the interval's.
            if let set = trip?.stamp.at, set < vouch.at { trip = nil }
        }
        let start = member.countdownStart(after: max(last.at, self.vouch?.at ?? last.at), now: now)
        let deadline = trip?.value.deadline ?? schedule.flatMap { $0.deadline(after: start) } ?? start + interval
        self.deadline = deadline
        // A trip gets one reminder, never before it was set.
        let tripSet = trip?.stamp.at
        reminderAt = reminder.map { lead in tripSet.map { max(deadline - lead, $0) } ?? deadline - lead }
        timeLeft = deadline - now
        if now > deadline {
            phase = .overdue
        } else if let reminderAt, now >= reminderAt {
            phase = .dueSoon
        } else {
            phase = .ok
        }
    }
}

extension CheckInStatus {
    /// The next thing that will happen by itself, and when: the pause ends, the reminder, the
    /// deadline; nil once overdue or before the first check-in.
    public var next: (what: String, at: Timestamp)? {
        if let pause { return ("resume", pause.value.until) }
        if let reminderAt, reminderAt > now { return ("reminder", reminderAt) }
        if let deadline, deadline >= now { return ("deadline", deadline) }
        return nil
    }
}
