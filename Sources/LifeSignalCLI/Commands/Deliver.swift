import LifeSignalApp
import LifeSignalCore

/// `lifesignal notify deliver` (the cron entry point) and `lifesignal notify test`, and how a
/// delivery report reads, for them and for the commands that deliver at once (alert, ping).
enum DeliverCommand {
    static let spec = CommandSpec(
        name: "deliver",
        abstract: "Notice what is due and deliver what is pending (run it from cron).",
        discussion: """
            Computes every deadline, records the notifications that became due (reminders, missed check-ins, all-clears, alerts, pings), and sends each pending one through its channels, retrying failures on later runs with growing pauses. Silent and exit 0 when everything got through; exit 75 when something is still pending, with one line per failing channel.
            """,
        options: [dryRun],
        run: deliver)

    static let dryRun = OptionSpec.flag(
        "dry-run", "Show what is due and would be sent now; record and send nothing.")

    static let testSpec = CommandSpec(
        name: "test",
        abstract: "Send a test notification through your channels, or a contact's.",
        arguments: [
            ArgumentSpec(
                name: "contact", kind: .contact, optional: true,
                help: "A contact whose channels to test (default: your own).")
        ],
        run: test)

    static func deliver(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let dry = line.flag(dryRun)
        let report = try session.call(line.path) { app throws(AppError) in
            app.dryRun = dry
            return try app.deliver()
        }
        if dry {
            try session.output.json(report.json)
            for job in report.planned {
                try session.output.line("would send “\(job.notification.title)” through \(job.channel)")
            }
            if report.planned.isEmpty { try session.output.line("Nothing is due to be sent (dry run).") }
            return .ok
        }
        // One line per channel in trouble, however many notifications wait for it: what a
        // cron user wants in their mailbox.
        for channel in report.troubledChannels {
            let failed = report.failures.filter { $0.job.channel == channel }
            let waiting = report.waiting.filter { $0.job.channel == channel }
            let error = (failed.first ?? waiting.first)?.error ?? "failed"
            let next = (failed + waiting).compactMap(\.next).min().map { session.local($0) } ?? "the next run"
            let count = failed.count + waiting.count
            let what = count == 1 ? "1 notification is" : "\(count) notifications are"
            let verb = failed.isEmpty ? "is still failing" : "failed"
            session.output.note(
                "delivery through \(channel) \(verb) (\(error)); \(what) pending, next try after \(next).")
        }
        try session.output.json(report.json)
        return report.isComplete ? .ok : .tryAgain
    }

    static func test(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let contact = line.text(argument: 0)
        let results = try session.call(line.path) { app throws(AppError) in try app.testChannels(of: contact) }
        let json: [JSON] = results.map { result in
            .object(
                JSONObject([
                    ("channel", .string(result.channel)), ("delivered", .bool(result.succeeded)),
                    ("error", .optional(result.error)),
                ]))
        }
        try session.output.json(.object(JSONObject([("results", .array(json))])))
        for result in results {
            try session.output.line(
                result.succeeded
                    ? "ok      \(result.channel)"
                    : session.output.red("FAILED  \(result.channel): \(result.error ?? "")"))
        }
        return results.allSatisfy(\.succeeded) ? .ok : .unavailable
    }
}

extension App.DeliveryReport {
    /// The channels that failed or wait, in the order they first appear.
    var troubledChannels: [String] {
        var seen: [String] = []
        for channel in (failures + waiting).map(\.job.channel) where !seen.contains(channel) { seen.append(channel) }
        return seen
    }

    var json: JSON {
        func problem(_ p: App.DeliveryProblem) -> JSON {
            var o = JSONObject([("title", .string(p.job.notification.title)), ("channel", .string(p.job.channel))])
            if let next = p.next { o["nextAttempt"] = .string(next.rfc3339) }
            o["error"] = .string(p.error)
            return .object(o)
        }
        func job(_ j: App.DeliveryJob) -> JSON {
            .object(JSONObject([("id", .string(j.notification.id)), ("channel", .string(j.channel))]))
        }
        let sent: [JSON] = delivered.map(job)
        return .object(
            JSONObject([
                ("noticed", .array(noticed.map { .string($0.id) })), ("delivered", .array(sent)),
                ("failed", .array(failures.map(problem))), ("waiting", .array(waiting.map(problem))),
                ("planned", .array(planned.map(job))),
            ]))
    }

    /// After a command that delivers at once: a line per channel that failed, on stderr, with
    /// what waits for it.
    func tellFailures(_ session: Session) {
        for channel in troubledChannels {
            let problems = (failures + waiting).filter { $0.job.channel == channel }
            guard let error = failures.last(where: { $0.job.channel == channel })?.error else { continue }
            var titles: [String] = []
            for title in problems.map(\.job.notification.title) where !titles.contains(title) { titles.append(title) }
            let pending = titles.map { "“\($0)”" }.joined(separator: ", ")
            session.output.note(
                "could not deliver through \(channel): \(error). Pending for it: \(pending); 'lifesignal notify deliver' will retry."
            )
        }
    }
}
