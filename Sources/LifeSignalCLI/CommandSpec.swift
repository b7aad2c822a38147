import LifeSignalCore

/// What kind of value an option or argument takes. The parser turns the text into a `Value` of
/// this kind (refusing it with a usage error when it is not one), help shows its name, and
/// completions offer candidates for it.
enum ValueKind: Equatable, Sendable {
    /// Any text that is not empty.
    case text
    /// Text a person reads later (a note, a name, a message), checked by `Rules` under this
    /// field name: not blank, not too long, no control characters.
    case prose(String)
    /// An invite code (`lifesignal://…` or the bare code).
    case code
    /// An invite code, or else the name of an external person (`contacts add`).
    case codeOrName
    /// A duration such as `45m`, `8h`, `1d12h`.
    case duration
    /// A duration, or `off`.
    case durationOrOff
    /// An RFC 3339 time, or a duration meaning "that long ago".
    case time
    /// An RFC 3339 time, or a duration meaning "that long from now".
    case later
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
    /// A delivery channel URI (`mailto:`, `ntfy:`, `https://`, …).
    case channel
    /// An e-mail address.
    case email
    /// A phone number in international form.
    case phone
    /// A heartbeat URL (`https://…`).
    case url
    /// A time of day, `09:00`.
    case timeOfDay
    /// Days of the week: `mon,tue,fri`, `weekdays` or `weekends`.
    case weekdays
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
    /// `--yes`, for a command that asks for confirmation on a terminal.
    static let yes = flag("yes", short: "y", "Do not ask for confirmation (for scripts).")

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

/// An option that always has a value: the one given, else its default, which its help says.
/// `Invocation.value(_:)` reads it back typed, so no command writes the default again.
struct DefaultedOption<T: Sendable>: Sendable {
    var spec: OptionSpec
    var defaultValue: T
    /// The value as the parser made it (the parser refuses text of another kind).
    var read: @Sendable (Value) -> T?

    /// One of `T`'s cases, by its name.
    static func choice(_ long: String, _ valueName: String, default value: T, _ help: String) -> DefaultedOption<T>
    where T: CaseIterable & RawRepresentable<String> {
        DefaultedOption(spec: .value(long, valueName, .choice(T.allCases.map(\.rawValue)), help), defaultValue: value) {
            $0.text.flatMap(T.init(rawValue:))
        }
    }
}

extension DefaultedOption<Int> {
    /// `--limit <n>`, a whole number: `help` is handed the default as typed, to say it.
    static func count(_ long: String, _ valueName: String, default value: Int, help: (String) -> String) -> Self {
        Self(spec: .value(long, valueName, .count, help("\(value)")), defaultValue: value) { $0.count }
    }
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

/// A parsed command line, ready for a command's `run`: each value already converted to its kind
/// (once, by the parser), read back through the spec that declared it.
struct Invocation {
    var path: [String]
    /// Option values by the option's long name, in the order given.
    var options: [String: [Value]] = [:]
    var flags: Set<String> = []
    var arguments: [Value] = []
    var global = GlobalOptions()

    init(path: [String]) { self.path = path }

    func flag(_ option: OptionSpec) -> Bool { flags.contains(option.long) }
    func value(_ option: OptionSpec) -> Value? { options[option.long]?.last }
    func values(_ option: OptionSpec) -> [Value] { options[option.long] ?? [] }
    func text(_ option: OptionSpec) -> String? { value(option)?.text }
    func texts(_ option: OptionSpec) -> [String] { values(option).compactMap(\.text) }
    func argument(_ index: Int) -> Value? { arguments.indices.contains(index) ? arguments[index] : nil }
    func text(argument index: Int) -> String? { argument(index)?.text }
    /// The option's value, or its default when it is not given.
    func value<T>(_ option: DefaultedOption<T>) -> T { value(option.spec).flatMap(option.read) ?? option.defaultValue }
}

/// A value as its kind reads it.
enum Value: Equatable, Sendable {
    case text(String)
    case span(TimeSpan)
    /// `off`, for a duration that may be off.
    case off
    case time(TimeQuery)
    case count(Int)

    var text: String? {
        guard case .text(let text) = self else { return nil }
        return text
    }

    var span: TimeSpan? {
        guard case .span(let span) = self else { return nil }
        return span
    }

    var count: Int? {
        guard case .count(let count) = self else { return nil }
        return count
    }

    var time: TimeQuery? {
        guard case .time(let time) = self else { return nil }
        return time
    }
}

/// A time as given: an instant, or a duration meaning that long before now.
enum TimeQuery: Equatable, Sendable {
    case at(Timestamp)
    case ago(TimeSpan)
    case fromNow(TimeSpan)
    /// A date (its start) or a date and time on this machine's wall clock.
    case wall(LocalDate, TimeOfDay)

    /// The instant meant; `offset` is the local zone's offset at an instant.
    func resolved(now: Timestamp, offset: (Timestamp) -> Int64 = { _ in 0 }) -> Timestamp {
        switch self {
        case .at(let time): return time
        case .ago(let span): return now - span
        case .fromNow(let span): return now + span
        case .wall(let date, let time):
            let asUTC = ZoneRules.utc.instant(date, time)
            // The offset at the instant itself: a second look settles the hour a change moves.
            let first = Timestamp(seconds: asUTC.seconds - offset(asUTC))
            return Timestamp(seconds: asUTC.seconds - offset(first))
        }
    }

    /// `2026-11-01`, `2026-11-01 18:30` or `2026-11-01T18:30`, as a wall-clock time.
    static func local(_ text: String) -> TimeQuery? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        let numbers = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int64($0) }
        guard numbers.count == 3, parts[0].utf8.count == 10, let year = numbers[0], let month = numbers[1],
            let day = numbers[2], let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        guard parts.count == 2 else { return .wall(date, .midnight) }
        guard let time = TimeOfDay(parsing: parts[1]) else { return nil }
        return .wall(date, time)
    }
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
    /// How its options and arguments go together, checked by the parser.
    var rules: [UsageRule] = []
    /// Command lines a person types, shown under EXAMPLES in the help page and the man page
    /// (each is parsed by the tests, so none can rot).
    var examples: [String] = []
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

/// How a command's options and arguments go together. The parser checks these after reading the
/// line, so a contradiction is a usage error before anything runs. Options are named `--long`,
/// the command's arguments `<name>`.
enum UsageRule: Sendable {
    /// Never both: "--a and --b contradict each other; give one."
    case contradict(String, String)
    /// Exactly one of these.
    case exactlyOne([String], missing: String, several: String)
    /// At least one of these.
    case atLeastOne([String], message: String)
    /// When the first is given, the second must be.
    case requires(String, String, message: String)
    /// When the first is given, none of the others may be.
    case excludes(String, [String], message: String)

    /// Every name the rule mentions (a test checks each is declared by its command).
    var names: [String] {
        switch self {
        case .contradict(let a, let b): return [a, b]
        case .exactlyOne(let names, _, _), .atLeastOne(let names, _): return names
        case .requires(let a, let b, _): return [a, b]
        case .excludes(let a, let others, _): return [a] + others
        }
    }
}
