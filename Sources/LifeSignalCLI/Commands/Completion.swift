/// `lifesignal completion <shell>`: print the completion script for bash, zsh or fish,
/// generated from the command table (see `Completions`).
enum CompletionCommand {
    static let shells = Completions.Shell.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Save the script where your shell looks for completions, then start a new shell:

              lifesignal completion bash > ~/.local/share/bash-completion/completions/lifesignal
              lifesignal completion zsh > ~/.zsh/completions/_lifesignal
              lifesignal completion fish > ~/.config/fish/completions/lifesignal.fish

            bash needs the bash-completion package (or source the script from ~/.bashrc). For zsh, use any directory in $fpath, added before compinit runs, e.g. fpath=(~/.zsh/completions $fpath) in ~/.zshrc; the file must be named _lifesignal.
            """,
        arguments: [
            ArgumentSpec(name: "shell", kind: .choice(shells), optional: false, help: "The shell: bash, zsh or fish.")
        ],
        run: run)

    static func run(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        // The parser has checked the choice; the guard keeps a bad table from crashing.
        guard let name = invocation.text(argument: 0), let shell = Completions.Shell(rawValue: name) else {
            throw .usage(message: "Missing expected argument '<shell>'.", command: invocation.path)
        }
        try session.output.raw(Completions.script(for: shell))
        return .ok
    }
}
