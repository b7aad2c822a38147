import LifeSignalCore

/// What kind of value an option or argument takes. The parser checks it, help shows its
/// name, and completions offer candidates for it.
enum ValueKind: Equatable, Sendable {
    /// Free text (a name, a note).
    case text
    /// A duration such as `45m`, `8h`, `1d12h`.
    case duration
    /// A duration, or `off`.
    case durationOrOff
    /// An RFC 3339 time, or a duration meaning "that long ago".
    case time
    /// A directory path.
    case directory
    /// A whole number ≥ 1.
    case count
    /// A contact: a name, an id or an id prefix (completions offer the names).
    case contact
    /// A ping id (or prefix), or a contact.
    case ping
    /// One of a fixed list.
    case choice([String])
}

struct OptionSpec: Sendable {
    var long: String
    var short: Character?
    /// The placeholder shown in help (`<duration>`); nil for a flag.
    var valueName: String?
    var kind: ValueKind?
    var help: String
    /// May be given more than once (`--notify A --notify B`).
    var repeatable = false

    static func flag(_ long: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, kind: nil, help: help)
    }
    static func value(_ long: String, short: Character? = nil, _ valueName: String, _ kind: ValueKind, _ help: String)
        -> OptionSpec
    {
        OptionSpec(long: long, short: short, valueName: valueName, kind: kind, help: help)
    }
    static func values(_ long: String, _ valueName: String, _ kind: ValueKind, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, valueName: valueName, kind: kind, help: help, repeatable: true)
    }

    var takesValue: Bool { valueName != nil }

    /// `--note <text>` or `-q, --quiet`.
    var label: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }
    /// The synopsis form: `[--note <text>]`.
    var synopsis: String { "[--\(long)" + (valueName.map { " <\($0)>" } ?? "") + "]" + (repeatable ? " ..." : "") }
}

struct ArgumentSpec: Sendable {
    var name: String
    var kind: ValueKind
    var optional: Bool
    var help: String
    /// Which of my contacts the completions offer for a `.contact` or `.ping` argument
    /// (`lifesignal __complete <source>`); nil means every contact.
    var completion: CompletionSource? = nil
}

/// A list of names known only at run time, which the completion scripts ask the binary for
/// with the hidden `lifesignal __complete <source> [<prefix>]`.
enum CompletionSource: String, CaseIterable, Sendable {
    /// Every contact's name.
    case contacts
    /// Members I watch over (`ping send`).
    case dependents
    /// Responders whose ping to me is pending (`ping respond`).
    case respondersPinging = "responders-pinging"
    /// Dependents I have a pending ping to (`ping clear`).
    case pingedDependents = "pinged-dependents"
}

/// A parsed command line, ready for a command's `run`.
struct Invocation {
    var path: [String]
    var options: [String: String] = [:]
    /// Values of repeatable options, in the order given.
    var lists: [String: [String]] = [:]
    var flags: Set<String> = []
    var arguments: [String] = []
    var global = GlobalOptions()

    func value(_ long: String) -> String? { options[long] }
    func values(_ long: String) -> [String] { lists[long] ?? [] }
    func flag(_ long: String) -> Bool { flags.contains(long) }
    func argument(_ index: Int) -> String? { arguments.indices.contains(index) ? arguments[index] : nil }
}

/// The options every command accepts, anywhere on the line.
struct GlobalOptions {
    var json = false
    var quiet = false
    var noColor = false
    var home: String?
}

/// One node of the command tree: its help, its options and arguments, its subcommands and
/// what runs it. `CommandTable.root` is the only tree; help, usage, "did you mean",
/// completions and the man page's command list all come from it.
struct CommandSpec: Sendable {
    typealias Run = @Sendable (Invocation, inout Session) throws(CLIError) -> ExitCode

    var name: String
    var abstract: String
    var discussion: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    var hidden = false
    var run: Run? = nil

    func subcommand(named name: String) -> CommandSpec? { subcommands.first { $0.name == name } }

    var visibleSubcommands: [CommandSpec] { subcommands.filter { !$0.hidden } }

    /// `lifesignal checkin interval [<duration>]`.
    func usage(path: [String]) -> String {
        var parts = ["lifesignal"] + path
        parts += options.map(\.synopsis)
        for argument in arguments {
            parts.append(argument.optional ? "[<\(argument.name)>]" : "<\(argument.name)>")
        }
        if !visibleSubcommands.isEmpty { parts.append(run == nil ? "<subcommand>" : "[<subcommand>]") }
        return parts.joined(separator: " ")
    }
}
