import LifeSignalApp
import LifeSignalCore

/// `lifesignal init`: set up this data directory with a name, interval, reminder and circle.
/// Optional — the first command that writes sets up with defaults — and safe to run again:
/// on an existing profile it changes the settings given.
enum InitCommand {
    static let name = OptionSpec.value(
        "name", "name", .prose("name"), "Your name as others see it (default: your account's name).")
    static let interval = OptionSpec.value(
        "interval", "duration", .duration,
        "Time allowed between check-ins (default \(Rules.defaultInterval); presets 8h, 16h, 24h, 48h).")
    static let reminder = OptionSpec.value(
        "reminder", "duration", .durationOrOff,
        "How long before the deadline to remind you, or off (default \(Rules.defaultReminder?.description ?? "off")).")
    static let circle = OptionSpec.value(
        "circle", "dir", .directory, "The circle folder (default: 'circle' in the data directory).")
    static let phone = OptionSpec.value(
        "phone", "number", .phone, "Your phone number, for your responders' messages (e.g. +44 20 7946 0958).")
    static let emergencyNote = OptionSpec.value(
        "emergency-note", "text", .prose("emergency note"),
        "What a responder should know in an emergency (at most 300 characters): medication, who has a key.")
    static let noPhone = OptionSpec.flag("no-phone", "Remove your phone number.")
    static let noEmergencyNote = OptionSpec.flag("no-emergency-note", "Remove your emergency note.")
    static let member = OptionSpec.value(
        "member", "code", .code,
        "Make this another device of an existing member, with the enrollment code 'lifesignal circle enroll' printed on one of their devices (or their recovery code); needs --circle."
    )

    static let spec = CommandSpec(
        name: "init",
        abstract: "Set up lifesignal here: your name, interval, reminder and circle.",
        discussion: """
            Optional: the first 'lifesignal checkin' sets up with defaults. Running init again changes the name, interval or reminder given.

            --circle puts your records in another folder, e.g. one that Syncthing or git keeps in step between machines, so that the people in your circle can see them.

            --member makes this data directory another device of someone already in the circle: run 'lifesignal circle enroll' on one of their devices and give the code it prints (valid for an hour). That device accepts this one on its next write; from then on check-ins from either count toward one deadline. A recovery code, shown once when a member is set up, does the same when all of their devices are lost.
            """,
        options: [name, interval, reminder, circle, member, phone, emergencyNote, noPhone, noEmergencyNote],
        rules: [
            .contradict("--phone", "--no-phone"), .contradict("--emergency-note", "--no-emergency-note"),
            .requires(
                "--member", "--circle",
                message: "--member needs --circle: give the circle folder the member's first device uses."),
            .excludes(
                "--member", ["--name", "--interval", "--reminder"],
                message:
                    "--member joins an existing profile: change its name, interval or reminder after joining, from any of its devices."
            ),
        ],
        examples: [
            "lifesignal init --name Ana --interval 16h --reminder 1h",
            "lifesignal init --name Ana --circle ~/Sync/family-circle",
        ],
        run: run)

