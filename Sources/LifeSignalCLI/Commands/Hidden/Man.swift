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
