import LifeSignalCore
import LifeSignalStore

/// The schedules besides the interval: pausing (and resuming) check-ins, and trips.
extension App {
    /// A schedule just changed: where it leaves me, and how telling my responders went.
    public struct ScheduleChange: Sendable {
        public var status: CheckInStatus
        public var delivery: DeliveryReport?
    }

    /// Pauses my check-ins until `until`: no deadline and no reminder until then, my
    /// responders are told now and when it ends, and the countdown restarts from its end. One
    /// longer than `Pause.longest` needs `long` (the caller's `--yes`).
    public func pause(until: Timestamp, note: String?, long: Bool) throws(AppError) -> ScheduleChange {
        try checkEnd(until, long: long, tooLong: Rules.SettingError.pauseTooLong)
        return try scheduleChange(PauseSet(pause: Pause(until: until, note: note)))
    }

    /// A pause's or trip's end must be in the future, and no further away than my pause limit
    /// unless `long`: past it, the alarm is as good as switched off.
    private func checkEnd(_ end: Timestamp, long: Bool, tooLong: (TimeSpan, TimeSpan) -> Rules.SettingError)
        throws(AppError)
    {
        let now = self.now
        guard end > now else { throw .refused(.setting(.notInFuture(end))) }
        let limit = try readMine().pauseLimit?.value ?? Pause.longest
        guard long || end - now <= limit else { throw .refused(.setting(tooLong(end - now, limit))) }
    }

    /// Sets the longest pause allowed without confirmation.
    public func setPauseLimit(_ limit: TimeSpan) throws(AppError) -> ScheduleChange {
        try scheduleChange(PauseLimitSet(limit: limit))
    }

    /// Ends the pause in force now; the countdown restarts from now.
    public func resume() throws(AppError) -> ScheduleChange {
        let now = self.now
        guard (try readMine()).pause(at: now) != nil else { throw .refused(.setting(.notPaused)) }
        return try scheduleChange(PauseSet(pause: Pause(until: now, note: nil)))
    }

    /// Sets a one-off deadline, in force until my next check-in; `note` goes to my responders
    /// only if I miss it. One further away than my pause limit needs `long` (the caller's
    /// `--yes`), as a pause does: a trip to 2027 for "tomorrow 18:00" would switch the alarm off
    /// for a year, told to nobody.
    public func trip(until deadline: Timestamp, note: String?, long: Bool) throws(AppError) -> ScheduleChange {
        try checkEnd(deadline, long: long, tooLong: Rules.SettingError.tripTooLong)
        return try scheduleChange(TripSet(trip: Trip(deadline: deadline, note: note)))
    }

    /// Records a schedule change and tells whom it concerns at once (a pause is told to my
    /// responders when it starts, never silently).
    private func scheduleChange(_ event: any EventBody) throws(AppError) -> ScheduleChange {
        let now = self.now
        let status = try write(needs: .circleAndFeed) { transaction throws(AppError) in
            transaction.record(event, at: now)
            transaction.noticeDue(now: now)
            return CheckInStatus(member: transaction.memberState, now: now)
        }
        return ScheduleChange(status: status, delivery: try deliver())
    }
}

extension App {
    /// Checks in by fixed times of day from now on, in `zone` (a zone name; nil: this
    /// machine's zone, which must then have a name or a rule).
    ///
    /// Without a zone, a schedule that already has one keeps it: "at 08:00" set in Europe/London
    /// stays London's, rather than quietly becoming this machine's zone.
    public func setDailySchedule(times: [TimeOfDay], days: [Int64], zone: String?) throws(AppError) -> ScheduleChange {
        let current = zone == nil ? try readMine().schedule?.value : nil
        let (name, rule) =
            if let current {
                (try? zoneRule(current.zone)) ?? (current.zone, current.rule)
            } else {
                try zoneRule(zone)
            }
        return try scheduleChange(
            ScheduleSet(schedule: DailySchedule(times: times, days: days, zone: name, rule: rule)))
    }

    /// Back to the interval.
    public func setIntervalSchedule() throws(AppError) -> ScheduleChange {
        try scheduleChange(ScheduleSet(schedule: nil))
    }

    /// A zone's name and its current POSIX TZ rule (what deadlines are computed with).
    private func zoneRule(_ zone: String?) throws(AppError) -> (name: String, rule: String) {
        let directory = ZoneFiles.directory(tzdir: environment["TZDIR"])
        let named: NamedZone
        do {
            if let zone {
                named = NamedZone(name: zone, rules: try ZoneFiles.load(zone, directory: directory))
            } else {
                named = try ZoneFiles.local(tz: environment["TZ"], directory: directory)
            }
        } catch {
            throw .refused(.setting(.unusableZone(zone ?? environment["TZ"] ?? "local", reason: Self.reason(error))))
        }
        let rule = named.rules.footerText.isEmpty && named.rules == .utc ? "UTC0" : named.rules.footerText
        guard !rule.isEmpty, (try? ZoneRules(posixTZ: rule)) != nil else {
            throw .refused(
                .setting(
                    .unusableZone(
                        named.name ?? zone ?? "local", reason: "its zone file carries no rule for future dates")))
        }
        // The rule stands for the zone only where the zone's own table agrees with it.
        let now = self.now
        if let from = named.rules.ruleDisagrees(from: now, through: now + .days(366)) {
            let real = named.rules.offset(at: from).seconds
            let hours = -real / 3600
            let fixed =
                real % 3600 == 0
                ? "--tz Etc/GMT\(hours >= 0 ? "+" : "-")\(abs(hours)) for UTC\(real >= 0 ? "+" : "−")\(abs(real) / 3600) (and set it again when the clocks there change), or "
                : ""
            throw .refused(
                .setting(
                    .unusableZone(
                        named.name ?? zone ?? "local",
                        reason:
                            "from \(from.rfc3339) its clock follows exceptions that the rule it carries for later years cannot describe, and deadlines would be off by the difference; use \(fixed)the interval schedule"
                    )))
        }
        return (named.name ?? rule, rule)
    }

    static func reason(_ error: ZoneLoadError) -> String {
        switch error {
        case .invalidName: return "that is not a zone name"
        case .unknownZone(_, let path): return "there is no zone file \(path)"
        case .unreadable(let path, let reason): return "\(path) cannot be read (\(reason))"
        case .damaged(let path, let problem): return "\(path) is not a valid zone file (\(problem))"
        case .badTZ(let value, let problem): return "TZ=\(value) is no zone (\(problem))"
        }
    }
}

extension App {
    /// Sets how long after a missed deadline only I am told (nil: no grace).
    public func setGrace(_ grace: TimeSpan?) throws(AppError) -> ScheduleChange {
        if let grace, grace > Escalation.longestGrace { throw .refused(.setting(.graceTooLong(grace))) }
        return try scheduleChange(GraceSet(grace: grace))
    }

    /// Sets how often my unanswered alarms are told again (nil: never).
    public func setRepeat(_ every: TimeSpan?) throws(AppError) -> ScheduleChange {
        if let every, !(Repeats.shortest...Repeats.longest).contains(every) {
            throw .refused(.setting(.repeatOutOfRange(every)))
        }
        return try scheduleChange(RepeatSet(every: every))
    }

    /// Sets the delay between tiers of my responders.
    public func setEscalation(_ delay: TimeSpan) throws(AppError) -> ScheduleChange {
        guard Escalation.delays.contains(delay) else { throw .refused(.setting(.escalationOutOfRange(delay))) }
        return try scheduleChange(EscalationSet(delay: delay))
    }
}
