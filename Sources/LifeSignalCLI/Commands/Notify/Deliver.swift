import LifeSignalApp
import LifeSignalCore

/// `lifesignal notify deliver` (the cron entry point) and `lifesignal notify test`, and how a
/// delivery report reads, for them and for the commands that deliver at once (alert, ping).
enum DeliverCommand {
    static let spec = CommandSpec(
        name: "deliver",
        abstract: "Notice what is due and deliver what is pending (run it from cron).",
        discussion: """
            Computes every deadline, records the notifications that became due (reminders, missed check-ins, all-clears, alerts, pings), and sends each pending one through its channels, retrying failures on later runs with growing pauses. Exit 0 when everything got through, 75 while something is still pending. What it prints is what a cron user wants mailed: one line when a channel starts failing and one when it works again, nothing on the runs in between ('lifesignal status' warns while a channel has been failing for over an hour); --verbose says every run how each channel stands and each notification sent.
            """,
        options: [dryRun, verbose, retryNow],
        examples: [
            "lifesignal notify deliver", "lifesignal notify deliver --dry-run", "lifesignal notify deliver --now",
        ],
        run: deliver)

    static let dryRun = OptionSpec.flag(
        "dry-run", "Show what is due and would be sent now; record and send nothing.")
    static let verbose = OptionSpec.flag(
        "verbose", "Say every run how each channel stands, and each notification sent.")
    static let retryNow = OptionSpec.flag(
        "now", "Try failing channels at once instead of waiting out their pause (after fixing one).")

    /// One line per channel, however many notifications wait for it, and only when it changed
    /// (started failing, works again) unless `verbose`.
    static func tellChannels(_ report: App.DeliveryReport, verbose: Bool, session: Session) {
        for channel in report.troubledChannels {
            let failed = report.failures.filter { $0.job.channel == channel }
            let waiting = report.waiting.filter { $0.job.channel == channel }
            let error = (failed.first ?? waiting.first)?.error ?? "failed"
            let next = (failed + waiting).compactMap(\.next).min().map { session.local($0) } ?? "the next run"
            let count = failed.count + waiting.count
            let what = count == 1 ? "1 notification is" : "\(count) notifications are"
            if report.changes[channel] == .startedFailing {
                session.output.note(
                    "delivery through \(report.name(of: channel)) is failing (\(error)); \(what) pending, next try after \(next). You will be told here when it works again."
                )
            } else if verbose {
                session.output.note(
                    "delivery through \(report.name(of: channel)) is still failing (\(error)); \(what) pending, next try after \(next)."
                )
            }
        }
        for (channel, change) in report.changes.sorted(by: { $0.key < $1.key }) {
            guard case .recovered(let since) = change else { continue }
            let sent = report.delivered.filter { $0.channel == channel }.count
            session.output.note(
                "delivery through \(report.name(of: channel)) works again (failing since \(session.local(since))): \(sent) sent."
            )
        }
        if verbose {
            for job in report.delivered {
                session.output.note("sent “\(job.notification.title)” through \(job.channelName).")
            }
            // A quiet run said as one, so a cron log tells "ran, all well" from "never ran".
            if report.delivered.isEmpty, report.troubledChannels.isEmpty {
                session.output.note("nothing was sent this run, and no channel is failing.")
            }
        }
    }

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
            try app.deliver(retryingNow: line.flag(retryNow), dryRun: dry)
        }
        if dry {
            try session.output.json(report)
            // The title that would go out, and to whom: what "what if" asks.
            for job in report.planned {
                var whom = "you"
                if case .external = job.notification.recipient {
                    whom = TerminalText.safeLine(job.message.recipientName)
                }
                try session.output.line(
                    "would send “\(TerminalText.safeLine(job.message.title))” to \(whom) through \(job.channel)")
            }
            if report.planned.isEmpty { try session.output.line("Nothing is due to be sent (dry run).") }
            return .ok
        }
        tellChannels(report, verbose: line.flag(verbose), session: session)
        try session.output.json(report)
        return report.isComplete ? .ok : .tryAgain
    }

    static func test(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let contact = line.text(argument: 0)
        let results = try session.call(line.path) { app throws(AppError) in try app.testChannels(of: contact) }
        try session.output.json(Tested(results: results))
        for result in results {
            try session.output.line(
                result.succeeded
                    ? "ok      \(result.channel)"
                    : session.output.red("FAILED  \(result.channel): \(result.error ?? "")"))
        }
        return results.allSatisfy(\.succeeded) ? .ok : .unavailable
    }

    /// How each channel `notify test` tried did.
    struct Tested: JSONRendered {
        var results: [App.ChannelTest]

        var json: JSON {
            let results: [JSON] = self.results.map {
                ["channel": .string($0.channel), "delivered": .bool($0.succeeded), "error": .optional($0.error)]
            }
            return ["results": .array(results)]
        }
    }
}

extension App.DeliveryReport: JSONRendered {
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
        func job(_ j: App.DeliveryJob) -> JSON { ["id": .string(j.notification.id), "channel": .string(j.channel)] }
        return [
            "noticed": .array(noticed.map { .string($0.id) }), "delivered": .array(delivered.map(job)),
            "failed": .array(failures.map(problem)), "waiting": .array(waiting.map(problem)),
            "planned": .array(planned.map(job)),
        ]
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
