import LifeSignalCore

/// The whole program as a function: argv → parse → command → store → render → exit code.
/// `main.swift` calls `run` with the real world; tests call it with a fake one.
public enum LifeSignal {
    public static func run(_ context: Context) -> Int32 {
        var global = GlobalOptions()
        // Global flags are read before parsing so that even a usage error honours --json.
        // Only before `--`: after it, "--json" is an argument's value, not the flag.
        global.json = context.arguments.prefix { $0 != "--" }.contains("--json")
        do throws(CLIError) {
            if context.argumentsUnreadable {
                throw .ioFailed(
                    "could not read this program's own arguments (the system gave none: is the limit of open files, 'ulimit -n', below 4?). Nothing was done; run it again with more files allowed"
                )
            }
            let result = try Parser.parse(context.arguments)
            switch result {
            // Help and the version need no clock, lock or data directory: they use a bare
            // Output rather than a Session, so a malformed LIFESIGNAL_NOW or
            // LIFESIGNAL_LOCK_TIMEOUT cannot hide the help that explains them.
            case .help(let path, let g):
                global = g
                var output = Output(context: context, global: g)
                try output.raw(Help.page(for: spec(at: path), path: path, width: width(context)))
                try output.flush()
                return output.exitCode(.ok)
            case .helpTopic(let name, let g):
                global = g
                var output = Output(context: context, global: g)
                if let topic = CommandTable.helpTopics.first(where: { $0.name == name }) {
                    try output.raw(topic.text())
                }
                try output.flush()
                return output.exitCode(.ok)
            case .version(let g):
                global = g
                var output = Output(context: context, global: g)
                try output.raw(
                    g.json
                        ? JSON.object(JSONObject([("version", .string(CommandTable.version))])).serialized() + "\n"
                        : "lifesignal \(CommandTable.version)\n")
                try output.flush()
                return output.exitCode(.ok)
            case .run(let spec, let invocation):
                global = invocation.global
                var session = try Session(context: context, global: invocation.global)
                guard let run = spec.run else { return ExitCode.ok.rawValue }
                do throws(CLIError) {
                    let code = try run(invocation, &session)
                    try session.output.flush()
                    // Recorded, not finished (the circle's copy, the feed): the result above
                    // stands, and the run fails saying what is missing.
                    if let unfinished = session.unfinished { throw CLIError.store(unfinished) }
                    return session.output.exitCode(code)
                } catch {
                    // What the command printed before failing still goes out, before the error.
                    try? session.output.flush()
                    throw error
                }
            }
        } catch {
            return report(error, context: context, global: global)
        }
    }

    static func spec(at path: [String]) -> CommandSpec {
        var spec = CommandTable.root
        for name in path { if let next = spec.subcommand(named: name) { spec = next } }
        return spec
    }

    static func width(_ context: Context) -> Int {
        if let text = context.environment["COLUMNS"], let columns = Int(text), columns >= 40 { return columns }
        if let columns = context.terminalColumns, columns >= 40 { return columns }
        return 80
    }

    /// The one place errors become text on stderr and an exit code.
    static func report(_ error: CLIError, context: Context, global: GlobalOptions) -> Int32 {
        let code = error.exitCode
        if global.json {
            let json: JSON = ["error": ["code": .int(Int64(code.rawValue)), "message": .string(error.message)]]
            _ = context.write(.standardError, json.serialized() + "\n")
            return code.rawValue
        }
        var text = "lifesignal: error: \(error.message)\n"
        if case .usage(_, let path) = error {
            let spec = spec(at: path)
            text += "Usage: \(spec.usage(path: path))\n"
            text += "  See '\((["lifesignal"] + path).joined(separator: " ")) --help' for more information.\n"
        }
        _ = context.write(.standardError, TerminalText.safe(text))
        return code.rawValue
    }
}
