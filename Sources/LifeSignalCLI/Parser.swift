import LifeSignalApp
import LifeSignalCore

/// What the command line asks for, decided before anything else happens.
enum ParseResult {
    case run(CommandSpec, Invocation)
    case help(path: [String], global: GlobalOptions)
    case helpTopic(String, global: GlobalOptions)
    case version(global: GlobalOptions)
}

/// Turns argv into a `ParseResult` using the command table, by hand: `--opt=value`,
/// `--opt value`, `-abc` (bundled short flags), `-n value`, and `--` ending options. Every
/// value is converted to its kind here, once, and the command's `UsageRule`s are checked, so a
/// usage error always comes from the table before anything runs. Pure: no files, clock or
/// environment.
enum Parser {
    static func parse(_ arguments: [String]) throws(CLIError) -> ParseResult {
        try parse(arguments, root: CommandTable.root(for: arguments))
    }

    static func parse(_ arguments: [String], root: CommandSpec) throws(CLIError) -> ParseResult {
        var line = Line(tokens: arguments, spec: root)
        while let token = line.next() { try line.take(token) }
        return try line.finish(root: root)
    }
}

/// The state of one parse: where in the tree we are and what has been read so far.
private struct Line {
    let tokens: [String]
    var index = 0
    var spec: CommandSpec
    var invocation = Invocation(path: [])
    var wantsHelp = false
    var wantsVersion = false
    /// Set by the word `help`: the rest names the command to show help for.
    var helpPath: [String]? = nil
    var optionsEnded = false

    mutating func next() -> String? {
        guard index < tokens.count else { return nil }
        index += 1
        return tokens[index - 1]
    }

    func usage(_ message: String) -> CLIError { .usage(message: message, command: invocation.path) }

    mutating func take(_ token: String) throws(CLIError) {
        if helpPath != nil {
            takeHelpWord(token)
        } else if !optionsEnded, token == "--" {
            optionsEnded = true
        } else if !optionsEnded, token.hasPrefix("--") {
            try takeLong(token.dropFirst(2))
        } else if !optionsEnded, token.hasPrefix("-"), token.count > 1,
            !(token.dropFirst().first.map { $0.isASCII && $0.isNumber } ?? false)
        {
            // No option is named by a digit: "-5h" is a value (a negative one), not "-5".
            try takeShort(Array(token.dropFirst()))
        } else {
            try takeWord(token)
        }
    }

    /// `lifesignal help checkin interval`: the rest names the command. Options are ignored, and
    /// so is the value of one that takes a value (`--home DIR`), which is not a command name.
    mutating func takeHelpWord(_ token: String) {
        if token.hasPrefix("--"), !token.includes("="),
            let option = CommandTable.globalOptions.first(where: { "--" + $0.long == token }), option.takesValue
        {
            index += 1
        } else if !token.hasPrefix("-") {
            helpPath?.append(token)
        }
    }

    func option(named long: String) -> OptionSpec? {
        spec.options.first { $0.long == long } ?? CommandTable.globalOptions.first { $0.long == long }
    }

    func option(short: Character) -> OptionSpec? {
        spec.options.first { $0.short == short } ?? CommandTable.globalOptions.first { $0.short == short }
    }