    /// The request, from the line; a relative circle folder is taken from the working directory.
    static func request(_ line: Invocation, session: Session) throws(CLIError) -> App.SetUp {
        var request = App.SetUp(
            name: line.text(name)?.trimmingWhitespace, interval: line.value(interval)?.span,
            join: line.text(member).flatMap(PassedCode.init))
        if let value = line.value(reminder) { request.reminder = .some(value.span) }
        if let number = line.text(phone) { request.phone = .some(Address.normalizedPhone(number)) }
        if line.flag(noPhone) { request.phone = .some(nil) }
        if let note = line.text(emergencyNote) { request.emergencyNote = .some(note.trimmingWhitespace) }
        if line.flag(noEmergencyNote) { request.emergencyNote = .some(nil) }
        if let dir = line.text(circle) {
            if dir.hasPrefix("/") {
                request.circle = Paths.normalize(dir)
            } else if let cwd = session.context.workingDirectory {
                request.circle = Paths.normalize(Paths.join(cwd, dir))
            } else {
                throw .usage(
                    message: "--circle \(dir) is relative and the working directory is unknown; give an absolute path.",
                    command: line.path)
            }
        }
        return request
    }

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let request = try request(line, session: session)
        let done = try session.call(line.path, announce: false) { app throws(AppError) in try app.setUp(request) }
        let status = done.status
        try session.output.json(done)
        try session.output.line(headline(done))
        if let moved = done.moved {
            try session.output.line(
                "Moved your records from \(moved.from) to \(moved.to); your history came with them.")
            if !moved.cleanedUp {
                try session.output.line(
                    "The copy in \(moved.from) was left for anyone who still reads that folder; ask the people you share it with to move too ('lifesignal init --circle \(moved.to)' once the new folder syncs to them)."
                )
            }
        }
        let rows =
            [
                ("Data directory", done.dataDirectory), ("Circle", done.circle),
                ("Interval", status.interval.description),
                ("Reminder", status.reminder.map { "\($0) before the deadline" } ?? "off"),
            ]
            + done.changes.flatMap { change -> [(String, String)] in
                guard case .details(let details) = change else { return [] }
                return [("Phone", details.phone ?? "none"), ("Emergency note", details.emergencyNote ?? "none")]
            }
        for (label, value) in rows { try session.output.line("  " + label.padding(to: 16) + value) }
        if done.createdCircle {
            try session.output.line(
                "Created the circle folder \(done.circle), readable by this account only. To share it with the other accounts of this machine, its administrator gives it a common group first (install -d -m 2770 -g family \(done.circle)); see \"A circle of people\" in the README."
            )
        }
        if done.created, !done.joined, request.name == nil {
            try session.output.line(Self.defaultNameAdvice(done.name))
        }
        try saySecurity(done, session: &session)
        if status.phase == .noCheckIn { try session.output.line("Check in now with 'lifesignal checkin'.") }
        return .ok
    }

    /// A new member's recovery code; how a new device of an existing member comes to count.
    static func saySecurity(_ done: App.SetUpResult, session: inout Session) throws(CLIError) {
        if let code = done.recoveryCode {
            try session.output.line(
                "Your recovery code, shown this once: write it down and keep it somewhere safe, away from this machine. If all your devices are lost, it makes a new one ('lifesignal init --circle DIR --member CODE'):"
            )
            try session.output.line("  " + code)
        }
        switch done.joinedWith {
        case .enrollment?:
            try session.output.line(
                "This device counts once the device that made the enrollment code accepts it: on its next write ('lifesignal notify deliver' there, or its cron job). Until then nobody sees its check-ins; 'lifesignal circle devices' shows where it stands."
            )
        case .recovery?:
            try session.output.line(
                "This device speaks for \(done.name) now. Revoke the devices that were lost ('lifesignal circle devices', then 'lifesignal circle revoke DEVICE'), and make a new recovery code ('lifesignal circle recovery'): the one you used has been typed on this machine."
            )
        case nil: break
        }
    }

    /// Said when a profile takes this account's name: responders read it in every message.
    static func defaultNameAdvice(_ name: String) -> String {
        "Your responders will see you as \(name) (this account's name); to give the name they know you by: lifesignal init --name \"Your Name\"."
    }

    static func headline(_ done: App.SetUpResult) -> String {
        if done.joined {
            return
                "Set up this directory as another device of \(done.name); check-ins from any of their devices count toward one deadline."
        }
        if done.created { return "Set up lifesignal for \(done.name)." }
        if done.moved != nil, done.changes.isEmpty { return "lifesignal is set up here for \(done.name)." }
        if done.changes.isEmpty { return "lifesignal is already set up here for \(done.name); nothing changed." }
        let changes = done.changes.map { change in
            switch change {
            case .name(let name): return "name \(name)"
            case .interval(let span): return "interval \(span)"
            case .reminder(let lead): return lead.map { "reminder \($0)" } ?? "reminder off"
            case .details: return "phone and emergency note"
            }
        }
        return "lifesignal is already set up here for \(done.name); changed \(changes.joined(separator: ", "))."
    }
}

/// What `init` set up or changed, as `init --json` gives it.
extension App.SetUpResult: JSONRendered {
    var json: JSON {
        [
            "created": .bool(created), "movedFrom": .optional(moved?.from),
            "member": ["id": .string(member), "name": .string(name)], "device": .string(device),
            "dataDirectory": .string(dataDirectory), "circle": .string(circle),
            "intervalSeconds": .int(status.interval.seconds), "reminderSeconds": .optional(status.reminder?.seconds),
            "recoveryCode": .optional(recoveryCode),
            "joinedWith": .optional(joinedWith.map { $0 == .enrollment ? "enrollment" : "recovery" }),
        ]
    }
}
