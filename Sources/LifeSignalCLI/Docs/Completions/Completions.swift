/// Shell completion scripts for bash, zsh and fish, generated from `CommandTable.root` so that
/// they offer exactly the commands, options and values the parser accepts. The scripts are
/// committed under `completions/` (see `scripts/generate-docs`); a test fails when they drift.
///
/// Every script follows the parser's rules: global options are accepted after any command,
/// `--opt value` and `--opt=value` both work, bundled short flags (`-qh`), `--` ends options,
/// `help` may follow any command that has subcommands and then takes command names (and, at
/// the top, help topics). Hidden commands are never offered.
///
/// This type owns the choice of shell. The tree as the scripts see it is in
/// `CompletionTree.swift`, the quoting rules in `ShellQuoting.swift`, and each shell's script
/// in its own file (`Bash`, `Zsh`, `Fish`).
enum Completions {
    /// The shells there is a script for, named as `lifesignal completion <shell>` takes them.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return Bash.script()
        case .zsh: return Zsh.script()
        case .fish: return Fish.script()
        }
    }
}
