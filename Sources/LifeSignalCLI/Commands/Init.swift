import LifeSignalCore
import LifeSignalStore

/// `lifesignal init`: set up this data directory with a name, interval, reminder and circle.
/// Optional — the first command that writes sets up with defaults — and safe to run again:
/// on an existing profile it changes the settings given.
enum InitCommand {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Set up lifesignal here: your name, interval, reminder and circle.",
        discussion: """
            Optional: the first 'lifesignal checkin' sets up with defaults. Running init again changes the name, interval or reminder given.

            --circle puts your records in another folder, e.g. one that Syncthing or git keeps in step between machines, so that the people in your circle can see them.

            --member makes this data directory a second device of someone already in the circle (run 'lifesignal contacts code' on the first device to get the code): check-ins from either count toward one deadline.
            """,
        options: [
            .value("name", "name", .text, "Your name as others see it (default: your account's name)."),
            .value(
                "interval", "duration", .duration,
                "Time allowed between check-ins (default 24h; presets 8h, 16h, 24h, 48h)."),
            .value(
                "reminder", "duration", .durationOrOff,
                "How long before the deadline to remind you, or off (default 30m)."),
            .value("circle", "dir", .directory, "The circle folder (default: 'circle' in the data directory)."),
            .value(
                "member", "code", .text,
                "Make this another device of the member with this invite code (e.g. a home server that checks in for you); needs --circle."
            ),
        ],
        run: { invocation, session throws(CLIError) in try run(invocation, &session) })

    static func run(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        if let name = invocation.value("name"), let problem = Rules.problem(withText: name, field: "name") {
            throw .usage(message: "The value for '--name <name>' is invalid: \(problem).", command: invocation.path)
        }
        let name = invocation.value("name")?.trimmingWhitespace
        let interval = invocation.value("interval").flatMap(TimeSpan.init(parsing:))
        let reminderText = invocation.value("reminder")
        let reminderGiven = reminderText != nil
        let reminder: TimeSpan? = reminderText.flatMap { $0 == "off" ? nil : TimeSpan(parsing: $0) }
        var circle: String? = nil
        if let dir = invocation.value("circle") {
            if dir.hasPrefix("/") {
                circle = Paths.normalize(dir)
            } else if let cwd = session.context.workingDirectory {
                circle = Paths.normalize(Paths.join(cwd, dir))
            } else {
                throw .usage(
                    message: "--circle \(dir) is relative and the working directory is unknown; give an absolute path.",
                    command: invocation.path)
            }
        }
        var joining: String? = nil
        if let codeText = invocation.value("member") {
            guard let circle else {
                throw .usage(
                    message: "--member needs --circle: give the circle folder the member's first device uses.",
                    command: invocation.path)
            }
            guard let code = ContactsCommand.parseCode(codeText) else {
                throw .usage(
                    message:
                        "The value '\(codeText)' is invalid for '--member <code>': give an invite code such as lifesignal://1b4e28ba-2fa1-11d2-883f-0016b3e4a2f5.",
                    command: invocation.path)
            }
            if name != nil || interval != nil || reminderGiven {
                throw .usage(
                    message:
                        "--member joins an existing profile: change its name, interval or reminder after joining, from any of its devices.",
                    command: invocation.path)
            }
            let read = try storeCall { () throws(StoreError) in try Store.peek(circle: circle) }
            guard let member = read.state.member(withCode: code) else {
                throw .invalidValue(
                    "No LifeSignal user found for this QR code in \(circle). Check the folder, and that the first device's records have synced."
                )
            }
            joining = member
        }
        let profile = NewProfile(
            name: name ?? session.accountDisplayName, interval: interval ?? Rules.defaultInterval,
            reminder: reminderGiven ? reminder : Rules.defaultReminder, circle: circle, joining: joining)
        try CheckinCommand.check(interval: profile.interval, reminder: profile.reminder)

        let now = session.now
        var changes: [String] = []
        let (store, state, wasNew) = try session.update(creation: .ifMissing(profile), announce: false) { transaction in
            let isNew = transaction.createdProfile
            if !isNew, joining != nil {
                throw CLIError.invalidValue(
                    "this data directory is already set up (member \(transaction.member)); use a new data directory (--home) for another device"
                )
            }
            if let circle, transaction.store.identity.circle != circle, transaction.store.circleDirectory != circle {
                throw CLIError.invalidValue(
                    "this data directory already keeps its records in the circle \(transaction.store.circleDirectory); moving to another circle is not supported. Use another data directory (--home) for the new circle"
                )
            }
            if !isNew {
                let current = transaction.memberState
                if let name, current.name?.value != name {
                    transaction.record(NameSet(name: name), at: now)
                    changes.append("name \(name)")
                }
                let newInterval = interval ?? current.effectiveInterval
                let newReminder = reminderGiven ? reminder : current.effectiveReminder
                if interval != nil || reminderGiven {
                    try CheckinCommand.check(interval: newInterval, reminder: newReminder)
                }
                if let interval, current.effectiveInterval != interval {
                    transaction.record(IntervalSet(interval: interval), at: now)
                    changes.append("interval \(interval)")
                }
                if reminderGiven, current.effectiveReminder != reminder {
                    transaction.record(ReminderSet(reminder: reminder), at: now)
                    changes.append(reminder.map { "reminder \($0)" } ?? "reminder off")
                }
            }
            return (transaction.store, transaction.memberState, isNew)
        }
        let status = CheckInStatus(member: state, now: now)
        let displayName = state.name?.value ?? profile.name
        try session.output.json(
            .object(
                JSONObject([
                    ("created", .bool(wasNew)),
                    (
                        "member",
                        .object(JSONObject([("id", .string(store.identity.member)), ("name", .string(displayName))]))
                    ),
                    ("device", .string(store.identity.device)),
                    ("dataDirectory", .string(store.dataDirectory)),
                    ("circle", .string(store.circleDirectory)),
                    ("intervalSeconds", .int(status.interval.seconds)),
                    ("reminderSeconds", .optional(status.reminder?.seconds)),
                ])))
        if wasNew, joining != nil {
            try session.output.line(
                "Set up this directory as another device of \(displayName); check-ins from any of their devices count toward one deadline."
            )
        } else if wasNew {
            try session.output.line("Set up lifesignal for \(displayName).")
        } else if changes.isEmpty {
            try session.output.line("lifesignal is already set up here for \(displayName); nothing changed.")
        } else {
            try session.output.line(
                "lifesignal is already set up here for \(displayName); changed \(changes.joined(separator: ", ")).")
        }
        let rows = [
            ("Data directory", store.dataDirectory), ("Circle", store.circleDirectory),
            ("Interval", status.interval.description),
            ("Reminder", status.reminder.map { "\($0) before the deadline" } ?? "off"),
        ]
        for (label, value) in rows { try session.output.line("  " + label.padding(to: 16) + value) }
        if status.phase == .noCheckIn { try session.output.line("Check in now with 'lifesignal checkin'.") }
        return .ok
    }
}
