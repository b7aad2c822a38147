import LifeSignalApp
import LifeSignalCore

/// `lifesignal circle`: the shared folder itself. `circle sync` keeps a git circle in step;
/// `circle status` says how current this copy is; `engine`, `syncthing` and `hold` are this
/// device's settings for telling a miss it sees from a sync that stopped (see Freshness.swift).
enum CircleCommand {
    static let spec = CommandSpec(
        name: "circle",
        abstract: "Keep the shared circle folder in step with the other machines.",
        subcommands: [
            syncSpec, statusSpec, engineSpec, syncthingSpec, holdSpec, CircleDeviceCommands.enrollSpec,
            CircleDeviceCommands.devicesSpec, CircleDeviceCommands.revokeSpec, CircleDeviceCommands.recoverySpec,
        ])

    static let statusSpec = CommandSpec(
        name: "status",
        abstract: "How current this copy of the circle is, and when each member was last heard from here.",
        discussion: """
            A watcher tells someone's external responders of a missed check-in as confirmed only when it knows its copy of the circle is current after the deadline: a record the person's own devices or another device of yours wrote after it (not a third member's, and none stamped later than this clock), a git fetch (circle sync) after it, Syncthing's API saying the folder is up to date, or a folder every device writes directly that no other account of the machine can write. This shows the engine and what it says, and each member as last heard from here (this device's own records left out). Exit 6 while a miss cannot be confirmed.
            """,
        examples: ["lifesignal circle status"],
        run: status)

    static let engineSpec = CommandSpec(
        name: "engine",
        abstract: "Show the sync engine, or say the folder is kept by a tool lifesignal cannot ask.",
        discussion: """
            lifesignal tells git (.git) and Syncthing (.stfolder) from the folder; any other folder counts as shared directly (one machine, a network file system), where every device writes the same files. 'other' says a tool lifesignal cannot ask copies it (rsync, cp, a cloud folder): then only records of the person's own devices, or of your other devices, written after a deadline confirm a miss. 'auto' goes back to telling from the folder.
            """,
        arguments: [
            ArgumentSpec(
                name: "engine", kind: .choice(["auto", "other"]), optional: true,
                help: "other (a tool lifesignal cannot ask) or auto.")
        ],
        examples: ["lifesignal circle engine other"],
        run: engine)

    static let api = OptionSpec.value("api", "url", .url, "Syncthing's GUI address, e.g. http://127.0.0.1:8384.")
    static let keyFile = OptionSpec.value("key-file", "file", .directory, "A file holding Syncthing's API key.")
    static let off = OptionSpec.flag("off", "Find the API in Syncthing's own configuration again.")

    static let syncthingSpec = CommandSpec(
        name: "syncthing",
        abstract: "Show or set where Syncthing's API is, for a circle in a Syncthing folder.",
        discussion: """
            In a Syncthing folder, a watcher asks Syncthing's REST API on this machine whether the folder is up to date before it tells someone's responders of a miss as confirmed. The address and API key are found in Syncthing's config.xml ($XDG_STATE_HOME/syncthing, ~/.local/state/syncthing or ~/.config/syncthing); give them here when Syncthing keeps its configuration elsewhere. The key stays in its file; lifesignal passes it to curl on standard input, never on a command line.
            """,
        options: [api, keyFile, off],
        rules: [
            .requires("api", "key-file", message: "--api needs --key-file: the file that holds the API key."),
            .requires("key-file", "api", message: "--key-file needs --api: Syncthing's address."),
            .excludes("off", ["api", "key-file"], message: "--off takes no --api or --key-file."),
        ],
        examples: ["lifesignal circle syncthing --api http://127.0.0.1:8384 --key-file ~/.config/syncthing-key"],
        run: syncthing)

    static let holdSpec = CommandSpec(
        name: "hold",
        abstract: "Show or set how long a miss this device cannot confirm is held before it is told.",
        discussion: """
            When this device cannot show that its copy of the circle is current after a dependent's deadline, it tells you at once and holds the relay to their external responders; after the hold it tells them anyway, marked unconfirmed. Default \(SyncView.defaultHold.short).
            """,
        arguments: [ArgumentSpec(name: "duration", kind: .duration, optional: true, help: "e.g. 1h or 3h.")],
        examples: ["lifesignal circle hold 1h"],
        run: hold)

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
        if !report.restoredOwn.isEmpty { session.output.warn(.ownRecordsRestored(report.restoredOwn)) }
        if report.lostPush {
            session.output.note(
                "the remote no longer held what this device pushed last: another machine's push replaced it (git-remote-gcrypt always pushes with force). It was pushed again now. So that no push is ever replaced, make the remote refuse forced pushes: 'git config receive.denyNonFastForwards true' in a bare repository you host, or protect its branch (master, where gcrypt stores) on a hosting service."
            )
        }
        if !report.notEncryptedTo.isEmpty {
            session.output.note(
                "remote.origin.gcrypt-participants names \(report.notEncryptedTo.joined(separator: ", ")), not in this machine's keyring: what this device pushed is not encrypted to them, so they cannot read the circle until you import their key (gpg --import THEIRS.asc) and sync again."
            )
        }
        try session.output.json(report)
        return .ok
    }
}