    mutating func takeLong(_ body: Substring) throws(CLIError) {
        var name = String(body)
        var inline: String? = nil
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inline = String(body[body.index(after: equals)...])
        }
        guard let option = option(named: name) else {
            let candidates = (spec.options + CommandTable.globalOptions).map { "--" + $0.long }
            throw usage("Unknown option '--\(name)'." + Suggest.phrase(for: "--" + name, among: candidates))
        }
        guard option.takesValue else {
            if inline != nil { throw usage("'--\(name)' takes no value.") }
            return try record(option, value: nil, as: "--\(name)")
        }
        if inline == nil {
            guard let value = next() else { throw usage("Missing value for '\(option.label)'.") }
            inline = value
        }
        try record(option, value: inline, as: "--\(name)")
    }

    mutating func takeShort(_ letters: [Character]) throws(CLIError) {
        var rest = letters[...]
        while let letter = rest.popFirst() {
            guard let option = option(short: letter) else { throw usage("Unknown option '-\(letter)'.") }
            guard option.takesValue else {
                try record(option, value: nil, as: "-\(letter)")
                continue
            }
            var value = String(rest)
            rest = []
            if value.isEmpty {
                guard let given = next() else {
                    throw usage("Missing value for '-\(letter) <\(option.valueName ?? "value")>'.")
                }
                value = given
            }
            try record(option, value: value, as: "-\(letter)")
        }
    }

    /// A positional word: a subcommand while the command has them and no argument has been
    /// taken yet; otherwise an argument.
    mutating func takeWord(_ token: String) throws(CLIError) {
        if !optionsEnded, invocation.arguments.isEmpty, !spec.subcommands.isEmpty {
            if token == "help" {
                helpPath = invocation.path
                return
            }
            if let next = spec.subcommand(named: token) {
                spec = next
                invocation.path.append(token)
                return
            }
            if spec.arguments.isEmpty {
                let names = spec.visibleSubcommands.map(\.name) + ["help"]
                // "Unknown subcommand 'stat' of 'checkin'": the unknown word first, as for commands.
                let what =
                    invocation.path.isEmpty
                    ? "command '\(token)'"
                    : "subcommand '\(token)' of '\(invocation.path.joined(separator: " "))'"
                var hint = Suggest.phrase(for: token, among: names)
                // A sentence where a subcommand goes is a note meant for the command itself.
                if hint.isEmpty, spec.options.contains(where: { $0.long == "note" }) {
                    let quoted = Completions.shellWord(token)
                    hint =
                        " To record it as a note: lifesignal \(invocation.path.joined(separator: " ")) --note \(quoted)"
                }
                throw usage("Unknown \(what)." + hint)
            }
        }
        guard invocation.arguments.count < spec.arguments.count else {
            throw usage("Unexpected argument '\(token)'.")
        }
        let argument = spec.arguments[invocation.arguments.count]
        invocation.arguments.append(try argument.kind.read(token, label: "'<\(argument.name)>'", path: invocation.path))
    }

    /// Records one option occurrence, with its value converted to its kind.
    mutating func record(_ option: OptionSpec, value text: String?, as written: String) throws(CLIError) {
        let value = try text.map { text throws(CLIError) in
            try (option.kind ?? .text).read(text, label: "'\(option.label)'", path: invocation.path)
        }
        switch option.long {
        case "help": wantsHelp = true
        case "version": wantsVersion = true
        case "json": invocation.global.json = true
        case "quiet": invocation.global.quiet = true
        case "no-color": invocation.global.noColor = true
        case "home": invocation.global.home = value?.text
        default:
            guard let value else {
                invocation.flags.insert(option.long)
                return
            }
            if !option.repeatable, invocation.options[option.long] != nil {
                throw usage("'\(written)' was given more than once; give it once")
            }
            invocation.options[option.long, default: []].append(value)
        }
    }

    /// What the whole line asks for, once every word is read.
    func finish(root: CommandSpec) throws(CLIError) -> ParseResult {
        if let helpPath { return try help(for: helpPath, root: root) }
        if wantsHelp { return .help(path: invocation.path, global: invocation.global) }
        if wantsVersion { return .version(global: invocation.global) }
        guard spec.run != nil else { return .help(path: invocation.path, global: invocation.global) }
        let required = spec.arguments.filter { !$0.optional }.count
        if invocation.arguments.count < required {
            throw usage("Missing expected argument '<\(spec.arguments[invocation.arguments.count].name)>'.")
        }
        for rule in spec.rules { try check(rule) }
        return .run(spec, invocation)
    }

    /// `help` followed by a command, or one of the help topics.
    func help(for path: [String], root: CommandSpec) throws(CLIError) -> ParseResult {
        if path.count == invocation.path.count + 1, invocation.path.isEmpty,
            CommandTable.helpTopics.contains(where: { $0.name == path[0] })
        {
            return .helpTopic(path[0], global: invocation.global)
        }
        // Resolve the named command from the root so that every name is checked.
        var target = root
        var resolved: [String] = []
        for name in path {
            guard let next = target.subcommand(named: name) else {
                let names =
                    target.visibleSubcommands.map(\.name)
                    + (resolved.isEmpty ? CommandTable.helpTopics.map(\.name) : [])
                throw CLIError.usage(
                    message: "No help for '\((resolved + [name]).joined(separator: " "))': unknown command."
                        + Suggest.phrase(for: name, among: names),
                    command: resolved)
            }
            target = next
            resolved.append(name)
        }
        return .help(path: resolved, global: invocation.global)
    }

    /// Whether the option `--long` or the argument `<name>` was given.
    func given(_ name: String) -> Bool {
        if name.hasPrefix("--") {
            let long = String(name.dropFirst(2))
            return invocation.flags.contains(long) || invocation.options[long] != nil
        }
        let argument = name.dropFirst().dropLast()
        guard let index = spec.arguments.firstIndex(where: { $0.name == argument }) else { return false }
        return invocation.arguments.count > index
    }

    func check(_ rule: UsageRule) throws(CLIError) {
        switch rule {
        case .contradict(let a, let b):
            if given(a) && given(b) { throw usage("\(a) and \(b) contradict each other; give one.") }
        case .exactlyOne(let names, let missing, let several):
            let count = names.filter(given).count
            if count == 0 { throw usage(missing) }
            if count > 1 { throw usage(several) }
        case .atLeastOne(let names, let message):
            if !names.contains(where: given) { throw usage(message) }
        case .requires(let name, let needed, let message):
            if given(name) && !given(needed) { throw usage(message) }
        case .excludes(let name, let others, let message):
            if given(name) && others.contains(where: given) { throw usage(message) }
        }
    }
}

