import LifeSignalApp
import LifeSignalCore

/// `lifesignal circle`: the shared folder itself. `circle sync` keeps a git circle in step.
enum CircleCommand {
    static let spec = CommandSpec(
        name: "circle",
        abstract: "Keep the shared circle folder in step with the other machines.",
        subcommands: [syncSpec])

    static let syncSpec = CommandSpec(
        name: "sync",
        abstract: "Commit your records, take the others' from the remote, and push (git circles).",
        discussion: """
            For a circle folder that is a git work tree with a remote 'origin': commits only this device's own files, fetches, merges the other devices' files, and pushes, retrying when another machine pushed in between, all while holding this data directory's lock, so no check-in is lost in between. This device's own files are never taken from the remote: a remote commit that changed them is reported and undone. An empty remote gets its first commit. A merge or rebase left behind by a killed run is undone first. A .gitignore covering backups, temporary files, the lock and caches is committed before anything else, and files get back lifesignal's modes after every checkout (git checks them out readable by everyone). For a Syncthing folder (it has .stfolder) it writes .stignore and puts the modes back. Silent when all went well, so the crontab line is: */5 * * * * lifesignal circle sync && lifesignal notify deliver
            """,
        examples: ["lifesignal circle sync"],
        run: sync)

    static func sync(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let report = try session.call(line.path) { app throws(AppError) in try app.syncCircle() }
        if let what = report.recovered {
            session.output.note("undid \(what) left in the circle's git work tree by an interrupted run.")
        }
        if !report.restoredOwn.isEmpty {
            session.output.note(
                "warning: a commit from the remote had changed this device's own records (\(report.restoredOwn.joined(separator: ", "))); they were put back as this device wrote them. Find out which machine wrote them: another data directory may be using this device's identity."
            )
        }
        try session.output.json(
            .object(
                JSONObject([
                    ("engine", .string(report.engine.rawValue)), ("committed", .bool(report.committed)),
                    ("pulled", .bool(report.pulled)), ("pushed", .bool(report.pushed)),
                    ("bootstrapped", .bool(report.bootstrapped)),
                    ("restoredOwn", .array(report.restoredOwn.map(JSON.string))),
                    ("recovered", .optional(report.recovered)), ("modesRestored", .int(Int64(report.modesRestored))),
                    ("ignoreWritten", .optional(report.ignoreWritten)),
                ])))
        return .ok
    }
}
