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

    /// This device's phone and button topics, when they cannot be read (without an inbox: with
    /// one, `inbox` says it).
    var phoneFile: [Finding] {
        guard let code = checkup.phoneFileFails, let problem = checkup.phoneFile else { return [] }
        return [
            Finding(
                check: "inbox", ok: false,
                message: "this device's phone and button topics cannot be read: \(problem.message)",
                fix:
                    "set them again: lifesignal checkin inbox ntfy:URL --phone ntfy:URL, lifesignal contacts edit NAME --button-topic ntfy:URL",
                code: code)
        ]
    }

    /// My inbox for check-ins from the phone: it answers, and my ntfy messages carry its button.
    var inbox: [Finding] {
        guard let inbox = checkup.inbox else { return [] }
        let what = "inbox ntfy:\(TerminalText.safeLine(inbox.url))"
        let code = checkup.inboxFails
        if let error = inbox.error {
            return [
                Finding(
                    check: "inbox", ok: false, message: "\(what) cannot be read: \(error)",
                    fix:
                        "check the URL and this machine's network; set it again with 'lifesignal checkin inbox ntfy:URL'",
                    code: code)
            ]
        }
        if case .failure(let problem) = inbox.phone {
            return [
                Finding(
                    check: "inbox", ok: false,
                    message: "\(what) answers, but this device's phone topic cannot be read: \(problem.message)",
                    fix: "set it again: lifesignal checkin inbox ntfy:\(inbox.url) --phone ntfy:https://HOST/TOPIC",
                    code: code)
            ]
        }
        guard code == nil else {
            return [
                Finding(
                    check: "inbox", ok: false,
                    message: "\(what) answers, but this device has no phone topic, so it sends no \"I'm OK\" button",
                    fix:
                        "give it your phone's topic: lifesignal checkin inbox ntfy:\(inbox.url) --phone ntfy:https://HOST/TOPIC",
                    code: code)
            ]
        }
        return [Finding(check: "inbox", ok: true, message: "\(what) answers; every device of your circle reads it")]
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

    var responders: [Finding] {
        // Those who only say they watch over you (a claim anyone who can write the folder can
        // make): each fails until you confirm or remove them.
        let claims = checkup.warnings.flatMap { warning -> [App.Named] in
            if case .watchersNotConfirmed(let named) = warning { named } else { [] }
        }.map { named in
            Finding(
                check: "responders", ok: false,
                message:
                    "\(named.name) says they watch over you, but you never added or confirmed them: they are told of your alarms, and have no say over them",
                fix:
                    "lifesignal contacts confirm \(TerminalText.argument(named.argument)) if you know them, else lifesignal contacts remove \(TerminalText.argument(named.argument))",
                code: .watcherNotConfirmed)
        }
        if let code = checkup.respondersFail {
            return [
                Finding(
                    check: "responders", ok: false,
                    message: claims.isEmpty
                        ? "nobody watches over you: you have no responders"
                        : "nobody you chose watches over you: you have no responders of your own",
                    fix: "lifesignal contacts add NAME --responder --notify URI (or a member's invite code)", code: code
                )
            ] + claims
        }
        return claims
            + checkup.responders.map { responder in
                if responder.isMember {
                    let last =
                        responder.lastDeliver.map { "'notify deliver' last ran on their devices \(session.when($0))" }
                        ?? "no device of theirs has recorded a 'notify deliver' run"
                    return Finding(
                        check: "responders", ok: responder.fails == nil,
                        message: "responder \(responder.name) (member): \(last)",
                        fix: responder.fails == nil
                            ? nil : "ask \(responder.name) to add 'lifesignal notify deliver' to cron",
                        code: responder.fails)
                }
                let channels = responder.channels ?? []
                return Finding(
                    check: "responders", ok: responder.fails == nil,
                    message: "responder \(responder.name) (external): "
                        + (channels.isEmpty ? "no channel" : channels.joined(separator: ", ")),
                    fix: responder.fails == nil ? nil : "lifesignal contacts edit '\(responder.name)' --notify URI",
                    code: responder.fails)
            }
    }

    var ownChannels: Finding {
        guard checkup.ownChannels.isEmpty else {
            return Finding(
                check: "own-channels", ok: true,
                message: "your notifications go to \(checkup.ownChannels.joined(separator: ", "))")
        }
        guard let code = checkup.ownChannelsFail else {
            return Finding(
                check: "own-channels", ok: true,
                message: "you have no channel of your own: your reminders show only in 'lifesignal notify list'")
        }
        return Finding(
            check: "own-channels", ok: false,
            message:
                "you watch over \(checkup.dependents.joined(separator: ", ")) but have no channel: their alerts and missed check-ins reach you only when you run lifesignal",
            fix: "lifesignal notify prefs --channel URI (e.g. ntfy:https://ntfy.sh/TOPIC or mailto:you@example.org)",
            code: code)
    }

    var channels: [Finding] {
        checkup.channels.map { channel in
            let whose = channel.owner == "you" ? "your channel" : "channel of \(channel.owner)"
            let code = channel.fails(now: session.now)
            if channel.readByTheCircle {
                return Finding(
                    check: "channels", ok: false,
                    message:
                        "\(whose) \(channel.channel): it is also a channel or an inbox in your circle folder, which everyone in your circle reads, so this device sends it nothing (a button's token there would be anyone's)",
                    fix: "give a topic only they subscribe to, with a long random name", code: code)
            }
            if let problem = channel.cronProblem {
                return Finding(
                    check: "channels", ok: false, message: "\(whose) \(channel.channel): \(problem)",
                    fix:
                        "then try it as cron would: env -i HOME=$HOME PATH=/usr/bin:/bin /usr/local/bin/lifesignal notify test",
                    code: code)
            }
            guard let health = channel.health else {
                return Finding(
                    check: "channels", ok: true,
                    message:
                        "\(whose) \(channel.channel): not used from this machine yet (try 'lifesignal notify test')")
            }
            if let since = health.failingSince {
                let error = health.lastError ?? "failed"
                // Under the warning's time, a failure is told as one, with when it will count.
                let message =
                    code == nil
                    ? "\(whose) \(channel.channel): sends have failed since \(session.when(since)): \(error); each run tries again, and after \(LinkHealth.failingWarning) of failures this check fails"
                    : "\(whose) \(channel.channel): failing since \(session.when(since)): \(error)"
                return Finding(
                    check: "channels", ok: code == nil, message: message,
                    fix: "lifesignal notify test" + (channel.owner == "you" ? "" : " '\(channel.owner)'"), code: code)
            }
            let last = health.lastSuccess.map { "last success \(session.when($0))" } ?? "no success yet"
            return Finding(check: "channels", ok: true, message: "\(whose) \(channel.channel): \(last)")
        }
    }

    var heartbeats: [Finding] {
        checkup.heartbeats.map { entry in
            let what = "heartbeat (\(entry.on.rawValue)) \(entry.url)"
            if let since = entry.health?.failingSince, let code = entry.fails {
                return Finding(
                    check: "heartbeats", ok: false,
                    message: "\(what): failing since \(session.when(since)): \(entry.health?.lastError ?? "failed")",
                    fix: "check the URL; replace it with 'lifesignal notify heartbeat remove URL' and 'add'", code: code
                )
            }
            let last =
                entry.health?.lastSuccess.map { "last success \(session.when($0))" }
                ?? "not requested from this machine yet"
            return Finding(check: "heartbeats", ok: true, message: "\(what): \(last)")
        }
    }

    var delivery: Finding {
        let here =
            checkup.lastDeliverHere.map { "ran on this machine \(session.when($0))" }
            ?? "has not run on this machine yet"
        let anywhere = checkup.lastDeliverAnywhere.map { "; recorded on your devices \(session.when($0))" } ?? ""
        let code = checkup.deliveryFails
        return Finding(
            check: "delivery", ok: code == nil, message: "'notify deliver' \(here)\(anywhere)",
            fix: code == nil
                ? nil
                : "add '*/5 * * * * lifesignal notify deliver' to your crontab (with LIFESIGNAL_HOME if your data is not in the default place)",
            code: code)
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