extension ValueKind {
    /// A time as `--since`/`--until` and `trip` take it: RFC 3339, a local date and time, or a
    /// duration from now (`later`) or ago.
    static func time(_ text: String, later: Bool) -> TimeQuery? {
        if let time = Timestamp(rfc3339: text) { return .at(time) }
        if let local = TimeQuery.local(text) { return local }
        return TimeSpan(parsing: text).map { later ? .fromNow($0) : .ago($0) }
    }

    /// What a time should look like; for one meant as a duration (digits, no date or clock),
    /// first why it is none, as durations say it ("fractions are not accepted …").
    static func timeHint(_ text: String, later: Bool) -> String {
        let meantAsDuration =
            text.unicodeScalars.contains { ("0"..."9").contains($0) }
            && !text.unicodeScalars.contains { $0 == "-" || $0 == ":" || $0 == "T" }
        let why = meantAsDuration ? (TimeSpan.problem(parsing: text).map { $0 + "; " } ?? "") : ""
        return why
            + (later
                ? "give a duration from now such as 3h or 14d, a date and time such as 2026-12-24 18:00, or an RFC 3339 time."
                : "give a date (2026-11-01), a date and time (2026-11-01 18:30), an RFC 3339 time, or a duration such as 7d meaning that long ago.")
    }

    /// The text as a value of this kind, or a usage error that names the value and says what
    /// would do.
    func read(_ text: String, label: String, path: [String]) throws(CLIError) -> Value {
        func bad(_ hint: String) -> CLIError {
            .usage(message: "The value '\(text)' is invalid for \(label): \(hint)", command: path)
        }
        func badProse(_ problem: String) -> CLIError {
            .usage(message: "The value for \(label) is invalid: \(problem).", command: path)
        }
        switch self {
        case .text, .directory, .contact, .ping:
            if text.isEmpty { throw bad("it is empty.") }
            if self == .directory, text.unicodeScalars.contains("\u{0}") {
                throw bad("a path cannot contain a NUL character.")
            }
        case .prose(let field):
            if let problem = Rules.problem(withText: text, field: field) { throw badProse(problem) }
        case .code:
            if PassedCode(text) == nil {
                throw bad(
                    "give the enrollment code 'lifesignal circle enroll' printed on one of the member's devices, or their recovery code."
                )
            }
        case .codeOrName:
            if !PassedCode.isInvite(text), let problem = Rules.problem(withText: text, field: "name") {
                throw badProse(problem)
            }
        case .duration, .durationOrOff:
            if self == .durationOrOff, text == "off" { return .off }
            guard let span = TimeSpan(parsing: text) else {
                let example = self == .duration ? "45m, 8h or 1d12h" : "30m or 2h, or 'off'"
                throw bad("\(TimeSpan.problem(parsing: text) ?? "not a duration"); give a duration such as \(example).")
            }
            return .span(span)
        case .time, .later:
            guard let time = Self.time(text, later: self == .later) else {
                throw bad(Self.timeHint(text, later: self == .later))
            }
            return .time(time)
        case .count:
            guard let n = Int(text), n >= 1, n <= 1_000_000 else { throw bad("give a whole number from 1 to 1000000.") }
            return .count(n)
        case .choice(let choices):
            if !choices.contains(text) {
                let list = choices.map { "'\($0)'" }
                let joined =
                    list.count > 1
                    ? list.dropLast().joined(separator: ", ") + " or " + (list.last ?? "") : list.joined()
                throw bad("please provide one of \(joined).")
            }
        case .channel, .email, .phone, .url, .timeOfDay, .weekdays:
            if let hint = hint(for: text) { throw bad(hint) }
        }
        return .text(text)
    }

    /// What is wrong with an address, URL or calendar value of this kind, or nil.
    private func hint(for text: String) -> String? {
        switch self {
        case .channel: return Address.problem(withChannel: text).map { $0 + "." }
        case .email: return Address.problem(withEmail: text).map { $0 + "." }
        case .phone: return Address.problem(withPhone: text).map { $0 + "." }
        case .url: return Heartbeats.problem(with: text).map { $0 + "." }
        case .timeOfDay:
            return TimeOfDay(parsing: text) == nil ? "give a time of day on the 24-hour clock, such as 09:00." : nil
        case .weekdays:
            return ScheduleCommand.days(text) == nil
                ? "give days such as mon,wed,fri (sun mon tue wed thu fri sat), weekdays or weekends." : nil
        default: return nil
        }
    }
}

/// "Did you mean" by edit distance, as swift-argument-parser and ripgrep do.
enum Suggest {
    static func phrase(for word: String, among candidates: [String]) -> String {
        guard let best = closest(to: word, among: candidates) else { return "" }
        return " Did you mean '\(best)'?"
    }

    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { candidate, d in
            d <= max(1, min(2, word.count / 3)) || (word.count >= 3 && candidate.hasPrefix(word))
        }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance counting a swap of two neighbouring letters as one edit (optimal string
    /// alignment), so "chekcin" is one edit from "checkin" and "Bae" one from "Bea".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
