import LifeSignalApp
import LifeSignalCore

/// The checks of how an alarm leaves this machine: responders and their channels, this
/// member's own channels, heartbeats, the delivery runs, the inbox and the phone topics.
extension DoctorFindings {
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

    var responders: [Finding] {
        // Those who only say they watch over you (a claim anyone who can write the folder can
        // make): each fails until you confirm or remove them.
        let claims = checkup.warnings.flatMap { warning -> [(App.Named, [String])] in
            if case .watchersNotConfirmed(let named, let twice) = warning { named.map { ($0, twice) } } else { [] }
        }.map { named, twice in
            Finding(
                check: "responders", ok: false,
                message:
                    "\(named.name) says they watch over you, but you never added or confirmed them: they are told of your alarms, and have no say over them"
                    + Warning.toldTwiceClause(twice),
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
}
