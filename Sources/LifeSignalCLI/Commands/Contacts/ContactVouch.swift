import LifeSignalApp
import LifeSignalCore

/// `lifesignal contacts vouch`: a responder's "I have seen them and they are fine", within limits
/// (see `Vouching`).
enum VouchCommand {
    static let note = OptionSpec.value(
        "note", "text", .prose("note"),
        "What you saw, for them and those told of the miss (e.g. \"at the shop at 10\").")

    static let spec = CommandSpec(
        name: "vouch",
        abstract: "Say you have seen someone you watch over and they are fine, ending their missed check-in.",
        discussion: """
            Only during a miss of someone you watch over, once per missed deadline. It ends that miss (those told of it hear it, with your note and your name), and their countdown restarts from your vouch, so their switch stays armed; it shows as your vouch, never as their check-in, and they are told of it. After two misses in a row ended only by vouches, the next one cannot be vouched away: they must check in themselves.
            """,
        arguments: [ContactsCommand.contactArgument],
        options: [note],
        run: vouch)

    static func vouch(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let name = line.text(argument: 0) ?? ""
        let note = line.text(Self.note)
        let result = try session.call(line.path) { app throws(AppError) in try app.vouch(for: name, note: note) }
        result.delivery?.tellFailures(session)
        try session.output.json(result)
        let next = result.status.deadline.map { "; their next deadline is \(session.when($0))" } ?? ""
        try session.output.line(
            "You vouched for \(TerminalText.safeLine(result.name)): the missed check-in due \(session.when(result.missed)) is ended\(next). They and those told of it are told."
        )
        return .ok
    }
}

/// Whom `contacts vouch` vouched for, and the missed deadline it ended.
extension App.VouchResult: JSONRendered {
    var json: JSON { ["vouchedFor": .string(name), "missed": .string(missed.rfc3339)] }
}
