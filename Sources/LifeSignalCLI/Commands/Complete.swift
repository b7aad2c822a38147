import LifeSignalCore
import LifeSignalStore

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
        run: { invocation, session throws(CLIError) in
            guard let source = invocation.argument(0).flatMap(CompletionSource.init(rawValue:)) else { return .ok }
            let names = candidates(source, prefix: invocation.argument(1) ?? "", session: session)
            if !names.isEmpty {
                // Straight to stdout, and a failed write is ignored: nothing may reach stderr.
                _ = session.context.write(.standardOutput, names.map { $0 + "\n" }.joined())
            }
            return .ok
        })

    /// The candidates, or none when the data directory cannot be read for any reason.
    static func candidates(_ source: CompletionSource, prefix: String, session: Session) -> [String] {
        guard let store = try? session.openStore(),
            // Not `session.snapshot`: that warns on stderr about other devices' damaged logs.
            let circle = try? store.snapshot().state
        else { return [] }
        return candidates(source, prefix: prefix, circle: circle, me: store.identity.member, now: session.now)
    }

    /// The names of my contacts that `source` asks for and that start with `prefix` (ignoring
    /// case), in the order `contacts(of:)` gives, each once.
    static func candidates(_ source: CompletionSource, prefix: String, circle: CircleState, me: String, now: Timestamp)
        -> [String]
    {
        let contacts = circle.contacts(of: me)
        let chosen: [Contact]
        switch source {
        case .contacts:
            chosen = contacts
        case .dependents:
            chosen = contacts.filter { $0.kind == .member && $0.roles.dependent }
        case .respondersPinging, .pingedDependents:
            let incoming = source == .respondersPinging
            let pending = PingCommand.entries(circle: circle, me: me, now: now, contacts: contacts)
                .filter { $0.incoming == incoming && $0.state == "pending" }
            let others = Set(pending.map { incoming ? $0.ping.from : $0.ping.to })
            chosen = contacts.filter { others.contains($0.id) }
        }
        let wanted = prefix.lowercased()
        var seen: Set<String> = []
        return chosen.map(\.name).filter { name in
            // One candidate per line: a name that could break a line is left out.
            !name.isEmpty && !name.contains(where: \.isNewline) && name.lowercased().hasPrefix(wanted)
                && seen.insert(name).inserted
        }
    }
}
