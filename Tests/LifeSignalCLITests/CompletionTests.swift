import Foundation
import LifeSignalCore
import TestSupport
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
    static let bashCompletion: String? = [
        "/usr/share/bash-completion/bash_completion", "/usr/local/share/bash-completion/bash_completion",
    ]
    .first { FileManager.default.fileExists(atPath: $0) }

    /// PATH for the shells under test: the folder of the built binary first (later, dynamic
    /// completions call it by name), then the system's.
    static var shellPath: String {
        (URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path + ":" + searchPath.joined(separator: ":"))
    }

    /// Runs `tool arguments` with a minimal environment, under `timeout` when there is one so
    /// that a shell waiting for input fails the test instead of hanging it.
    static func run(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:], home: TempHome)
        -> Run
    {
        guard let executable = path(of: tool) else {
            return Run(stdout: "", stderr: "\(tool) is not installed", code: -1)
        }
        var environment = [
            "PATH": shellPath, "HOME": home.path, "LANG": "C.UTF-8", "TERM": "dumb",
            "XDG_DATA_HOME": home.path + "/share",
        ]
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
private func commandPaths(_ spec: CommandSpec = CommandTable.root, path: [String] = []) -> [(
    path: [String], spec: CommandSpec
)] {
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
    ("bash", "completions/lifesignal.bash"), ("zsh", "completions/_lifesignal"),
    ("fish", "completions/lifesignal.fish"),
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
        ShellCompletionCase(
            line: "lifesignal checkin ", expected: Set(checkin.visibleSubcommands.map(\.name) + ["help"])),
        ShellCompletionCase(
            line: "lifesignal checkin --n", expected: Set(checkinOptions.filter { $0.hasPrefix("--n") })),
        ShellCompletionCase(line: "lifesignal checkin interval ", expected: intervals),
        ShellCompletionCase(line: "lifesignal completion ", expected: ["bash", "zsh", "fish"]),
        ShellCompletionCase(
            line: "lifesignal help ",
            expected: Set(root.visibleSubcommands.map(\.name) + CommandTable.helpTopics.map(\.name))),
        ShellCompletionCase(line: "lifesignal help checkin ", expected: Set(checkin.visibleSubcommands.map(\.name))),
        ShellCompletionCase(line: "lifesignal init --reminder ", expected: reminders),
        // Global options are accepted anywhere and their values are skipped.
        ShellCompletionCase(
            line: "lifesignal --home /tmp -q checkin ", expected: Set(checkin.visibleSubcommands.map(\.name) + ["help"])
        ),
        ShellCompletionCase(line: "lifesignal checkin --note hello re", expected: ["reminder", "repeat", "resume"]),
        // A global flag between a subcommand and its argument (zsh once took it for the parent's).
        ShellCompletionCase(line: "lifesignal checkin interval --json ", expected: intervals),
    ]
}()

/// The presets as typed: `8h`, `30m`.
private let intervalPresetWords = Rules.intervalPresets.map { $0.description.filter { $0 != " " } }
private let reminderPresetWords = Rules.reminderPresets.map { $0.description.filter { $0 != " " } }

