import LifeSignalCore

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
