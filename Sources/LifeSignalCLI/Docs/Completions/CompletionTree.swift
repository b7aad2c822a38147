import LifeSignalCore

/// The command tree as the completion scripts (and the man page's command list) see it:
/// visible commands with their paths, and the candidates each value offers. Every shell's
/// script is generated from this one model, so the three cannot disagree about what exists.
extension Completions {
    /// One visible command and the path of names that leads to it (`["checkin", "interval"]`).
    struct Node {
        var path: [String]
        var spec: CommandSpec

        /// The path as the scripts key it: `checkin interval`, empty for the top.
        var key: String { path.joined(separator: " ") }
        var subcommands: [CommandSpec] { spec.visibleSubcommands }
        /// `help` may follow a command that has subcommands (the parser's rule).
        var acceptsHelp: Bool { !spec.subcommands.isEmpty }
    }

    /// Every visible command, depth first, the top (`lifesignal` itself) first.
    static func nodes(_ spec: CommandSpec = CommandTable.root, path: [String] = []) -> [Node] {
        var result = [Node(path: path, spec: spec)]
        for sub in spec.visibleSubcommands { result += nodes(sub, path: path + [sub.name]) }
        return result
    }

    /// What `help` is described as where it is offered.
    static func helpAbstract(atTop: Bool) -> String {
        atTop ? "Show help for a command or a help topic." : "Show help for a subcommand."
    }

    /// The candidates for an option's or argument's value.
    ///
    /// Each shell has one function where a `Values` case becomes shell code — `Bash.action`,
    /// `Zsh.action` and `Fish.candidates` — and the switch there makes the compiler point at all
    /// three.
    enum Values: Equatable {
        /// Free text (a note, a name, a number, a time): nothing to offer.
        case none
        case words([String])
        /// The starts of a value (`mailto:`, `ntfy:https://`): offered without the space that
        /// would end the word.
        case prefixes([String])
        case directories
        /// Known only at run time (contact names): the script asks the binary being completed,
        /// `lifesignal __complete <source> [<prefix>]`, which prints one name per line.
        case callback(CompletionSource)
    }

    /// The one place a `ValueKind` becomes candidates. No `default:`, so that a new kind
    /// stops the build here until it says what it offers.
    static func values(for kind: ValueKind) -> Values {
        switch kind {
        case .choice(let choices): return .words(choices)
        // Every duration option today is a check-in interval; the presets are the app's.
        case .duration: return .words(Rules.intervalPresets.map(word))
        case .durationOrOff: return .words(Rules.reminderPresets.map(word) + ["off"])
        case .directory: return .directories
        // A ping is named by its id or by the person; the names are what one types.
        case .contact, .ping: return .callback(.contacts)
        case .weekdays: return .words(["weekdays", "weekends"] + DailySchedule.dayNames)
        // A channel starts with its scheme; the rest is the user's.
        case .channel: return .prefixes(ChannelKind.allCases.map(\.completionPrefix))
        case .text, .prose, .code, .codeOrName, .time, .later, .count, .email, .phone, .url, .timeOfDay:
            return .none
        }
    }

    /// An option's candidates; a flag takes no value, so it offers none.
    static func values(for option: OptionSpec) -> Values { option.kind.map(values) ?? .none }

    /// An argument's candidates: those of its kind, narrowed to the contacts it names.
    static func values(for argument: ArgumentSpec) -> Values {
        if let source = argument.completion, case .callback = values(for: argument.kind) { return .callback(source) }
        return values(for: argument.kind)
    }

    /// `24h`, as typed on a command line (no spaces).
    private static func word(_ span: TimeSpan) -> String { span.description.filter { $0 != " " } }

    static var topics: [HelpTopic] { CommandTable.helpTopics }
    static var globals: [OptionSpec] { CommandTable.globalOptions }

    /// `--note` and `-n` for an option that has both.
    static func names(_ option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
    }
}