@Suite(.integration) struct CompletionTests {
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
        #expect(
            committed == run.stdout,
            "\(file) differs from 'lifesignal completion \(shell.rawValue)': run scripts/generate-docs and commit the result"
        )
    }

    /// The hidden command's help is a literal (building it from `allCases` at start-up cost
    /// every run of lifesignal more than a hundred thousand instructions): it must still name
    /// every source.
    @Test func completeHelpNamesEverySource() throws {
        let source = try #require(CompleteCommand.spec.arguments.first { $0.name == "source" })
        #expect(
            source.help == "What to list: " + CompletionSource.allCases.map(\.rawValue).joined(separator: ", ") + ".")
    }

    @Test func unknownShellIsAUsageError() {
        let run = TempHome().run(["completion", "tcsh"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr.contains(
                "The value 'tcsh' is invalid for '<shell>': please provide one of 'bash', 'zsh' or 'fish'."))
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
            case .zsh:
                #expect(
                    script.contains(
                        (["_lifesignal"] + path).joined(separator: "_").replacingOccurrences(of: "-", with: "_")
                            + "() {"),
                    "zsh script has no function for '\(key)'")
            case .fish: #expect(script.contains("'\(key)'"), "fish script has no entry for '\(key)'")
            }
            for sub in spec.subcommands where !sub.hidden {
                #expect(
                    script.contains(sub.name + (shell == .zsh ? ":" : "")),
                    "\(shell) script does not offer '\(key) \(sub.name)'")
            }
            for option in spec.options + CommandTable.globalOptions {
                switch shell {
                case .bash:
                    #expect(script.contains("--" + option.long), "bash script lacks --\(option.long) of '\(key)'")
                    if let short = option.short { #expect(script.contains(" -\(short)")) }
                case .zsh:
                    let form =
                        option.short.map {
                            "{-\($0)\(option.takesValue ? "+" : ""),--\(option.long)\(option.takesValue ? "=" : "")}"
                        }
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
                    for choice in choices {
                        #expect(script.contains(choice), "\(shell) script does not offer \(choice) for '\(key)'")
                    }
                }
            }
        }
        for topic in CommandTable.helpTopics {
            #expect(script.contains(topic.name), "\(shell) script lacks help topic \(topic.name)")
        }
        for word in intervalPresetWords + reminderPresetWords { #expect(script.contains(word)) }
        // Hidden commands are never offered; __complete appears only where the script calls it.
        for hidden in CommandTable.root.subcommands where hidden.hidden && hidden.name != CompleteCommand.spec.name {
            #expect(!script.contains(hidden.name), "\(shell) script offers the hidden command \(hidden.name)")
        }
        for line in script.split(separator: "\n") where line.contains(CompleteCommand.spec.name) {
            #expect(
                line.contains(CompleteCommand.spec.name + " \"$") || line.contains("__complete $argv[1]")
                    || line.drop(while: \.isWhitespace).hasPrefix("#"),
                "\(shell) script mentions __complete other than in its callback: \(line)")
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
        #expect(
            Set(bashComplete("lifesignal init --interval=", home: home, withBashCompletion: false))
                == Set(intervalPresetWords))
        #expect(bashComplete("lifesignal init --reminder=o", home: home, withBashCompletion: false) == ["off"])
        #expect(
            Set(bashComplete("lifesignal --home=/tmp checkin ", home: home, withBashCompletion: false)).contains(
                "status"))
    }

    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"))
    func bashCompletesDirectoriesForDirectoryOptions() throws {
        let home = TempHome()
        let base = home.path + "/pick"
        try FileManager.default.createDirectory(atPath: base + "/alpha", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/beta", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/afile", contents: Data())
        #expect(
            Set(bashComplete("lifesignal --home \(base)/", home: home, withBashCompletion: false)) == [
                base + "/alpha", base + "/beta",
            ])
        #expect(
            bashComplete("lifesignal init --circle \(base)/a", home: home, withBashCompletion: false) == [
                base + "/alpha"
            ])
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
        let run = DocTools.run(
            "bash", ["--norc", "--noprofile", "-c", script], environment: ["BC": DocTools.bashCompletion ?? ""],
            home: home)
        #expect(run.stdout.contains("complete -F _lifesignal lifesignal"), "complete -p: \(run.stdout)\(run.stderr)")
    }

    @Test(.enabled(if: DocTools.exists("fish"), "fish is not installed"), arguments: shellCompletionCases)
    func fishOffers(_ test: ShellCompletionCase) {
        let home = TempHome()
        let run = DocTools.run(
            "fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path("completions/lifesignal.fish"),
                test.line,
            ], home: home)
        #expect(run.code == 0, "fish: \(run.stderr)")
        let candidates = run.stdout.split(separator: "\n").map {
            String($0.split(separator: "\t", maxSplits: 1).first ?? "")
        }
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
                "--no-config", "-c", "source $argv[1]; complete -C $argv[2]; complete -C $argv[3]",
                path("completions/lifesignal.fish"),
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

    // MARK: - Contact names, from the binary (lifesignal __complete)

    @Test func completeListsEachSourcesNames() {
        let circle = ContactCircle()
        #expect(circle.complete(["contacts"]).outcome == ["Bea\nCarl\nSam Lee\n", "", "0"])
        #expect(circle.complete(["dependents"]).stdout == "Bea\nCarl\n", "only members with the dependent role")
        #expect(
            circle.complete(["responders-pinging"]).stdout == "Carl\n", "only responders whose ping to me is pending")
        #expect(circle.complete(["pinged-dependents"]).stdout == "Bea\n", "only dependents I have a pending ping to")
        // Once the ping is answered, Bea is no longer a pinged dependent.
        #expect(circle.run("bea", ["ping", "respond", "Ana"]).code == 0)
        #expect(circle.complete(["pinged-dependents"]).outcome == ["", "", "0"])
    }

    @Test func completeFiltersByPrefixIgnoringCase() {
        let circle = ContactCircle()
        #expect(circle.complete(["contacts", "Sa"]).stdout == "Sam Lee\n")
        #expect(circle.complete(["contacts", "sAM l"]).stdout == "Sam Lee\n", "a prefix may hold a space")
        #expect(circle.complete(["contacts", "c"]).stdout == "Carl\n")
        #expect(circle.complete(["dependents", "s"]).stdout == "", "Sam Lee is no dependent")
        #expect(circle.complete(["contacts", "--", "zz"]).outcome == ["", "", "0"])
        // The scripts put '--' before the prefix, so a name starting with '-' cannot be taken for an option.
        #expect(circle.complete(["contacts", "--", "-x"]).outcome == ["", "", "0"])
        #expect(circle.complete(["contacts", "--", "b"]).stdout == "Bea\n")
    }

    @Test func completeIsQuietAboutAnUnknownSourceOrNone() {
        let circle = ContactCircle()
        #expect(circle.complete(["nothing"]).outcome == ["", "", "0"])
        #expect(circle.complete([]).outcome == ["", "", "0"])
    }

    @Test func completeWithoutAProfilePrintsNothingAndCreatesNothing() throws {
        let home = TempHome()
        let missing = home.path + "/never-created"
        for source in CompletionSource.allCases {
            let run = lifesignal(
                ["__complete", source.rawValue], environment: ["LIFESIGNAL_HOME": missing, "PATH": "/usr/bin:/bin"])
            #expect(run.outcome == ["", "", "0"], "\(source.rawValue): \(run)")
            let empty = home.run(["__complete", source.rawValue, "a"])
            #expect(empty.outcome == ["", "", "0"], "\(source.rawValue): \(empty)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "__complete created the data directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [], "__complete created a profile")
    }

    @Test func completeWithADamagedStorePrintsNothingOnStderr() throws {
        let circle = ContactCircle()
        // Another device's log that cannot be read is left out without the usual warning.
        let bea = try #require(
            FileManager.default.enumerator(atPath: circle.circle)?.compactMap { $0 as? String }
                .first { $0.hasSuffix("/log.json") && circle.isBea($0) })
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: circle.circle + "/" + bea))
        let skipped = circle.complete(["contacts"])
        #expect(skipped.code == 0)
        #expect(skipped.stderr == "")
        #expect(
            circle.run("ana", ["contacts", "list"]).stderr.contains("warning"),
            "the damage is real: a read command warns")
        // A damaged identity: nothing at all.
        let identity = circle.ana + "/identity.json"
        try Data("{ \"schemaVersion\": ".utf8).write(to: URL(fileURLWithPath: identity))
        for source in CompletionSource.allCases {
            #expect(circle.complete([source.rawValue]).outcome == ["", "", "0"], "\(source.rawValue)")
        }
        #expect(
            try String(contentsOfFile: identity, encoding: .utf8) == "{ \"schemaVersion\": ",
            "__complete touched the damaged identity")
    }

    @Test func completeWritesNothing() throws {
        let circle = ContactCircle()
        // The private read cache may be refreshed, as by any read; the records never change.
        let before = try circle.records()
        for source in CompletionSource.allCases {
            for prefix in [[], ["s"]] { #expect(circle.complete([source.rawValue] + prefix).code == 0) }
        }
        #expect(try circle.records() == before)
    }

    @Test func completeIsHiddenFromHelpAndTheManPage() {
        let name = CompleteCommand.spec.name
        #expect(CommandTable.root.subcommand(named: name)?.hidden == true)
        #expect(!Completions.nodes().contains { $0.path.contains(name) })
        #expect(!TempHome().run(["--help"]).stdout.contains(name))
        #expect(!ManPage.render().contains(name))
        #expect(DocTools.committed("man/lifesignal.1")?.contains(name) == false)
    }

    @Test(.enabled(if: DocTools.exists("bash"), "bash is not installed"))
    func bashOffersContactNamesFromTheBinary() {
        let circle = ContactCircle()
        for test in contactCompletionCases {
            let result = bashComplete(
                test.line, home: circle.root, withBashCompletion: false, environment: circle.shellEnvironment)
            // Quoted for the command line: readline inserts them as they are.
            #expect(
                Set(result) == Set(test.expected.map { $0.replacing(" ", with: "\\ ") }),
                "bash, '\(test.line)': \(result)")
        }
        // Inside a quote the user opened, the names go in unquoted (readline closes the quote).
        #expect(
            bashComplete(
                "lifesignal contacts show 'Sa", home: circle.root, withBashCompletion: false,
                environment: circle.shellEnvironment) == ["Sam Lee"])
        #expect(
            bashComplete(
                "lifesignal contacts show \"s", home: circle.root, withBashCompletion: false,
                environment: circle.shellEnvironment) == ["Sam Lee"])
        let escaped = ["lifesignal", "contacts", "show", "Sam\\ L"]
        #expect(
            bashComplete(
                "lifesignal contacts show Sam\\ L", home: circle.root, withBashCompletion: false,
                environment: circle.shellEnvironment, words: escaped) == ["Sam\\ Lee"])
    }

    @Test(
        .enabled(if: DocTools.exists("bash"), "bash is not installed"),
        .enabled(if: DocTools.bashCompletion != nil, "bash-completion is not installed"))
    func bashOffersContactNamesWithBashCompletionLoaded() {
        let circle = ContactCircle()
        for test in contactCompletionCases {
            let result = bashComplete(
                test.line, home: circle.root, withBashCompletion: true, environment: circle.shellEnvironment)
            #expect(
                Set(result) == Set(test.expected.map { $0.replacing(" ", with: "\\ ") }),
                "bash with bash-completion, '\(test.line)': \(result)")
        }
    }

    @Test(.enabled(if: DocTools.exists("zsh"), "zsh is not installed"))
    func zshOffersContactNamesFromTheBinary() throws {
        let circle = ContactCircle()
        let results = try zshComplete(
            contactCompletionCases.map(\.line), mode: "autoload", home: circle.root,
            environment: circle.shellEnvironment)
        for (index, test) in contactCompletionCases.enumerated() {
            #expect(results[index] == test.expected, "zsh, '\(test.line)': \(results[index].map { $0.sorted() } ?? [])")
        }
    }

    /// After --notify and --channel the channel schemes are offered, and the word is left open.
    @Test(
        .enabled(if: DocTools.exists("bash") && DocTools.exists("zsh") && DocTools.exists("fish"), "a shell is missing")
    )
    func channelOptionsOfferTheSchemes() throws {
        let home = TempHome()
        let all = ["desktop:", "mailto:", "ntfy:https://", "https://", "apprise:", "exec:"]
        #expect(
            Set(bashComplete("lifesignal contacts add Sam --notify ", home: home, withBashCompletion: false))
                == Set(all))
        #expect(
            bashComplete("lifesignal notify prefs --channel nt", home: home, withBashCompletion: false) == [
                "ntfy:https://"
            ])
        // bash replaces only what follows the last ':' it split at: the rest of the scheme.
        let words = ["lifesignal", "contacts", "add", "Sam", "--notify", "ntfy", ":", ""]
        #expect(
            bashComplete(
                "lifesignal contacts add Sam --notify ntfy:", home: home, withBashCompletion: false, words: words)
                == ["https://"])
        let zsh = try zshComplete(["lifesignal notify prefs --channel "], mode: "autoload", home: home)
        #expect(zsh[0] == Set(all), "zsh: \(zsh)")
        let fish = DocTools.run(
            "fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path("completions/lifesignal.fish"),
                "lifesignal contacts add Sam --notify ma",
            ], environment: [:], home: home)
        #expect(fish.stdout.hasPrefix("mailto:\t"), "\(fish.stdout)")
    }

    /// `--home DIR` on the line: the names come from that profile, not the default one.
    @Test(
        .enabled(if: DocTools.exists("bash") && DocTools.exists("zsh") && DocTools.exists("fish"), "a shell is missing")
    )
    func everyShellAsksTheProfileTheLineNames() throws {
        let circle = ContactCircle()
        // The environment points nowhere; only --home names Ana's profile.
        var environment = circle.shellEnvironment
        environment["LIFESIGNAL_HOME"] = circle.root.path + "/nobody"
        for line in [
            "lifesignal --home \(circle.ana) contacts show Sa", "lifesignal contacts show --home=\(circle.ana) Sa",
        ] {
            #expect(
                bashComplete(line, home: circle.root, withBashCompletion: false, environment: environment) == [
                    "Sam\\ Lee"
                ],
                "bash: \(line)")
        }
        let zsh = try zshComplete(
            ["lifesignal --home \(circle.ana) contacts show Sa"], mode: "autoload", home: circle.root,
            environment: environment)
        #expect(zsh[0] == Set(["Sam Lee"]), "zsh: \(zsh)")
        let fish = DocTools.run(
            "fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path("completions/lifesignal.fish"),
                "lifesignal --home \(circle.ana) contacts show Sa",
            ],
            environment: environment, home: circle.root)
        #expect(fish.stdout.hasPrefix("Sam Lee"), "fish: \(fish.stdout) \(fish.stderr)")
    }

    /// What TAB puts on the line: one word "Sam Lee", however it is quoted.
    @Test(.enabled(if: DocTools.exists("zsh"), "zsh is not installed"))
    func zshInsertsANameWithASpaceAsOneWord() throws {
        let circle = ContactCircle()
        let fpathDirectory = try zshFpath(circle.root)
        let harness = circle.root.path + "/insert.zsh"
        try zshInsertHarness.write(toFile: harness, atomically: true, encoding: .utf8)
        let lines = ["lifesignal contacts show Sa", "lifesignal contacts show 'Sa", "lifesignal ping respond "]
        let run = DocTools.run(
            "zsh", ["-f", harness, fpathDirectory] + lines,
            environment: circle.shellEnvironment.merging(["TERM": "xterm"]) { _, new in new },
            home: circle.root)
        #expect(run.code == 0, "zsh harness exited \(run.code): \(run.stderr)")
        var words: [Int: [String]] = [:]
        var current = -1
        for line in run.stdout.split(separator: "\n") {
            if line.hasPrefix("== ") {
                current = Int(line.dropFirst(3)) ?? -1
            } else if line.hasPrefix("ARG<"), line.hasSuffix(">") {  // one word
                words[current, default: []].append(String(line.dropFirst(4).dropLast()))
            }
        }
        #expect(words[0] == ["lifesignal", "contacts", "show", "Sam Lee"], "\(run.stdout)")
        #expect(words[1] == ["lifesignal", "contacts", "show", "Sam Lee"], "\(run.stdout)")
        #expect(words[2] == ["lifesignal", "ping", "respond", "Carl"], "\(run.stdout)")
    }

    @Test(.enabled(if: DocTools.exists("fish"), "fish is not installed"))
    func fishOffersContactNamesFromTheBinary() {
        let circle = ContactCircle()
        for test in contactCompletionCases + [
            ContactCompletionCase(line: "lifesignal contacts show 'Sam L", expected: ["Sam Lee"])
        ] {
            let run = DocTools.run(
                "fish",
                [
                    "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path("completions/lifesignal.fish"),
                    test.line,
                ],
                environment: circle.shellEnvironment, home: circle.root)
            #expect(run.code == 0, "fish: \(run.stderr)")
            let candidates = run.stdout.split(separator: "\n").map {
                String($0.split(separator: "\t", maxSplits: 1).first ?? "")
            }
            #expect(Set(candidates) == test.expected, "fish, '\(test.line)': \(candidates)")
        }
    }

    // MARK: - Harnesses

    private func path(_ relative: String) -> String { Binary.packageRoot.appendingPathComponent(relative).path }

    /// Sets COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT as bash does for `line` (words
    /// split at spaces, and at '=' as COMP_WORDBREAKS does, unless `words` gives them), calls
    /// `_lifesignal` and returns COMPREPLY.
    private func bashComplete(
        _ line: String, home: TempHome, withBashCompletion: Bool, environment extra: [String: String] = [:],
        words given: [String]? = nil
    ) -> [String] {
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
        if let given { words = given }
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
            ].merging(extra) { _, new in new }, home: home)
        if run.code != 0 { Issue.record("bash exited \(run.code): \(run.stderr)") }
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs the completion in an interactive zsh on a pseudo-terminal (zsh/zpty), with
    /// compadd wrapped to print every candidate, for each case's line followed by TAB.
    private func zshCheck(mode: String) throws {
        let home = TempHome()
        let results = try zshComplete(shellCompletionCases.map(\.line), mode: mode, home: home)
        for (index, test) in shellCompletionCases.enumerated() {
            #expect(
                results[index] == test.expected,
                "zsh (\(mode)), '\(test.line)': \(results[index].map { $0.sorted() } ?? [])")
        }
    }

    /// The candidates zsh offers for each of `lines` (by index), from the committed script
    /// loaded as `mode` (autoload or source).
    private func zshComplete(_ lines: [String], mode: String, home: TempHome, environment extra: [String: String] = [:])
        throws -> [Int: Set<String>]
    {
        let fpathDirectory = try zshFpath(home)
        let harness = home.path + "/harness.zsh"
        try zshHarness.write(toFile: harness, atomically: true, encoding: .utf8)
        let run = DocTools.run(
            "zsh", ["-f", harness, fpathDirectory, mode] + lines,
            environment: extra.merging(["TERM": "xterm"]) { _, new in new }, home: home)
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
        return results
    }

    /// A folder for $fpath holding the committed _lifesignal.
    private func zshFpath(_ home: TempHome) throws -> String {
        let fpathDirectory = home.path + "/zfunc"
        if !FileManager.default.fileExists(atPath: fpathDirectory + "/_lifesignal") {
            try FileManager.default.createDirectory(atPath: fpathDirectory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: path("completions/_lifesignal"), toPath: fpathDirectory + "/_lifesignal")
        }
        return fpathDirectory
    }

    /// `zsh -f insert.zsh <fpath dir> <line>…`: types each line and TAB, then a key bound to
    /// a widget that prints the words left on the line as the shell would pass them
    /// (`ARG<word>` each) and clears it. Same prompt and marker scheme as `zshHarness`.
    private let zshInsertHarness = #"""
        zmodload zsh/zpty || exit 2
        zpty z zsh -f -i
        zpty -w z "PS1='ZZ%%P> ' RPS1=''; print READY\${:-}-0"
        zpty -r -m z out '*READY-0*' || exit 3
        zpty -r -m z out '*ZZ%P> *' || exit 3
        zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w z 'show-words() { local -a w; w=(${(Q)${(z)BUFFER}}); printf "A${:-}RG<%s>\n" "${w[@]}" >/dev/tty; BUFFER= }'
        zpty -w z 'zle -N show-words; bindkey "^X^W" show-words; print READY${:-}-1'
        zpty -r -m z out '*READY-1*' || exit 3
        zpty -r -m z out '*ZZ%P> *' || exit 3
        integer n=0
        for line in "${@[2,-1]}"; do
            zpty -n -w z "$line"$'\t'
            zpty -n -w z $'\C-x\C-w'
            zpty -w z "print DONE\${:-}-$n"
            zpty -r -m z out "*DONE-$n*" || exit 4
            print -r -- "== $n"
            print -r -- "${out//$'\r'/}" | grep -ao 'ARG<.*>'
            zpty -r -m z rest '*ZZ%P> *' || exit 5
            n+=1
        done
        zpty -d z
        """#

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
            print -r -- "${out//$'\r'/}" | grep -ao 'CAND:.*' | sed 's/[[:space:]]*$//' | sort -u
            zpty -r -m z rest '*ZZ%P> *' || exit 5
            n+=1
        done
        zpty -d z
        """#
}