extension CircleCommand {
    static func status(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let status = try session.call(line.path) { app throws(AppError) in try app.circleStatus() }
        let sync = status.sync
        try session.output.json(status)
        try session.output.line("Circle  \(status.circle)")
        try session.output.line("Engine  \(describe(sync, session: session))")
        for reader in status.readers { try session.output.line("Host    \(reader.message)") }
        if let changed = status.copyChanged {
            try session.output.line("Copy    last changed by another device \(session.when(changed))")
        }
        try session.output.line("Hold    \(sync.hold.short) after a deadline, for a miss this copy cannot confirm")
        for member in status.members {
            let heard = member.lastHeard.map { session.when($0) } ?? "never, from another device"
            try session.output.line(
                "  \(member.name)\(member.isMe ? " (you, other devices)" : ""): last heard \(heard)")
        }
        session.output.warn(listed: status.warnings)
        return status.warnings.contains(where: \.isUnconfirmedMiss) ? .dependentNeedsAttention : .ok
    }

    /// What the engine says, as a person reads it.
    static func describe(_ sync: SyncView, session: Session) -> String {
        let name: String
        switch sync.engine {
        case .direct: name = "none: a folder every device writes directly"
        case .git: name = "git ('lifesignal circle sync')"
        case .syncthing: name = "Syncthing"
        case .other: name = "another tool (circle engine other): only other devices' records confirm"
        }
        let current = sync.currentAt.map { "; current as of \(session.when($0))" } ?? ""
        let problem = sync.problem.map { "; \($0)" } ?? ""
        return name + (sync.engine == .direct ? "" : current) + problem
    }

    static func engine(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var change = App.SyncSettingsChange()
        if let text = line.text(argument: 0) { change.engine = .some(text == "other" ? .other : nil) }
        return try settings(change, line, &session)
    }

    static func syncthing(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var change = App.SyncSettingsChange()
        if line.flag(off) { change.syncthing = .some(nil) }
        if let base = line.text(api), let file = line.text(keyFile) {
            let absolute =
                file.hasPrefix("/") ? file : Paths.join(session.context.workingDirectory ?? "/", file)
            change.syncthing = .some((base, Paths.normalize(absolute)))
        }
        return try settings(change, line, &session)
    }

    static func hold(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var change = App.SyncSettingsChange()
        change.hold = line.argument(0)?.span
        return try settings(change, line, &session)
    }

    /// Shows this device's sync settings after `change` (nothing to change: just shows them).
    static func settings(_ change: App.SyncSettingsChange, _ line: Invocation, _ session: inout Session)
        throws(CLIError) -> ExitCode
    {
        let stored = try session.call(line.path) { app throws(AppError) in try app.changeSyncSettings(change) }
        let settings = Settings(
            engine: stored.engine, syncthingAPI: stored.syncthingAPI, syncthingKeyFile: stored.syncthingKeyFile,
            hold: stored.hold ?? SyncView.defaultHold)
        try session.output.json(settings)
        try session.output.line(
            "Engine     \(settings.engine == .other ? "other (a tool lifesignal cannot ask)" : "auto (told from the folder)")"
        )
        let api = settings.syncthingAPI.map { "\($0), key in \(settings.syncthingKeyFile ?? "")" }
        try session.output.line("Syncthing  \(api ?? "looked for in Syncthing's own configuration when needed")")
        try session.output.line("Hold       \(settings.hold.short)")
        return .ok
    }

    /// This device's sync settings, as `circle engine`, `syncthing` and `hold` show them (the
    /// hold in force: the default when none is set).
    struct Settings: JSONRendered {
        var engine: SyncEngine?
        var syncthingAPI: String?
        var syncthingKeyFile: String?
        var hold: TimeSpan

        var json: JSON {
            [
                "engine": .string(engine?.rawValue ?? "auto"), "syncthingAPI": .optional(syncthingAPI),
                "syncthingKeyFile": .optional(syncthingKeyFile), "holdSeconds": .int(hold.seconds),
            ]
        }
    }
}

/// What `circle sync` did, for a script: silent for a person when all went well.
extension App.SyncReport: JSONRendered {
    var json: JSON {
        [
            "engine": .string(engine.rawValue), "committed": .bool(committed), "pulled": .bool(pulled),
            "pushed": .bool(pushed), "bootstrapped": .bool(bootstrapped),
            "restoredOwn": .array(restoredOwn.map(JSON.string)), "recovered": .optional(recovered),
            "modesRestored": .int(Int64(modesRestored)), "ignoreWritten": .optional(ignoreWritten),
            "lostPush": .bool(lostPush), "attempts": .int(Int64(attempts)),
            "notEncryptedTo": .array(notEncryptedTo.map(JSON.string)),
        ]
    }
}

/// How current this copy of the circle is, as `circle status --json` gives it.
extension App.CircleStatus: JSONRendered {
    var json: JSON {
        let members: [JSON] = self.members.map { member in
            [
                "id": .string(member.id), "name": .string(member.name), "me": .bool(member.isMe),
                "lastHeard": .optional(member.lastHeard?.rfc3339),
            ]
        }
        return [
            "circle": .string(circle), "engine": .string(sync.engine.rawValue),
            "currentAt": .optional(sync.currentAt?.rfc3339), "problem": .optional(sync.problem),
            "copyChanged": .optional(copyChanged?.rfc3339), "holdSeconds": .int(sync.hold.seconds),
            "members": .array(members), "warnings": .array(warnings.map(Render.warningJSON)),
            "readers": .array(readers.map(\.json)),
        ]
    }
}
