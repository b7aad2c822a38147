/// The schedules besides the interval: a pause (no deadline until a time, then the countdown
/// restarts from it) and a trip (a one-off deadline, ended by the next check-in). Each is a
/// setting of the member's, in their log, so every device computes the same deadlines.

/// A pause: no deadline and no reminder from when it was set (its stamp) until `until`. A
/// resume is a pause that ends when it is set.
public struct Pause: Equatable, Sendable {
    public var until: Timestamp
    public var note: String?

    public init(until: Timestamp, note: String?) {
        self.until = until
        self.note = note
    }

    /// Pauses longer than this need `--yes`: a long pause is how a switch is silently disarmed.
    public static let longest = TimeSpan.days(30)
}

/// A trip: "if I have not checked in by `deadline`, tell them" — with a note released to
/// responders only if that deadline is missed.
public struct Trip: Equatable, Sendable {
    public var deadline: Timestamp
    public var note: String?

    public init(deadline: Timestamp, note: String?) {
        self.deadline = deadline
        self.note = note
    }
}

extension Pause: Schema {
    public init() { self.init(until: Timestamp(seconds: 0), note: nil) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.time("until", &until)
        try c.optionalString("note", &note, .omitted)
    }
}

extension Trip: Schema {
    public init() { self.init(deadline: Timestamp(seconds: 0), note: nil) }

    public mutating func code<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.time("deadline", &deadline)
        try c.optionalString("note", &note, .omitted)
    }
}

extension MemberState {
    /// The pause in force at `now`: set, and not yet over.
    public func pause(at now: Timestamp) -> Stamped<Pause>? {
        guard let pause, pause.stamp.at <= now, now < pause.value.until, !tripIsNewer(than: pause.stamp) else {
            return nil
        }
        return pause
    }

    /// The trip in force: set after the last check-in (as of `now`) and not ended by a later
    /// pause. A pause ends a trip for good, as a check-in does: when the pause is over the
    /// countdown restarts from its end, as the pause promised, and a trip whose deadline passed
    /// meanwhile is not missed the moment it ends. "After" is the order of the events, not of
    /// their seconds: a check-in and a trip set in the same second are ordered by their clocks
    /// (and one device's by sequence).
    public func trip(at now: Timestamp) -> Stamped<Trip>? { trip(at: now, last: lastCheckIn(asOf: now)) }

    /// The same, with `last` as the last check-in.
    func trip(at now: Timestamp, last: CheckIn?) -> Stamped<Trip>? {
        guard let trip, trip.stamp.at <= now else { return nil }
        if let last, !Stamp.earlierInTime(last.stamp, trip.stamp) { return nil }
        if let pause, pause.stamp > trip.stamp, pause.stamp.at <= now { return nil }
        return trip
    }

    private func tripIsNewer(than stamp: Stamp) -> Bool { trip.map { $0.stamp > stamp } ?? false }

    /// When the countdown restarts after a pause that ended after `last` (and by `now`).
    func countdownStart(after last: Timestamp, now: Timestamp) -> Timestamp {
        guard let pause, pause.value.until > last, pause.value.until <= now, pause.stamp.at <= pause.value.until
        else { return last }
        return pause.value.until
    }
}
