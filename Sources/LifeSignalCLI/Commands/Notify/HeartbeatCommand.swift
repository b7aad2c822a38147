import LifeSignalApp
import LifeSignalCore

/// `lifesignal notify heartbeat`: heartbeat URLs, the fail-safe outside the circle.
enum HeartbeatCommand {
    static let spec = CommandSpec(
        name: "heartbeat",
        abstract: "Heartbeat URLs for a monitoring service (healthchecks.io, Uptime Kuma).",
        discussion: """
            A heartbeat URL is requested (with curl, at most \(Int(App.heartbeatTimeout))s) after every check-in, or after every 'notify deliver' run: a service such as healthchecks.io or an Uptime Kuma push monitor then raises the alarm when the requests stop, even when every machine of your circle is off. Set its period to your interval (or to the cron period for --on deliver) and a grace of an hour or so. A failing URL never fails the check-in; 'status' warns about it.
            """,
        subcommands: [addSpec, listSpec, removeSpec])

    static let urlArgument = ArgumentSpec(
        name: "url", kind: .url, optional: false, help: "The URL the service gave you (https://…).")
    static let on = DefaultedOption.choice(
        "on", "event", default: Heartbeats.Trigger.checkin,
        "When it is requested: after each check-in (default) or each delivery run.")

    static let addSpec = CommandSpec(
        name: "add", abstract: "Add a heartbeat URL.", arguments: [urlArgument], options: [on.spec], run: add)
    static let listSpec = CommandSpec(
        name: "list", abstract: "List your heartbeat URLs and how they have been doing here.", run: list)
    static let removeSpec = CommandSpec(
        name: "remove", abstract: "Remove a heartbeat URL.", arguments: [urlArgument], run: remove)

    static func add(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let url = line.text(argument: 0) ?? ""
        let trigger = line.value(on)
        let list = try session.call(line.path) { app throws(AppError) in try app.addHeartbeat(url, on: trigger) }
        try session.output.json(list)
        let when = trigger == .checkin ? "after every check-in" : "after every 'notify deliver' run"
        try session.output.line("\(url) will be requested \(when).")
        return .ok
    }

    static func remove(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let url = line.text(argument: 0) ?? ""
        let list = try session.call(line.path) { app throws(AppError) in try app.removeHeartbeat(url) }
        try session.output.json(list)
        try session.output.line("Removed \(url).")
        return .ok
    }

    static func list(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let entries = try session.call(line.path) { app throws(AppError) in try app.heartbeats() }
        try session.output.json(Listed(entries: entries))
        if entries.isEmpty {
            try session.output.line(
                "No heartbeat URLs. Add one with 'lifesignal notify heartbeat add URL' (see 'lifesignal help notify heartbeat')."
            )
            return .ok
        }
        for entry in entries {
            let state: String
            if let since = entry.health?.failingSince {
                state = session.output.red(
                    "failing since \(session.local(since)): \(entry.health?.lastError ?? "failed")")
            } else if let last = entry.health?.lastSuccess {
                state = "ok, last \(session.local(last))"
            } else {
                state = "not requested from this machine yet"
            }
            try session.output.line("\(entry.on.rawValue.padding(to: 8)) \(entry.url)  \(state)")
        }
        return .ok
    }

    /// My heartbeat URLs and how each has been doing on this machine.
    struct Listed: JSONRendered {
        var entries: [App.HeartbeatEntry]

        var json: JSON {
            [
                "heartbeats": .array(
                    entries.map { entry in
                        [
                            "url": .string(entry.url), "on": .string(entry.on.rawValue),
                            "lastSuccess": .optional(entry.health?.lastSuccess?.rfc3339),
                            "failingSince": .optional(entry.health?.failingSince?.rfc3339),
                            "lastError": .optional(entry.health?.lastError),
                        ]
                    })
            ]
        }
    }
}

/// My heartbeat URLs after `notify heartbeat add` or `remove`.
extension Heartbeats: JSONRendered {
    var json: JSON { ["heartbeats": .array(all.map { ["url": .string($0.url), "on": .string($0.on.rawValue)] })] }
}