/// A line to complete and the contact names it must offer, as the user sees them.
struct ContactCompletionCase: Sendable {
    var line: String
    var expected: Set<String>
}

/// For Ana in `ContactCircle`.
let contactCompletionCases: [ContactCompletionCase] = [
    ContactCompletionCase(line: "lifesignal contacts show ", expected: ["Bea", "Carl", "Sam Lee"]),
    ContactCompletionCase(line: "lifesignal contacts remove Sa", expected: ["Sam Lee"]),
    ContactCompletionCase(line: "lifesignal contacts edit --name X sam", expected: ["Sam Lee"]),
    ContactCompletionCase(line: "lifesignal ping send ", expected: ["Bea", "Carl"]),
    ContactCompletionCase(line: "lifesignal ping respond ", expected: ["Carl"]),
    ContactCompletionCase(line: "lifesignal ping clear ", expected: ["Bea"]),
    ContactCompletionCase(line: "lifesignal -q ping clear --json ", expected: ["Bea"]),
]

/// Three members sharing a circle folder, each with their own data directory, seen from
/// Ana's: Bea is her dependent, Carl her responder and dependent, "Sam Lee" an external
/// responder (a name with a space). Ana has pinged Bea; Carl has pinged Ana.
final class ContactCircle {
    let root = TempHome()
    static let now = "2026-03-01T09:00:00Z"
    var circle: String { root.path + "/circle" }
    var ana: String { root.path + "/ana" }
    /// A folder holding only a `lifesignal` link to the binary under test, first on the shells' PATH.
    var bin: String { root.path + "/bin" }
    private(set) var beaMember = ""

