import LifeSignalCore

/// `lifesignal __man`: print the manual page (mdoc) generated from the command table. Hidden
/// (not in help, completions or the page itself): it exists so that `scripts/generate-docs`
/// can write `man/lifesignal.1` from the same binary that prints the completion scripts.
enum ManCommand {
    static let spec = CommandSpec(
        name: "__man",
        abstract: "Print the manual page (mdoc) generated from the command table.",
        hidden: true,
        run: run)

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        try session.output.raw(ManPage.render())
        return .ok
    }
}

/// `lifesignal __schema`: print the JSON Schema of the webhook and `exec:` document, generated
/// from `MessageDocument.fields`, so `scripts/generate-docs` writes
/// `man/lifesignal-notification.schema.json` from the same binary that sends the documents.
enum SchemaCommand {
    static let spec = CommandSpec(
        name: "__schema",
        abstract: "Print the JSON Schema of the notification document webhooks receive.",
        hidden: true,
        run: run)

    static func run(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        try session.output.raw(MessageDocument.jsonSchema.serialized(pretty: true) + "\n")
        return .ok
    }
}
