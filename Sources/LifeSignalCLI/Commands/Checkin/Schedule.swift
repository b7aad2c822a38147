import LifeSignalApp
import LifeSignalCore

/// `lifesignal checkin schedule`: how the deadline is set, by the interval or by fixed times of
/// day.
enum ScheduleCommand {
    static let at = OptionSpec.values(
        "at", "time", .timeOfDay, "A time of day to check in by, e.g. 09:00 (repeatable).")
    /// The days chosen (0 = Sunday); none, the default, is every day.
    static let days = DefaultedOption(
        spec: .value(
            "days", "days", .weekdays, "Only on these days: mon,wed,fri, weekdays or weekends (default: every day)."),
        defaultValue: [Int64]()
    ) { $0.text.flatMap(ScheduleCommand.days) }
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
        name: "daily", abstract: "Check in by fixed times of day.", options: [at, days.spec, tz],
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
        try session.output.json(status)
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
        let chosen = line.value(days)
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
        try session.output.json(change.status)
        var text = describe(change.status)
        if let deadline = change.status.deadline { text += " Next deadline \(session.when(deadline))." }
        try session.output.line(text)
        return .ok
    }
}