    init() {
        for name in ["Ana", "Bea", "Carl"] {
            expectOK(run(name.lowercased(), ["init", "--name", name, "--circle", circle]))
        }
        let code = { (person: String) in
            self.run(person, ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        expectOK(run("ana", ["contacts", "add", code("bea"), "--dependent"]))
        expectOK(run("ana", ["contacts", "add", code("carl"), "--dependent", "--responder"]))
        expectOK(run("ana", ["contacts", "add", "Sam Lee", "--responder", "--email", "sam@example.org"]))
        expectOK(run("ana", ["ping", "send", "Bea"]))
        expectOK(run("carl", ["ping", "send", "Ana"]))
        let identity = (try? String(contentsOfFile: root.path + "/bea/identity.json", encoding: .utf8)) ?? ""
        beaMember = jsonObject(identity)["member"] as? String ?? ""
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/lifesignal", withDestinationPath: Binary.path)
    }

    private func expectOK(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.code == 0, "setting up the circle: \(run.stderr)", sourceLocation: sourceLocation)
    }

    @discardableResult
    func run(_ person: String, _ arguments: [String]) -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": "\(root.path)/\(person)", "LIFESIGNAL_NOW": Self.now, "TZ": "UTC",
                "PATH": "/usr/bin:/bin",
            ])
    }

    /// `lifesignal __complete …` as Ana.
    func complete(_ arguments: [String]) -> Run { run("ana", ["__complete"] + arguments) }

    /// What the shells need to ask the binary for Ana's contacts.
    var shellEnvironment: [String: String] {
        [
            "LIFESIGNAL_HOME": ana, "LIFESIGNAL_NOW": Self.now,
            "PATH": ([bin] + DocTools.searchPath).joined(separator: ":"),
        ]
    }

    /// Whether a path under the circle is one of Bea's.
    func isBea(_ relative: String) -> Bool { !beaMember.isEmpty && relative.contains(beaMember) }

    /// Every file of every data directory and of the circle, but the private read caches.
    func records() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            let full = root.path + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                !relative.hasSuffix("/cache.bin"), !relative.hasSuffix("/cache-circle.bin"),
                !relative.hasSuffix("/cache-linked.bin"),
                !relative.hasSuffix("/verified.bin"), !relative.hasPrefix("bin/")
            else { continue }
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return files
    }
}

extension Run {
    /// stdout, stderr and the exit code, to compare in one go.
    fileprivate var outcome: [String] { [stdout, stderr, String(code)] }
}
