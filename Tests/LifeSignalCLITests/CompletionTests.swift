import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalCLI

/// Outside tools the completion and man page tests run (shells, linters), found on PATH. A
/// test that needs one that is missing is skipped with the reason shown, never passed.
enum DocTools {
    static let searchPath: [String] = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"]
    }()

    static func path(of tool: String) -> String? {
        searchPath.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func exists(_ tool: String) -> Bool { path(of: tool) != nil }

    /// bash-completion 2.x's main script (Debian, Fedora, Homebrew on Linux).
    static let bashCompletion: String? = ["/usr/share/bash-completion/bash_completion", "/usr/local/share/bash-completion/bash_completion"]
        .first { FileManager.default.fileExists(atPath: $0) }

    /// PATH for the shells under test: the folder of the built binary first (later, dynamic
    /// completions call it by name), then the system's.
    static var shellPath: String {
        (URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path + ":" + searchPath.joined(separator: ":"))
    }

    /// Runs `tool arguments` with a minimal environment, under `timeout` when there is one so
    /// that a shell waiting for input fails the test instead of hanging it.
    static func run(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:], home: TempHome) -> Run {
        guard let executable = path(of: tool) else { return Run(stdout: "", stderr: "\(tool) is not installed", code: -1) }
        var environment = ["PATH": shellPath, "HOME": home.path, "LANG": "C.UTF-8", "TERM": "dumb", "XDG_DATA_HOME": home.path + "/share"]
        for (key, value) in extra { environment[key] = value }
        if let timeout = path(of: "timeout") {
            return lifesignal(["60", executable] + arguments, environment: environment, executable: timeout)
        }
        return lifesignal(arguments, environment: environment, executable: executable)
    }

    /// A committed file of the package, as bytes turned text.
    static func committed(_ relativePath: String) -> String? {
        try? String(contentsOf: Binary.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }
}

/// The table as the tests walk it, independently of `Completions.nodes()`: every visible
/// command path, with its spec.
private func commandPaths(_ spec: CommandSpec = CommandTable.root, path: [String] = []) -> [(path: [String], spec: CommandSpec)] {
    var result = [(path, spec)]
    for sub in spec.subcommands where !sub.hidden { result += commandPaths(sub, path: path + [sub.name]) }
    return result
}

private func spec(at path: [String]) -> CommandSpec {
    var spec = CommandTable.root
    for name in path { spec = spec.subcommands.first { $0.name == name } ?? spec }
    return spec
}

private let scriptFiles: [(shell: String, file: String)] = [
    ("bash", "completions/lifesignal.bash"), ("zsh", "completions/_lifesignal"), ("fish", "completions/lifesignal.fish"),
]

/// The candidates a completion must offer for each command line, computed from the table so
/// that a new command changes the expectation with it.
struct ShellCompletionCase: CustomTestStringConvertible, Sendable {
    var line: String
    var expected: Set<String>
    var testDescription: String { "'\(line)'" }
}

let shellCompletionCases: [ShellCompletionCase] = {
    let root = CommandTable.root
    let checkin = spec(at: ["checkin"])
    let rootCommands = Set(root.visibleSubcommands.map(\.name) + ["help"])
    let intervals = Set(intervalPresetWords)
    let reminders = Set(reminderPresetWords + ["off"])
    let checkinOptions = (checkin.options + CommandTable.globalOptions).map { "--" + $0.long }
    return [
        ShellCompletionCase(line: "lifesignal ", expected: rootCommands),
        ShellCompletionCase(line: "lifesignal checkin ", expected: Set(checkin.visibleSubcommands.map(\.name) + ["help"])),
        ShellCompletionCase(line: "lifesignal checkin --n", expected: Set(checkinOptions.filter { $0.hasPrefix("--n") })),
        ShellCompletionCase(line: "lifesignal checkin interval ", expected: intervals),
        ShellCompletionCase(line: "lifesignal completion ", expected: ["bash", "zsh", "fish"]),
        ShellCompletionCase(line: "lifesignal help ", expected: Set(root.visibleSubcommands.map(\.name) + CommandTable.helpTopics.map(\.name))),
        ShellCompletionCase(line: "lifesignal help checkin ", expected: Set(checkin.visibleSubcommands.map(\.name))),
        ShellCompletionCase(line: "lifesignal init --reminder ", expected: reminders),
        // Global options are accepted anywhere and their values are skipped.
        ShellCompletionCase(line: "lifesignal --home /tmp -q checkin ", expected: Set(checkin.visibleSubcommands.map(\.name) + ["help"])),
        ShellCompletionCase(line: "lifesignal checkin --note hello re", expected: ["reminder"]),
    ]
}()

