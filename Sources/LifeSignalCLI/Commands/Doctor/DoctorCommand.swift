import LifeSignalApp
import LifeSignalCore

/// `lifesignal doctor`: checks the whole chain from this data directory to the people who
/// must hear, one finding per line, each failing one with what to do.
enum DoctorCommand {
    static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check that the people who watch over you will hear; say what to fix.",
        discussion: """
            Checks the data directory and the environment that chose it (run it from cron's environment to see what cron sees), the profile and circle, your countdown, your responders and whether they can be reached, each channel and heartbeat URL as this machine has seen them, when 'notify deliver' last ran, how fresh each member's records are, and the clock. Exits 0 when all is well, 7 when a check failed.
            """,
        examples: ["lifesignal doctor", "env -i HOME=$HOME PATH=/usr/bin:/bin /usr/local/bin/lifesignal doctor"],
        run: run)

    /// One line of the report.
    struct Finding {
        var check: String
        var ok: Bool
        var message: String
        var fix: String?
        var code: DoctorFailure?

        var json: JSON {
            [
                "check": .string(check), "ok": .bool(ok), "message": .string(message), "fix": .optional(fix),
                "code": .optional(code?.code),
            ]
        }
    }

    /// Every finding, and whether all were well.
    struct Report: JSONRendered {
        var findings: [Finding]

        var json: JSON { ["ok": .bool(findings.allSatisfy(\.ok)), "checks": .array(findings.map(\.json))] }
    }

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let directory = try session.dataDirectory()
        var findings = [
            Finding(
                check: "data-directory", ok: true,
                message: "data directory \(directory), \(session.dataDirectoryOrigin())")
        ]
        do {
            let checkup = try session.call(line.path) { app throws(AppError) in try app.checkup() }
            findings += DoctorFindings(checkup: checkup, session: session).all
        } catch {
            findings.append(
                Finding(
                    check: "profile", ok: false, message: error.message, fix: nil, code: .unreadable))
        }
        try session.output.json(Report(findings: findings))
        let o = session.output
        for finding in findings {
            let mark = finding.ok ? o.green("ok  ") : o.red("FAIL")
            try session.output.line("\(mark)  \(finding.message)")
            if let fix = finding.fix, !finding.ok { try session.output.line("      fix: \(fix)") }
        }
        return findings.allSatisfy(\.ok) ? .ok : .checkupFailed
    }
}

/// The findings of one checkup, in the order of the chain.
struct DoctorFindings {
    typealias Finding = DoctorCommand.Finding
    let checkup: App.Checkup
    let session: Session

    var all: [Finding] {
        [profile, writable, countdown] + schedule + [devices] + responders + [ownChannels] + channels
            + commandsElsewhere
            + heartbeats + inbox + phoneFile + [delivery, sync] + readers + unconfirmed + members + [clock]
    }

    /// How this copy of the circle is kept current, and whether the engine says it is.
    /// Who besides the members' devices can read the circle: said, never a failure (a host
    /// the members trust may read it), with the way to change it.
    var readers: [Finding] {
        checkup.readers.map { Finding(check: "readers", ok: true, message: "circle: \($0.message)") }
    }

    var sync: Finding {
        let view = checkup.sync
        let text = "circle sync: " + CircleCommand.describe(view, session: session)
        guard let code = checkup.syncFails else { return Finding(check: "sync", ok: true, message: text) }
        let fix =
            switch view.engine {
            case .git:
                "check the remote and run 'lifesignal circle sync' (it runs from cron: */5 * * * * lifesignal circle sync && lifesignal notify deliver)"
            case .syncthing: "check that Syncthing runs here ('lifesignal circle syncthing' to give its API)"
            case .direct, .other: "restore or remove sync.json as said, then 'lifesignal circle engine auto|other'"
            }
        return Finding(check: "sync", ok: false, message: text, fix: fix, code: code)
    }

    /// Misses of dependents that this copy cannot confirm.
    var unconfirmed: [Finding] {
        checkup.unconfirmedMisses.map {
            Finding(
                check: "circle", ok: false, message: $0.message, fix: "lifesignal circle status", code: .warning($0))
        }
    }

