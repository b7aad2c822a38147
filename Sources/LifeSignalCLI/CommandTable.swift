import LifeSignalCore

/// The one command table. Parsing, help, usage lines, "did you mean", the exit-code help
/// topic, shell completions and the man page's command list are all generated from it, so
/// they cannot drift apart.
enum CommandTable {
    static let version = Release.version

    static let globalOptions: [OptionSpec] = [
        .flag("json", "Print the result as JSON on stdout; errors as JSON on stderr."),
        .value("home", "dir", .directory, "Use this data directory (overrides LIFESIGNAL_HOME and XDG_DATA_HOME)."),
        .flag("quiet", short: "q", "Print nothing on success; the exit code still tells."),
        .flag("no-color", "Never colour the output (NO_COLOR=1 does the same)."),
        .flag("help", short: "h", "Show help information."),
        .flag("version", "Show the version."),
    ]

    static let root = root(with: commands.map { $0.spec() })

    /// The top-level commands by name, each spec built only when asked for (a test checks the
    /// names are the specs' own).
    static let commands: [(name: String, spec: @Sendable () -> CommandSpec)] = [
        ("init", { InitCommand.spec }), ("checkin", { CheckinCommand.spec }), ("alert", { AlertCommand.spec }),
        ("contacts", { ContactsCommand.spec }), ("ping", { PingCommand.spec }), ("notify", { NotifyCommand.spec }),
        ("status", { StatusCommand.spec }), ("doctor", { DoctorCommand.spec }), ("circle", { CircleCommand.spec }),
        ("completion", { CompletionCommand.spec }), ("__man", { ManCommand.spec }),
        ("__schema", { SchemaCommand.spec }), ("__complete", { CompleteCommand.spec }),
    ]

    /// The tree a run parses `arguments` with: when they start with a command's name, the root
    /// with that command alone. The parse is the same (only the first word is looked up at the
    /// root), but building every command's spec, options and help text was a twentieth of a
    /// check-in; help and errors still show the whole tree.
    static func root(for arguments: [String]) -> CommandSpec {
        guard let first = arguments.first, let command = commands.first(where: { $0.name == first }) else {
            return root
        }
        return root(with: [command.spec()])
    }

    private static func root(with subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(
            name: "lifesignal",
            abstract:
                "A personal safety check-in: check in on an interval; if you go quiet past your deadline, the people who watch over you are told.",
            discussion: """
                Run 'lifesignal checkin' to record that you are OK; 'lifesignal status' shows where you stand. \
                Data lives in $XDG_DATA_HOME/lifesignal (~/.local/share/lifesignal), or where --home or LIFESIGNAL_HOME say.
                """,
            subcommands: subcommands)
    }

    static let helpTopics: [HelpTopic] = [
        HelpTopic(name: "exit-codes", abstract: "What each exit status means.", text: { exitCodeTable() }),
        HelpTopic(
            name: "environment", abstract: "Environment variables lifesignal reads.", text: { environmentText() }),
    ]

    static func exitCodeTable() -> String {
        var out = "EXIT CODES:\n"
        for code in ExitCode.allCases {
            out += Help.entry(String(code.rawValue), code.meaning, width: 80)
        }
        return out
    }

    /// The environment variables, for `help environment` and the man page.
    static let environment: [(name: String, help: String)] = [
        ("LIFESIGNAL_HOME", "The data directory (an absolute path); --home overrides it."),
        ("XDG_DATA_HOME", "When absolute, the data directory is $XDG_DATA_HOME/lifesignal."),
        ("HOME", "The default data directory is under it; the account's home is used when unset."),
        (
            "LIFESIGNAL_NOW",
            "An RFC 3339 time that replaces the clock, for tests and \"what if\" runs. What a command does then is real (a check-in is recorded, alarms are sent); add --dry-run to only see it."
        ),
        (
            "LIFESIGNAL_LOCK_TIMEOUT",
            "Seconds to wait for another lifesignal to finish writing (default \(Session.defaultLockTimeout))."
        ),
        ("NO_COLOR", "When set and not empty, output is never coloured."),
        ("COLUMNS", "The width help is wrapped to."),
        ("TZ", "The time zone human output is shown in."),
    ]

    static func environmentText() -> String {
        var out = "ENVIRONMENT:\n"
        for variable in environment { out += Help.entry(variable.name, variable.help, width: 80) }
        return out
    }
}
