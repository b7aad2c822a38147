import LifeSignalCore

/// What the command line asks for, decided before anything else happens.
enum ParseResult {
    case run(CommandSpec, Invocation)
    case help(path: [String], global: GlobalOptions)
    case helpTopic(String, global: GlobalOptions)
    case version(global: GlobalOptions)
}

/// Turns argv into a `ParseResult` using the command table, by hand: `--opt=value`,
/// `--opt value`, `-abc` (bundled short flags), `-n value`, and `--` ending options.
/// Pure: no files, clock or environment.
enum Parser {
    static func parse(_ arguments: [String], root: CommandSpec = CommandTable.root) throws(CLIError) -> ParseResult {
        var spec = root
        var invocation = Invocation(path: [])
        var wantsHelp = false
        var wantsVersion = false
        var helpPath: [String]? = nil
        var optionsEnded = false
        var index = 0

        func usage(_ message: String) -> CLIError { .usage(message: message, command: invocation.path) }

        func option(named long: String) -> OptionSpec? {
            spec.options.first { $0.long == long } ?? CommandTable.globalOptions.first { $0.long == long }
        }
        func option(short: Character) -> OptionSpec? {
            spec.options.first { $0.short == short } ?? CommandTable.globalOptions.first { $0.short == short }
        }

        /// Records one option occurrence, with its value if it takes one.
        func record(_ option: OptionSpec, value: String?, as written: String) throws(CLIError) {
            switch option.long {
            case "help": wantsHelp = true
            case "version": wantsVersion = true
            case "json": invocation.global.json = true
            case "quiet": invocation.global.quiet = true
            case "no-color": invocation.global.noColor = true
            case "home":
                // Checked like any other value, so `--home=` is a usage error (64), not a
                // bad environment (78) found later by DataLocation.
                if let value, let kind = option.kind {
                    try check(value, kind: kind, label: "'\(option.label)'", path: invocation.path)
                }
                invocation.global.home = value
            default:
                if let value, option.repeatable {
                    if let kind = option.kind {
                        try check(value, kind: kind, label: "'\(option.label)'", path: invocation.path)
                    }
                    invocation.lists[option.long, default: []].append(value)
                } else if let value {
                    if invocation.options[option.long] != nil {
                        throw usage("'\(written)' was given more than once; give it once")
                    }
                    if let kind = option.kind {
                        try check(value, kind: kind, label: "'\(option.label)'", path: invocation.path)
                    }
                    invocation.options[option.long] = value
                } else {
                    invocation.flags.insert(option.long)
                }
            }
        }

        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if helpPath != nil {
                // `lifesignal help checkin interval`: the rest names the command. Options are
                // ignored, and so is the value of one that takes a value (`--home DIR`), which
                // is not a command name.
                if token.hasPrefix("--"), !token.contains("="),
                    let option = CommandTable.globalOptions.first(where: { "--" + $0.long == token }), option.takesValue
                {
                    index += 1
                } else if !token.hasPrefix("-") {
                    helpPath?.append(token)
                }
                continue
            }
            if !optionsEnded, token == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded, token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name: String
                var inline: String? = nil
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inline = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
                guard let option = option(named: name) else {
                    let candidates = (spec.options + CommandTable.globalOptions).map { "--" + $0.long }
                    throw usage("Unknown option '--\(name)'." + Suggest.phrase(for: "--" + name, among: candidates))
                }
                if option.takesValue {
                    var value = inline
                    if value == nil {
                        guard index < arguments.count else { throw usage("Missing value for '\(option.label)'.") }
                        value = arguments[index]
                        index += 1
                    }
                    try record(option, value: value, as: "--\(name)")
                } else {
                    if inline != nil { throw usage("'--\(name)' takes no value.") }
                    try record(option, value: nil, as: "--\(name)")
                }
                continue
            }
            if !optionsEnded, token.hasPrefix("-"), token.count > 1 {
                var letters = Array(token.dropFirst())
                while !letters.isEmpty {
                    let letter = letters.removeFirst()
                    guard let option = option(short: letter) else {
                        throw usage("Unknown option '-\(letter)'.")
                    }
                    if option.takesValue {
                        var value: String
                        if !letters.isEmpty {
                            value = String(letters)
                            letters.removeAll()
                        } else {
                            guard index < arguments.count else {
                                throw usage("Missing value for '-\(letter) <\(option.valueName ?? "value")>'.")
                            }
                            value = arguments[index]
                            index += 1
                        }
                        try record(option, value: value, as: "-\(letter)")
                    } else {
                        try record(option, value: nil, as: "-\(letter)")
                    }
                }
                continue
            }
            // A positional word: a subcommand while the command has them and no argument has
            // been taken yet; otherwise an argument.
            if !optionsEnded, invocation.arguments.isEmpty, !spec.subcommands.isEmpty {
                if token == "help" {
                    helpPath = invocation.path
                    continue
                }
                if let next = spec.subcommand(named: token) {
                    spec = next
                    invocation.path.append(token)
                    continue
                }
                if spec.arguments.isEmpty {
                    let names = spec.visibleSubcommands.map(\.name) + ["help"]
                    // "Unknown subcommand 'stat' of 'checkin'": the unknown word first, as for commands.
                    let what =
                        invocation.path.isEmpty
                        ? "command '\(token)'" : "subcommand '\(token)' of '\(invocation.path.joined(separator: " "))'"
                    throw usage("Unknown \(what)." + Suggest.phrase(for: token, among: names))
                }
            }
            guard invocation.arguments.count < spec.arguments.count else {
                throw usage("Unexpected argument '\(token)'.")
            }
            let argument = spec.arguments[invocation.arguments.count]
            try check(token, kind: argument.kind, label: "'<\(argument.name)>'", path: invocation.path)
            invocation.arguments.append(token)
        }

        if let helpPath {
            if helpPath.count == invocation.path.count + 1, invocation.path.isEmpty,
                CommandTable.helpTopics.contains(where: { $0.name == helpPath[0] })
            {
                return .helpTopic(helpPath[0], global: invocation.global)
            }
            // Resolve the named command from the root so that every name is checked.
            var target = root
            var resolved: [String] = []
            for name in helpPath {
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
        if wantsHelp { return .help(path: invocation.path, global: invocation.global) }
        if wantsVersion { return .version(global: invocation.global) }
        guard spec.run != nil else { return .help(path: invocation.path, global: invocation.global) }
        let required = spec.arguments.filter { !$0.optional }.count
        if invocation.arguments.count < required {
            let missing = spec.arguments[invocation.arguments.count]
            throw usage("Missing expected argument '<\(missing.name)>'.")
        }
        return .run(spec, invocation)
    }

    /// Checks a value against its kind so that a bad value is a usage error before anything runs.
    static func check(_ value: String, kind: ValueKind, label: String, path: [String]) throws(CLIError) {
        func bad(_ hint: String) -> CLIError {
            .usage(message: "The value '\(value)' is invalid for \(label): \(hint)", command: path)
        }
        switch kind {
        case .text, .directory, .contact, .ping:
            if value.isEmpty { throw bad("it is empty.") }
        case .duration:
            if TimeSpan(parsing: value) == nil { throw bad("give a duration such as 45m, 8h or 1d12h.") }
        case .durationOrOff:
            if value != "off", TimeSpan(parsing: value) == nil {
                throw bad("give a duration such as 30m or 2h, or 'off'.")
            }
        case .time:
            if Timestamp(rfc3339: value) == nil, TimeSpan(parsing: value) == nil {
                throw bad(
                    "give an RFC 3339 time such as 2026-01-31T09:00:00Z, or a duration such as 7d meaning that long ago."
                )
            }
        case .count:
            guard let n = Int(value), n >= 1, n <= 1_000_000 else {
                throw bad("give a whole number from 1 to 1000000.")
            }
        case .choice(let choices):
            if !choices.contains(value) {
                let list = choices.map { "'\($0)'" }
                let joined =
                    list.count > 1
                    ? list.dropLast().joined(separator: ", ") + " or " + (list.last ?? "") : list.joined()
                throw bad("please provide one of \(joined).")
            }
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
