import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin pause`, `resume` and `trip`: the schedules besides the interval.
enum ScheduleCommand {
    static let pauseNote = OptionSpec.value(
        "note", "text", .prose("note"), "Why, for your responders (e.g. \"on holiday with Sam\").")
    static let until = OptionSpec.value(
        "until", "time", .later, "When the pause ends: a duration from now (14d) or an RFC 3339 time.")
    static let yes = OptionSpec.flag(
        "yes", short: "y", "Allow a pause longer than the limit (default \(Pause.longest.short)).")
    static let tripNote = OptionSpec.value(
        "note", "text", .prose("note"),
        "Where you are going (\"west ridge, car at the north lot\"): told to your responders only if you miss the deadline."
    )

    static let pauseSpec = CommandSpec(
        name: "pause",
        abstract: "Pause your check-ins until a time; the countdown restarts when it ends.",
        discussion: """
            While paused there is no deadline and no reminder. Your responders are told now that the pause started and when it ends, so a pause is never a silent switch-off; when it ends the countdown restarts from that moment. A pause longer than \(Pause.longest.short) (or the limit set with 'lifesignal checkin pause-limit') needs --yes. 'lifesignal checkin resume' ends it early.
            """,
        options: [until, pauseNote, yes],
        rules: [
            .atLeastOne(["--until"], message: "Say when the pause ends: --until 14d or --until 2026-12-24T18:00:00Z.")
        ],
        examples: ["lifesignal checkin pause --until 14d --note \"Sailing with Kim, back on the 15th\""],
        run: pause)

    static let resumeSpec = CommandSpec(
        name: "resume",
        abstract: "End a pause now; the countdown restarts from now.",
        run: resume)

    static let tripSpec = CommandSpec(
        name: "trip",
        abstract: "Set a one-off deadline: if you have not checked in by then, your responders are told.",
        discussion: """
            The trip's deadline replaces your interval's until your next check-in, which ends the trip. You get one reminder before it (your reminder lead). The note is kept from your responders unless you miss the deadline; then it is in what they are told.
            """,
        arguments: [
            ArgumentSpec(
                name: "deadline", kind: .later, optional: false,
                help: "A duration from now (3h) or an RFC 3339 time (2026-12-24T18:00:00Z).")
        ],
        options: [tripNote],
        examples: [
            "lifesignal checkin trip 3h --note \"West ridge trail, car at the north lot\"",
            "lifesignal checkin trip 2026-07-02T18:00:00Z",
        ],
        run: trip)

    static let at = OptionSpec.values(
        "at", "time", .timeOfDay, "A time of day to check in by, e.g. 09:00 (repeatable).")
    static let days = OptionSpec.value(
        "days", "days", .weekdays, "Only on these days: mon,wed,fri, weekdays or weekends (default: every day).")
    static let tz = OptionSpec.value(
        "tz", "zone", .text, "The time zone the times are in, e.g. Europe/London (default: this machine's).")

    static let scheduleSpec = CommandSpec(
        name: "schedule",
        abstract: "Show or choose how your deadline is set: the interval, or fixed times of day.",
        discussion: """
            'lifesignal checkin schedule daily --at 09:00 --tz Europe/London' makes your deadline the next 09:00 London time (daylight-saving changes included) instead of last check-in + interval. A check-in up to 12 hours before a time counts for it. 'lifesignal checkin schedule interval' goes back to the interval.
            """,
        subcommands: [dailySpec, intervalSpec],
        run: show)

    static let dailySpec = CommandSpec(
        name: "daily", abstract: "Check in by fixed times of day.", options: [at, days, tz],
        rules: [.atLeastOne(["--at"], message: "Say when: --at 09:00 (repeat it for several times a day).")],
        examples: [
            "lifesignal checkin schedule daily --at 09:00 --tz Europe/London",
            "lifesignal checkin schedule daily --at 08:00 --at 20:00 --days weekdays",
        ],
        run: daily)

    static let intervalSpec = CommandSpec(
        name: "interval", abstract: "Go back to the interval: last check-in + interval.", run: interval)

    /// Days of the week from `mon,wed`, `weekdays` or `weekends` (0 = Sunday); nil when not.
    static func days(_ text: String) -> [Int64]? {
        switch text {
        case "weekdays": return [1, 2, 3, 4, 5]
        case "weekends": return [0, 6]
        default:
            let names = text.lowercased().split(separator: ",").map(String.init)
            let days = names.compactMap { DailySchedule.dayNames.firstIndex(of: $0).map(Int64.init) }
            return days.count == names.count && !days.isEmpty ? days : nil
        }
    }

    static func show(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
        try session.output.json(Render.checkInJSON(status))
        try session.output.line(describe(status))
        return .ok
    }

    static func describe(_ status: CheckInStatus) -> String {
        guard let schedule = status.schedule else {
            return "Schedule: every \(status.interval) after your last check-in."
        }
        return "Schedule: check in by \(schedule.description)."
    }

    static func daily(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let times = line.texts(at).compactMap(TimeOfDay.init(parsing:))
        let chosen = line.text(days).flatMap(Self.days) ?? []
        let zone = line.text(tz)
        let change = try session.call(line.path) { app throws(AppError) in
            try app.setDailySchedule(times: times, days: chosen, zone: zone)
        }
        return try changed(change, session: &session)
    }

    static func interval(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = try session.call(line.path) { app throws(AppError) in try app.setIntervalSchedule() }
        return try changed(change, session: &session)
    }

    static func changed(_ change: App.ScheduleChange, session: inout Session) throws(CLIError) -> ExitCode {
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        var text = describe(change.status)
        if let deadline = change.status.deadline { text += " Next deadline \(session.when(deadline))." }
        try session.output.line(text)
        return .ok
    }

    static let pauseLimitSpec = CommandSpec(
        name: "pause-limit",
        abstract: "Show or set the longest pause allowed without --yes.",
        discussion: "Default \(Pause.longest.short). A longer pause is how a switch gets left off by mistake.",
        arguments: [ArgumentSpec(name: "duration", kind: .duration, optional: true, help: "e.g. 30d or 60d.")],
        run: pauseLimit)

    static func pauseLimit(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let limit = line.argument(0)?.span else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            try session.output.json(Render.checkInJSON(status))
            try session.output.line("Longest pause without --yes: \(status.pauseLimit.short).")
            return .ok
        }
        let change = try session.call(line.path) { app throws(AppError) in try app.setPauseLimit(limit) }
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line("Longest pause without --yes is now \(limit.short).")
        return .ok
    }

    static let graceSpec = CommandSpec(
        name: "grace",
        abstract: "Show or set how long after a missed deadline only you are told.",
        discussion: """
            During the grace period a missed check-in is told to you alone ("your responders are told at 09:30"); then your tier-1 responders are told. Alerts skip it. 'off' (the default) tells them at the deadline.
            """,
        arguments: [
            ArgumentSpec(name: "duration", kind: .durationOrOff, optional: true, help: "e.g. 30m, 2h, or off.")
        ],
        run: grace)

    static let escalationSpec = CommandSpec(
        name: "escalation",
        abstract: "Show or set the delay between tiers of responders.",
        discussion: """
            Responders are in tier 1 unless set otherwise ('lifesignal contacts edit NAME --tier 2'). Tier 2 is told this long after tier 1, tier 3 after twice as long, and so on, unless a responder has acknowledged ('lifesignal notify ack ID') or you have checked in. Default \(Escalation.defaultDelay.short).
            """,
        arguments: [ArgumentSpec(name: "duration", kind: .duration, optional: true, help: "e.g. 30m or 1h.")],
        run: escalation)

    static let repeatSpec = CommandSpec(
        name: "repeat",
        abstract: "Show or set how often an unanswered alarm is told again.",
        discussion: """
            A missed check-in or an active alert is told again to everyone already told, at this interval, until you check in, the alert ends, or someone acknowledges ('lifesignal notify ack ID') or vouches for you. Each repeat is a new message that says which notice it is ("second notice, 1h after the first"), threaded to the first. Default \(Repeats.defaultEvery.short); from \(Repeats.shortest.short) to \(Repeats.longest.short), or 'off' to tell each alarm once.
            """,
        arguments: [
            ArgumentSpec(name: "duration", kind: .durationOrOff, optional: true, help: "e.g. 30m, 1h, 4h, or off.")
        ],
        run: repeatEvery)

    static func repeatEvery(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let value = line.argument(0) else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            try session.output.json(Render.checkInJSON(status))
            try session.output.line(
                status.repeatEvery.map { "Repeat: an unanswered alarm is told again every \($0.short)." }
                    ?? "Repeat: off (each alarm is told once).")
            return .ok
        }
        let every = value.span
        let change = try session.call(line.path) { app throws(AppError) in try app.setRepeat(every) }
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line(
            every.map {
                "Repeat set: a missed check-in or an alert of yours is told again every \($0.short) until someone answers."
            } ?? "Repeat off: each alarm of yours is told once.")
        return .ok
    }

    static func grace(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let value = line.argument(0) else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            try session.output.json(Render.checkInJSON(status))
            try session.output.line("Grace: \(status.grace.map { "\($0) after the deadline" } ?? "off").")
            return .ok
        }
        let grace = value.span
        let change = try session.call(line.path) { app throws(AppError) in try app.setGrace(grace) }
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line(
            grace.map { "Grace set: your responders are told \($0) after a missed deadline; you are told at once." }
                ?? "Grace off: your responders are told at the deadline.")
        return .ok
    }

    static func escalation(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let delay = line.argument(0)?.span else {
            let status = try session.call(line.path) { app throws(AppError) in try app.checkInStatus() }
            try session.output.json(Render.checkInJSON(status))
            try session.output.line("Escalation: each further tier \(status.escalation) after the one before.")
            return .ok
        }
        let change = try session.call(line.path) { app throws(AppError) in try app.setEscalation(delay) }
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line(
            "Escalation set: each further tier is told \(delay) after the one before, unless someone acknowledged.")
        return .ok
    }

    static func pause(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let end = line.value(until)?.time?.resolved(now: session.now, offset: session.context.utcOffset) ?? session.now
        let note = line.text(pauseNote)
        let long = line.flag(yes)
        let change = try session.call(line.path) { app throws(AppError) in
            try app.pause(until: end, note: note, long: long)
        }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        try session.output.line(
            "Check-ins paused until \(session.when(end)): no deadline and no reminder until then. Your responders are told now and when it ends; your countdown restarts then."
        )
        return .ok
    }

    static func resume(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let change = try session.call(line.path) { app throws(AppError) in try app.resume() }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        let next = change.status.deadline.map { "; next deadline \(session.when($0))" } ?? ""
        try session.output.line("Check-ins resumed\(next).")
        return .ok
    }

    static func trip(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let deadline =
            line.argument(0)?.time?.resolved(now: session.now, offset: session.context.utcOffset) ?? session.now
        let note = line.text(tripNote)
        let change = try session.call(line.path) { app throws(AppError) in try app.trip(until: deadline, note: note) }
        change.delivery?.tellFailures(session)
        try session.output.json(Render.checkInJSON(change.status))
        // The deadline and reminder printed are the ones in force, from one status.
        let due = change.status.deadline ?? deadline
        var text = "Trip set: if you have not checked in by \(session.when(due)), your responders are told"
        text += note == nil ? "." : ", with your note."
        if let reminder = change.status.reminderAt { text += " Reminder at \(session.local(reminder))." }
        try session.output.line(text + " Checking in ends the trip.")
        return .ok
    }
}
