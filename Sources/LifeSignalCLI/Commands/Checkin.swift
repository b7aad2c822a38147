import LifeSignalCore
import LifeSignalStore

/// `lifesignal checkin` and its subcommands: record a check-in, show where you stand, the
/// history, and the interval and reminder settings.
enum CheckinCommand {
    static let spec = CommandSpec(
        name: "checkin",
        abstract: "Record that you are OK and restart your countdown.",
        discussion: """
            Your deadline becomes now + your interval. The first check-in on a new machine also \
            creates your profile (24h interval, reminder 30m before the deadline).
            """,
        options: [.value("note", "text", .text, "Attach a note to this check-in (e.g. where you are going).")],
        subcommands: [statusSpec, historySpec, intervalSpec, reminderSpec],
        run: { invocation, session throws(CLIError) in try checkin(invocation, &session) })

    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "Show your last check-in, deadline, time left and reminder time.",
        discussion:
            "Exits 0 when on time, 3 when the reminder time has come, 4 when overdue (see 'lifesignal help exit-codes').",
        run: { invocation, session throws(CLIError) in try status(invocation, &session) })

    static let historySpec = CommandSpec(
        name: "history",
        abstract: "List your check-ins, newest first.",
        options: [
            .value("limit", "n", .count, "Show at most this many (default 20)."),
            .value(
                "since", "time", .time,
                "Only check-ins at or after this time (RFC 3339, or a duration such as 7d meaning that long ago)."),
        ],
        run: { invocation, session throws(CLIError) in try history(invocation, &session) })

    static let intervalSpec = CommandSpec(
        name: "interval",
        abstract: "Show or set how long you may go between check-ins.",
        discussion: """
            Presets: 8h, 16h, 24h (the default), 48h. Any duration from 10m to 30d is accepted, e.g. 36h, 3d, or 45m for a short trip.

            Changing the interval moves your deadline to your last check-in + the new interval. It is not a check-in: a shorter interval can make you overdue at once.
            """,
        arguments: [
            ArgumentSpec(
                name: "duration", kind: .duration, optional: true,
                help: "The new interval, e.g. 8h, 16h, 24h, 48h, 1d12h.")
        ],
        run: { invocation, session throws(CLIError) in try interval(invocation, &session) })

    static let reminderSpec = CommandSpec(
        name: "reminder",
        abstract: "Show or set how long before your deadline you are reminded.",
        discussion: "Presets: 30m (the default), 1h, 2h, 4h, 6h, or off. It must be shorter than your interval.",
        arguments: [
            ArgumentSpec(
                name: "lead", kind: .durationOrOff, optional: true, help: "The new lead time, e.g. 30m, 2h, or off.")
        ],
        run: { invocation, session throws(CLIError) in try reminder(invocation, &session) })

    // MARK: - checkin

    static func checkin(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let note = invocation.value("note")
        if let note, let problem = Rules.problem(withText: note, field: "note") {
            throw .usage(message: "The value for '--note <text>' is invalid: \(problem).", command: invocation.path)
        }
        let now = session.now
        let (status, seq, device) = try session.update { transaction in
            transaction.record(CheckedIn(note: note), at: now)
            return (
                CheckInStatus(member: transaction.memberState, now: now), transaction.log.lastSeq,
                transaction.log.device
            )
        }
        Render.clockWarning(status, session: session)
        try session.output.json(
            .object(
                JSONObject([
                    (
                        "checkedIn",
                        .object(
                            JSONObject([
                                ("at", .string(now.rfc3339)), ("note", .optional(note)), ("device", .string(device)),
                                ("seq", .int(seq)),
                            ]))
                    ),
                    ("checkIn", Render.checkInJSON(status)),
                ])))
        try session.output.line("Checked in at \(session.local(now)).")
        if let deadline = status.deadline {
            var text = "Next deadline \(session.when(deadline))"
            if let reminderAt = status.reminderAt { text += "; reminder at \(session.local(reminderAt))" }
            try session.output.line(text + ".")
        }
        return .ok
    }

    // MARK: - status

    static func status(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let state = try session.snapshot(store).state.members[store.identity.member] ?? MemberState()
        let status = CheckInStatus(member: state, now: session.now)
        Render.clockWarning(status, session: session)
        try session.output.json(Render.checkInJSON(status))
        for line in Render.checkInLines(status, session: session) { try session.output.line(line) }
        return Render.exitCode(for: status.phase)
    }

    // MARK: - history

    static func history(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let limit = invocation.value("limit").flatMap { Int($0) } ?? 20
        var since: Timestamp? = nil
        if let text = invocation.value("since") {
            since = Timestamp(rfc3339: text) ?? TimeSpan(parsing: text).map { session.now - $0 }
        }
        let store = try session.openStore()
        let member = store.identity.member
        let read = try session.readCircle(store)
        let checkIns = try storeCall { () throws(StoreError) in
            try store.checkIns(of: member, in: read, limit: limit, since: since)
        }
        let state = read.state.members[member] ?? MemberState()
        let devices = read.logs.filter { $0.member == member }
        try session.output.json(
            .object(
                JSONObject([
                    (
                        "checkIns",
                        .array(
                            checkIns.map {
                                .object(
                                    JSONObject([
                                        ("at", .string($0.at.rfc3339)), ("note", .optional($0.note)),
                                        ("device", .string($0.stamp.device)),
                                    ]))
                            })
                    ),
                    ("total", .int(state.checkInCount)),
                ])))
        if checkIns.isEmpty {
            try session.output.line(
                since == nil ? "No check-ins yet." : "No check-ins since \(session.local(since ?? session.now)).")
            return .ok
        }
        for checkIn in checkIns {
            var line = session.local(checkIn.at) + "  " + Relative.phrase(checkIn.at, now: session.now).padding(to: 12)
            if devices.count > 1 { line += " [\(checkIn.stamp.device.prefix(8))]" }
            if let note = checkIn.note { line += " " + note }
            try session.output.line(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        return .ok
    }

    // MARK: - interval and reminder

    static func interval(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let text = invocation.argument(0), let span = TimeSpan(parsing: text) else {
            return try showSetting(session: &session, store: session.openStore()) { status in
                "Check-in interval: \(status.interval)."
            }
        }
        let now = session.now
        let status = try session.update { transaction in
            let current = transaction.memberState
            try check(interval: span, reminder: current.effectiveReminder)
            transaction.record(IntervalSet(interval: span), at: now)
            return CheckInStatus(member: transaction.memberState, now: now)
        }
        try session.output.json(Render.checkInJSON(status))
        try session.output.line("Check-in interval set to \(span).")
        try settingConsequence(status, session: &session)
        return .ok
    }

    static func reminder(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let text = invocation.argument(0) else {
            return try showSetting(session: &session, store: session.openStore()) { status in
                status.reminder.map { "Reminder: \($0) before the deadline." } ?? "Reminder: off."
            }
        }
        let lead: TimeSpan? = text == "off" ? nil : TimeSpan(parsing: text)
        let now = session.now
        let status = try session.update { transaction in
            try check(interval: transaction.memberState.effectiveInterval, reminder: lead)
            transaction.record(ReminderSet(reminder: lead), at: now)
            return CheckInStatus(member: transaction.memberState, now: now)
        }
        try session.output.json(Render.checkInJSON(status))
        try session.output.line(lead.map { "Reminder set to \($0) before the deadline." } ?? "Reminder turned off.")
        try settingConsequence(status, session: &session)
        return .ok
    }

    private static func showSetting(session: inout Session, store: Store, _ text: (CheckInStatus) -> String)
        throws(CLIError) -> ExitCode
    {
        let state = try session.snapshot(store).state.members[store.identity.member] ?? MemberState()
        let status = CheckInStatus(member: state, now: session.now)
        try session.output.json(Render.checkInJSON(status))
        try session.output.line(text(status))
        return .ok
    }

    /// What a settings change means for the deadline, said right after it.
    private static func settingConsequence(_ status: CheckInStatus, session: inout Session) throws(CLIError) {
        guard let deadline = status.deadline, let left = status.timeLeft else { return }
        if left.seconds < 0 {
            try session.output.line(
                "Your deadline \(session.when(deadline)) has passed: you are overdue by \((-left).short). Check in with 'lifesignal checkin'."
            )
        } else {
            var text = "Deadline \(session.when(deadline))"
            if let reminderAt = status.reminderAt { text += "; reminder at \(session.local(reminderAt))" }
            try session.output.line(text + ".")
        }
    }

    static func check(interval: TimeSpan, reminder: TimeSpan?) throws(CLIError) {
        do {
            try Rules.check(interval: interval, reminder: reminder)
        } catch {
            switch error {
            case .intervalOutOfRange(let span):
                throw .invalidValue(
                    "an interval of \(span) is outside the accepted range \(Rules.intervalRange.lowerBound)–\(Rules.intervalRange.upperBound); choose e.g. 8h, 16h, 24h or 48h"
                )
            case .reminderNotShorter(let reminder, let interval):
                throw .invalidValue(
                    "the reminder (\(reminder) before the deadline) must be shorter than the interval (\(interval)); set a shorter reminder first with 'lifesignal checkin reminder 30m', or turn it off with 'lifesignal checkin reminder off'"
                )
            }
        }
    }
}

/// Runs a store read and turns its error into a `CLIError`.
func storeCall<T>(_ body: () throws(StoreError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw .store(error)
    }
}