    /// Whether a check-in here could be written at all (a read-only data directory reads fine).
    var writable: Finding {
        guard let problem = checkup.writeProblem, let code = checkup.writableFails else {
            return Finding(
                check: "writable", ok: true, message: "this data directory and its circle folder can be written")
        }
        if case .deviceKey = problem {
            return Finding(
                check: "writable", ok: false, message: "a check-in here would fail: \(problem.message)",
                fix: "restore device.key, or set this machine up again as a new device", code: .deviceKeyUnusable)
        }
        return Finding(
            check: "writable", ok: false, message: "a check-in here would fail: \(problem.message)",
            fix: "make the data directory writable by the account cron runs lifesignal as", code: code)
    }

    /// Command channels set on another device of mine: they run there only, and this machine
    /// says so rather than let the person believe they run everywhere.
    var commandsElsewhere: [Finding] {
        checkup.commandsElsewhere.map { command in
            let whose = command.owner == "you" ? "your channel" : "channel of \(command.owner)"
            return Finding(
                check: "channels", ok: true,
                message:
                    "\(whose) \(command.channel): set on your device \(command.device.prefix(8)), runs only there (a command channel runs only on the device that set it)"
            )
        }
    }

    var profile: Finding {
        Finding(
            check: "profile", ok: true,
            message:
                "profile \(checkup.name) (member \(checkup.member.prefix(8)), device \(checkup.device.prefix(8))), circle \(checkup.circle)"
        )
    }

    /// Whether what this device and the others of mine write counts, and whether a recovery
    /// code exists for when all are lost.
    var devices: Finding {
        let devices = checkup.devices
        if let doubt = checkup.devicesDoubt {
            return Finding(
                check: "devices", ok: false, message: doubt.message, fix: "lifesignal circle devices",
                code: .warning(doubt))
        }
        // A key that cannot be used fails 'writable', with its way out.
        var key =
            devices.fingerprint.map { "this device signs with key \($0); " }
            ?? "this device signs from its next write; "
        if case .deviceKey? = checkup.writeProblem { key = "" }
        let count = devices.counting == 1 ? "1 device of yours counts" : "\(devices.counting) devices of yours count"
        let recovery =
            devices.hasRecoveryCode
            ? "you have a recovery code" : "no recovery code yet (make one with 'lifesignal circle recovery')"
        return Finding(check: "devices", ok: true, message: "\(key)\(count); \(recovery)")
    }

    /// A daily schedule whose stored rule no longer is its zone's clock: said only then.
    var schedule: [Finding] {
        guard let code = checkup.scheduleFails, let (schedule, from) = checkup.scheduleDrift else { return [] }
        return [
            Finding(
                check: "schedule", ok: false,
                message:
                    "your daily schedule computes deadlines with the rule stored for \(TerminalText.safeLine(schedule.zone)), which from \(session.when(from)) is not that zone's clock (its zone file changed, or has exceptions the rule cannot carry): your deadlines are off by the difference",
                fix:
                    "set it again ('lifesignal checkin schedule daily --at …'), or use 'lifesignal checkin schedule interval'",
                code: code)
        ]
    }

    var countdown: Finding {
        guard checkup.countdownFails == nil, let deadline = checkup.checkIn.deadline,
            let last = checkup.checkIn.lastCheckIn
        else {
            return Finding(
                check: "countdown", ok: false, message: "you have never checked in, so there is no deadline",
                fix: "lifesignal checkin", code: checkup.countdownFails)
        }
        return Finding(
            check: "countdown", ok: true,
            message: "last check-in \(session.when(last.at)); deadline \(session.when(deadline))")
    }

    var members: [Finding] {
        checkup.members.filter { !$0.isMe }.map { member in
            let seen = member.lastChange.map { "last change seen \(session.when($0))" } ?? "no records seen"
            let code = checkup.fails(member)
            return Finding(
                check: "circle", ok: code == nil, message: "member \(member.name): \(seen)",
                fix: code == nil ? nil : "check that the circle folder still syncs (lifesignal circle sync for git)",
                code: code)
        }
    }

    var clock: Finding {
        if let future = checkup.checkIn.futureCheckIn, let code = checkup.clockFails {
            return Finding(
                check: "clock", ok: false,
                message:
                    "a check-in is stamped \(session.local(future.at)), ahead of this clock (\(session.local(session.now)))",
                fix: "check the clocks of your devices (and LIFESIGNAL_NOW)", code: code)
        }
        return Finding(
            check: "clock", ok: true, message: "clock \(session.local(session.now)): no record is ahead of it")
    }
}
