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

    public init(member: MemberState, now: Timestamp) {
        interval = member.effectiveInterval
        reminder = member.effectiveReminder
        futureCheckIn = member.futureCheckIn(asOf: now)
        lastCheckIn = member.lastCheckIn(asOf: now)
        guard let last = lastCheckIn else {
            phase = .noCheckIn
            deadline = nil
            reminderAt = nil
            timeLeft = nil
            return
        }
        let deadline = last.at + interval
        self.deadline = deadline
        reminderAt = reminder.map { deadline - $0 }
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