/// The presets as typed: `8h`, `30m`.
private let intervalPresetWords = Rules.intervalPresets.map { $0.description.filter { $0 != " " } }
private let reminderPresetWords = Rules.reminderPresets.map { $0.description.filter { $0 != " " } }

@Suite struct CompletionTests {
    // MARK: - The command

    @Test(arguments: Completions.Shell.allCases)
    func committedScriptIsWhatTheBinaryPrints(shell: Completions.Shell) throws {
        let run = lifesignal(["completion", shell.rawValue], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == Completions.script(for: shell))
        let file = try #require(scriptFiles.first { $0.shell == shell.rawValue }?.file)
        let committed = DocTools.committed(file)
        #expect(committed != nil, "\(file) is missing: run scripts/generate-docs")
        #expect(committed == run.stdout, "\(file) differs from 'lifesignal completion \(shell.rawValue)': run scripts/generate-docs and commit the result")
    }

    @Test func unknownShellIsAUsageError() {
        let run = TempHome().run(["completion", "tcsh"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("The value 'tcsh' is invalid for '<shell>': please provide one of 'bash', 'zsh' or 'fish'."))
        #expect(run.stderr.contains("Usage: lifesignal completion <shell>"))
    }

    @Test func missingShellIsAUsageError() {
        let run = TempHome().run(["completion"])
        #expect(run.code == 64)
        #expect(run.stderr.contains("Missing expected argument '<shell>'."))
    }

    @Test func helpSaysWhereToInstallEachScript() {
        let run = TempHome().run(["help", "completion"])
        #expect(run.code == 0)
        for place in [
            "~/.local/share/bash-completion/completions/lifesignal", "_lifesignal", "$fpath",
            "~/.config/fish/completions/lifesignal.fish",
        ] {
            #expect(run.stdout.contains(place), "help completion does not mention \(place)")
        }
        let top = TempHome().run(["--help"])
        #expect(top.stdout.contains("completion"))
        #expect(!top.stdout.contains("__man"), "the hidden __man command shows in help")
    }

    // MARK: - Generated from the table

    @Test(arguments: Completions.Shell.allCases)
    func everyCommandAndOptionIsInTheScript(shell: Completions.Shell) {
        let script = Completions.script(for: shell)
        for (path, spec) in commandPaths() {
            let key = path.joined(separator: " ")
            switch shell {
            case .bash: #expect(script.contains("\"\(key)\")"), "bash script has no entry for '\(key)'")
            case .zsh: #expect(script.contains((["_lifesignal"] + path).joined(separator: "_") + "() {"), "zsh script has no function for '\(key)'")
            case .fish: #expect(script.contains("'\(key)'"), "fish script has no entry for '\(key)'")
            }
            for sub in spec.subcommands where !sub.hidden {
                #expect(script.contains(sub.name + (shell == .zsh ? ":" : "")), "\(shell) script does not offer '\(key) \(sub.name)'")
            }
            for option in spec.options + CommandTable.globalOptions {
                switch shell {
                case .bash:
                    #expect(script.contains("--" + option.long), "bash script lacks --\(option.long) of '\(key)'")
                    if let short = option.short { #expect(script.contains(" -\(short)")) }
                case .zsh:
                    let form = option.short.map { "{-\($0)\(option.takesValue ? "+" : ""),--\(option.long)\(option.takesValue ? "=" : "")}" }
                        ?? "'--\(option.long)\(option.takesValue ? "=" : "")["
                    #expect(script.contains(form), "zsh script lacks \(form) of '\(key)'")
                case .fish:
                    #expect(script.contains("-l '\(option.long)'"), "fish script lacks -l \(option.long) of '\(key)'")
                    if let short = option.short { #expect(script.contains("-s '\(short)' -l '\(option.long)'")) }
                }
                if case .choice(let choices) = option.kind {
                    for choice in choices { #expect(script.contains(choice)) }
                }
            }
            for argument in spec.arguments {
                if case .choice(let choices) = argument.kind {
                    for choice in choices { #expect(script.contains(choice), "\(shell) script does not offer \(choice) for '\(key)'") }
                }
            }
        }
        for topic in CommandTable.helpTopics { #expect(script.contains(topic.name), "\(shell) script lacks help topic \(topic.name)") }
        for word in intervalPresetWords + reminderPresetWords { #expect(script.contains(word)) }
        for hidden in CommandTable.root.subcommands where hidden.hidden {
            #expect(!script.contains(hidden.name), "\(shell) script offers the hidden command \(hidden.name)")
        }
    }

    // MARK: - Syntax

    // bash is required by SwiftPM's own tooling on Linux, but a minimal image may lack it.
    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"))
    func bashScriptParses() {
        let home = TempHome()
        let run = DocTools.run("bash", ["-n", path("completions/lifesignal.bash")], home: home)
        #expect(run.code == 0, "bash -n: \(run.stderr)")
    }

    @Test(.enabled(if: DocTools.exists("shellcheck"), "shellcheck is not installed"))
    func bashScriptPassesShellcheck() {
        let home = TempHome()
        let run = DocTools.run("shellcheck", ["-s", "bash", path("completions/lifesignal.bash")], home: home)
        #expect(run.code == 0, "shellcheck:\n\(run.stdout)\(run.stderr)")
    }

    @Test(.enabled(if: DocTools.exists("zsh"), "zsh is not installed"))
    func zshScriptParses() {
        let home = TempHome()
        let run = DocTools.run("zsh", ["-n", path("completions/_lifesignal")], home: home)
        #expect(run.code == 0, "zsh -n: \(run.stderr)")
        #expect(Completions.script(for: .zsh).hasPrefix("#compdef lifesignal\n"))
    }

    @Test(.enabled(if: DocTools.exists("fish"), "fish is not installed"))
    func fishScriptParses() {
        let home = TempHome()
        let run = DocTools.run("fish", ["--no-execute", path("completions/lifesignal.fish")], home: home)
        #expect(run.code == 0, "fish --no-execute: \(run.stderr)")
    }

    // MARK: - In real shells

    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"), arguments: shellCompletionCases)
    func bashOffers(_ test: ShellCompletionCase) {
        let home = TempHome()
        let result = bashComplete(test.line, home: home, withBashCompletion: false)
        #expect(Set(result) == test.expected, "bash, '\(test.line)': \(result)")
    }

    @Test(
        .enabled(if: DocTools.exists("bash"), "bash is not installed"),
        .enabled(if: DocTools.bashCompletion != nil, "bash-completion is not installed"),
        arguments: shellCompletionCases)
    func bashOffersWithBashCompletionLoaded(_ test: ShellCompletionCase) {
        let home = TempHome()
        let result = bashComplete(test.line, home: home, withBashCompletion: true)
        #expect(Set(result) == test.expected, "bash with bash-completion, '\(test.line)': \(result)")
    }

    /// `--opt=value`: bash splits the word at '=', and the script puts it back together.
    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"))
    func bashCompletesValuesAfterEquals() {
        let home = TempHome()
        #expect(Set(bashComplete("lifesignal init --interval=", home: home, withBashCompletion: false)) == Set(intervalPresetWords))
        #expect(bashComplete("lifesignal init --reminder=o", home: home, withBashCompletion: false) == ["off"])
        #expect(Set(bashComplete("lifesignal --home=/tmp checkin ", home: home, withBashCompletion: false)).contains("status"))
    }

    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"))
    func bashCompletesDirectoriesForDirectoryOptions() throws {
        let home = TempHome()
        let base = home.path + "/pick"
        try FileManager.default.createDirectory(atPath: base + "/alpha", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/beta", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/afile", contents: Data())
        #expect(Set(bashComplete("lifesignal --home \(base)/", home: home, withBashCompletion: false)) == [base + "/alpha", base + "/beta"])
        #expect(bashComplete("lifesignal init --circle \(base)/a", home: home, withBashCompletion: false) == [base + "/alpha"])
    }

    /// bash-completion's loader finds the file in the user directory the help names.
    @Test(
        .enabled(if: DocTools.exists("bash"), "bash is not installed"),
        .enabled(if: DocTools.bashCompletion != nil, "bash-completion is not installed"))
    func bashCompletionLoadsTheScriptFromTheUserDirectory() throws {
        let home = TempHome()
        let directory = home.path + "/share/bash-completion/completions"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Completions.script(for: .bash).write(toFile: directory + "/lifesignal", atomically: true, encoding: .utf8)
        let script = """
            source "$BC"
            if declare -F _comp_load >/dev/null; then _comp_load lifesignal; else _completion_loader lifesignal; fi
            complete -p lifesignal
            """
        let run = DocTools.run("bash", ["--norc", "--noprofile", "-c", script], environment: ["BC": DocTools.bashCompletion ?? ""], home: home)
        #expect(run.stdout.contains("complete -F _lifesignal lifesignal"), "complete -p: \(run.stdout)\(run.stderr)")
    }

    @Test(.enabled(if: DocTools.exists("fish"), "fish is not installed"), arguments: shellCompletionCases)
    func fishOffers(_ test: ShellCompletionCase) {
        let home = TempHome()
        let run = DocTools.run(
            "fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path("completions/lifesignal.fish"), test.line], home: home)
        #expect(run.code == 0, "fish: \(run.stderr)")
        let candidates = run.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
        #expect(Set(candidates) == test.expected, "fish, '\(test.line)': \(candidates)")
    }

    @Test(.enabled(if: DocTools.exists("fish"), "fish is not installed"))
    func fishDescribesCommandsAndCompletesDirectories() throws {
        let home = TempHome()
        try FileManager.default.createDirectory(atPath: home.path + "/pick/alpha", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home.path + "/pick/afile", contents: Data())
        let run = DocTools.run(
            "fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C $argv[2]; complete -C $argv[3]", path("completions/lifesignal.fish"),
                "lifesignal ch", "lifesignal --home \(home.path)/pick/a",
            ], home: home)
        #expect(run.stdout.contains("checkin\t" + spec(at: ["checkin"]).abstract))
        #expect(run.stdout.contains(home.path + "/pick/alpha/"))
        #expect(!run.stdout.contains("afile"))
    }

    @Test(.enabled(if: DocTools.exists("zsh"), "zsh is not installed"))
    func zshOffersWhenAutoloadedFromFpath() throws {
        try zshCheck(mode: "autoload")
    }

    @Test(.enabled(if: DocTools.exists("zsh"), "zsh is not installed"))
    func zshOffersWhenSourced() throws {
        try zshCheck(mode: "source")
    }

    // MARK: - Harnesses

    private func path(_ relative: String) -> String { Binary.packageRoot.appendingPathComponent(relative).path }

    /// Sets COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT as bash does for `line` (words
    /// split at spaces, and at '=' as COMP_WORDBREAKS does), calls `_lifesignal` and returns
    /// COMPREPLY.
    private func bashComplete(_ line: String, home: TempHome, withBashCompletion: Bool) -> [String] {
        var words: [String] = []
        for word in line.split(separator: " ", omittingEmptySubsequences: true) {
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                words += [String(word[..<equals]), "="]
                let value = word[word.index(after: equals)...]
                if !value.isEmpty { words.append(String(value)) }
            } else {
                words.append(String(word))
            }
        }
        if line.hasSuffix(" ") { words.append("") }
        let script = """
            [[ -n $BC ]] && source "$BC"
            source "$SCRIPT"
            COMP_LINE=$LINE
            COMP_POINT=${#COMP_LINE}
            COMP_WORDS=("$@")
            COMP_CWORD=$(($# - 1))
            COMPREPLY=()
            _lifesignal lifesignal "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = DocTools.run(
            "bash", ["--norc", "--noprofile", "-c", script, "bash"] + words,
            environment: [
                "SCRIPT": path("completions/lifesignal.bash"), "LINE": line,
                "BC": withBashCompletion ? (DocTools.bashCompletion ?? "") : "",
            ], home: home)
        if run.code != 0 { Issue.record("bash exited \(run.code): \(run.stderr)") }
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs the completion in an interactive zsh on a pseudo-terminal (zsh/zpty), with
    /// compadd wrapped to print every candidate, for each case's line followed by TAB.
    private func zshCheck(mode: String) throws {
        let home = TempHome()
        let fpathDirectory = home.path + "/zfunc"
        try FileManager.default.createDirectory(atPath: fpathDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("completions/_lifesignal"), toPath: fpathDirectory + "/_lifesignal")
        let harness = home.path + "/harness.zsh"
        try zshHarness.write(toFile: harness, atomically: true, encoding: .utf8)
        let lines = shellCompletionCases.map(\.line)
        let run = DocTools.run("zsh", ["-f", harness, fpathDirectory, mode] + lines, environment: ["TERM": "xterm"], home: home)
        #expect(run.code == 0, "zsh harness exited \(run.code): \(run.stderr)")
        // The output is "== <n>" then that line's candidates, one per line.
        var results: [Int: Set<String>] = [:]
        var current = -1
        for line in run.stdout.split(separator: "\n") {
            if line.hasPrefix("== ") {
                current = Int(line.dropFirst(3)) ?? -1
                results[current] = []
            } else if line.hasPrefix("CAND:") {
                results[current, default: []].insert(String(line.dropFirst(5)))
            }
        }
        for (index, test) in shellCompletionCases.enumerated() {
            #expect(results[index] == test.expected, "zsh (\(mode)), '\(test.line)': \(results[index].map { $0.sorted() } ?? [])")
        }
    }

    /// The zpty harness (cli-conventions §5.2): `zsh -f harness.zsh <fpath dir> autoload|source
    /// <line>…`. Markers are written as `DONE${:-}-n` so that the echo of the typed command
    /// never matches the marker itself; the prompt is `ZZ%P> ` (typed as `ZZ%%P> `), and
    /// each line is typed only once the prompt is drawn: keys typed while zsh is still
    /// switching the terminal to line-editing mode can be discarded.
    private let zshHarness = #"""
        zmodload zsh/zpty || exit 2
        zpty z zsh -f -i
        zpty -w z "PS1='ZZ%%P> ' RPS1=''; print READY\${:-}-0"
        zpty -r -m z out '*READY-0*' || exit 3
        zpty -r -m z out '*ZZ%P> *' || exit 3
        zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
        [[ $2 == source ]] && zpty -w z "source ${(q)1}/_lifesignal"
        zpty -w z 'compadd() { local -a h; builtin compadd -O h "$@"; print -rl -- ${h/#/C${:-}AND:} >/dev/tty; builtin compadd "$@" }'
        zpty -w z 'print READY${:-}-1'
        zpty -r -m z out '*READY-1*' || exit 3
        zpty -r -m z out '*ZZ%P> *' || exit 3
        integer n=0
        for line in "${@[3,-1]}"; do
            zpty -n -w z "$line"$'\t'
            zpty -n -w z $'\C-u'
            zpty -w z "print DONE\${:-}-$n"
            zpty -r -m z out "*DONE-$n*" || exit 4
            print -r -- "== $n"
            print -r -- "${out//$'\r'/}" | grep -ao 'CAND:[^[:space:]]*' | sort -u
            zpty -r -m z rest '*ZZ%P> *' || exit 5
            n+=1
        done
        zpty -d z
        """#
}
