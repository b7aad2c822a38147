import LifeSignalApp
import LifeSignalCore

/// `lifesignal __complete <source> [<prefix>]`: the names the completion scripts offer for a
/// contact argument, one per line on stdout (see `CompletionSource` and
/// `Completions.Values.callback`). Hidden: not in help, completions or the man page.
///
/// It runs on every TAB, so it never complains: no profile, a damaged store, an unknown
/// source or any other failure prints nothing and exits 0, and nothing ever goes to stderr.
/// It only reads: it never creates a profile or records anything (like every read, it may
/// refresh the private read cache, which is what keeps it fast on a long history).
enum CompleteCommand {
    static let spec = CommandSpec(
        name: "__complete",
        abstract: "Print the contact names a completion script offers, one per line.",
        arguments: [
            ArgumentSpec(
                name: "source", kind: .text, optional: true,
                help: "What to list: contacts, dependents, responders-pinging, pinged-dependents."),
            ArgumentSpec(
                name: "prefix", kind: .text, optional: true, help: "Only names that start with this, ignoring case."),
        ],
        hidden: true,
        run: run)

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        guard let source = line.text(argument: 0).flatMap(CompletionSource.init(rawValue:)),
            let app = try? session.app()
        else { return .ok }
        let names = app.contactNames(source.group, prefix: line.text(argument: 1) ?? "")
        if !names.isEmpty {
            // Straight to stdout, and a failed write is ignored: nothing may reach stderr.
            _ = session.context.write(.standardOutput, names.map { $0 + "\n" }.joined())
        }
        return .ok
    }
}

extension CompletionSource {
    /// The contacts the application layer lists for it.
    var group: App.ContactGroup {
        switch self {
        case .contacts: return .all
        case .dependents: return .dependents
        case .respondersPinging: return .respondersPinging
        case .pingedDependents: return .pingedDependents
        }
    }
}
