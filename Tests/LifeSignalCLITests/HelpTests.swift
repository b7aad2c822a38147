import Foundation
import Testing

@testable import LifeSignalCLI

/// Golden files for help pages, in `Golden/` next to this file. With
/// `LIFESIGNAL_UPDATE_GOLDEN=1` in the environment the tests write them instead of comparing:
///
///     LIFESIGNAL_UPDATE_GOLDEN=1 swift test --filter HelpTests
///
/// then review the change with `git diff Tests/LifeSignalCLITests/Golden`.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["LIFESIGNAL_UPDATE_GOLDEN"] == "1" }

    static func check(_ actual: String, file name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        if updating {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("cannot write golden file \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "missing golden file \(url.path); create it with LIFESIGNAL_UPDATE_GOLDEN=1 swift test",
                sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let diff = lineDiff(expected: expected, actual: actual)
        Issue.record(
            "output differs from golden file \(url.path) (rewrite it with LIFESIGNAL_UPDATE_GOLDEN=1 and review the diff):\n\(diff)",
            sourceLocation: sourceLocation)
    }

    /// The differing lines, numbered: `-` the golden file, `+` the output.
    static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? String(old[index]) : nil
            let b = index < new.count ? String(new[index]) : nil
            guard a != b else { continue }
            if let a { out.append(String(format: "%4d - %@", index + 1, a)) }
            if let b { out.append(String(format: "%4d + %@", index + 1, b)) }
        }
        return out.joined(separator: "\n")
    }
}

/// Every command path in the table, root first, so a new command gets a golden file.
private func commandPaths(_ spec: CommandSpec = CommandTable.root, prefix: [String] = []) -> [[String]] {
    var paths = [prefix]
    for sub in spec.subcommands where !sub.hidden { paths += commandPaths(sub, prefix: prefix + [sub.name]) }
    return paths
}

private func goldenName(_ path: [String]) -> String { (path.isEmpty ? "root" : path.joined(separator: "-")) + ".txt" }

@Suite struct HelpTests {
    static let paths = commandPaths()

    @Test func everyCommandIsCovered() {
        // A guard on the generated list itself: the commands of the first release are in it
        // (new ones join it, and then need a golden file).
        let names = Set(Self.paths.map { $0.joined(separator: " ") })
        #expect(
            names.isSuperset(of: [
                "", "init", "checkin", "checkin status", "checkin history", "checkin interval", "checkin reminder",
                "status",
            ]))
    }

    @Test(arguments: paths)
    func helpPageMatchesGolden(path: [String]) {
        let run = TempHome().run(path + ["-h"])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        Golden.check(run.stdout, file: goldenName(path))
    }

    @Test(arguments: paths)
    func everyWayToAskGivesTheSameText(path: [String]) {
        let home = TempHome()
        let short = home.run(path + ["-h"])
        #expect(short.stdout.hasPrefix("OVERVIEW: "))
        for arguments in [path + ["--help"], ["help"] + path, ["-h"] + path, path + ["--json", "--help"]] {
            let run = home.run(arguments)
            #expect(run.code == 0, "\(arguments)")
            #expect(run.stderr == "", "\(arguments)")
            #expect(run.stdout == short.stdout, "\(arguments)")
        }
        // `checkin help interval`: help as a subcommand of a command that has them.
        if let last = path.last, path.count == 2 {
            #expect(home.run([path[0], "help", last]).stdout == short.stdout)
        }
    }

    @Test(arguments: ["exit-codes", "environment"])
    func helpTopicMatchesGolden(topic: String) {
        let run = TempHome().run(["help", topic])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        Golden.check(run.stdout, file: "help-\(topic).txt")
    }

    @Test func bareCommandAndBareHelpShowRootHelp() {
        let home = TempHome()
        let root = home.run(["--help"])
        #expect(home.run([]).stdout == root.stdout)
        #expect(home.run([]).code == 0)
        #expect(home.run(["help"]).stdout == root.stdout)
    }

    @Test func exitCodeTopicListsEveryCode() {
        let text = TempHome().run(["help", "exit-codes"]).stdout
        for code in ExitCode.allCases {
            #expect(
                text.contains("\n  \(code.rawValue)" + String(repeating: " ", count: 24 - String(code.rawValue).count)),
                "\(code)")
        }
    }

    @Test func environmentTopicListsEveryVariable() {
        let text = TempHome().run(["help", "environment"]).stdout
        for variable in CommandTable.environment { #expect(text.contains("\n  \(variable.name)"), "\(variable.name)") }
    }

    @Test func helpWorksWithABrokenEnvironment() {
        // Help explains LIFESIGNAL_NOW and friends, so their being malformed must not hide it.
        let home = TempHome()
        let broken = ["LIFESIGNAL_NOW": "yesterday", "LIFESIGNAL_LOCK_TIMEOUT": "x", "LIFESIGNAL_HOME": "relative"]
        for arguments in [["--help"], ["help", "environment"], ["--version"], ["checkin", "-h"]] {
            let run = home.run(arguments, environment: broken)
            #expect(run.code == 0, "\(arguments)")
            #expect(run.stderr == "", "\(arguments)")
            #expect(run.stdout == home.run(arguments).stdout, "\(arguments)")
        }
    }

    @Test func helpForUnknownCommand() {
        let run = TempHome().run(["help", "chekin"])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == usageError(
                    "No help for 'chekin': unknown command. Did you mean 'checkin'?", usage: "lifesignal <subcommand>"))
        let sub = TempHome().run(["help", "checkin", "histroy"])
        #expect(sub.code == 64)
        #expect(
            sub.stderr
                == usageError(
                    "No help for 'checkin histroy': unknown command. Did you mean 'history'?",
                    usage: "lifesignal checkin [--note <text>] [--dry-run] [<subcommand>]",
                    command: "lifesignal checkin"))
        #expect(TempHome().run(["help", "exit-code"]).stderr.contains("Did you mean 'exit-codes'?"))
    }

    @Test func wrapsToCOLUMNS() {
        let home = TempHome()
        let wide = home.run(["-h"], environment: ["COLUMNS": "120"]).stdout
        #expect(
            wide.hasPrefix(
                "OVERVIEW: A personal safety check-in: check in on an interval; if you go quiet past your deadline, the people who watch\n"
            ))
        #expect(wide.split(separator: "\n").allSatisfy { $0.count <= 120 })
        #expect(
            wide.contains("\n  --json                  Print the result as JSON on stdout; errors as JSON on stderr.\n")
        )
        let narrow = home.run(["-h"]).stdout
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // Nonsense widths fall back to 80.
        #expect(home.run(["-h"], environment: ["COLUMNS": "abc"]).stdout == narrow)
        #expect(home.run(["-h"], environment: ["COLUMNS": "10"]).stdout == narrow)
    }

    /// Issue #14: help wraps to the terminal, down to the narrowest width lifesignal honours,
    /// and no line of any command's page is wider.
    @Test(arguments: [40, 50, 80], paths)
    func everyLineFitsTheWidth(width: Int, path: [String]) {
        let run = TempHome().run(path + ["-h"], environment: ["COLUMNS": String(width)])
        #expect(run.code == 0)
        let wide = run.stdout.split(separator: "\n").filter { $0.count > width }
        #expect(wide.isEmpty, "wider than \(width) columns:\n\(wide.joined(separator: "\n"))")
    }

    /// What the table does not have today but a command may: an option label, a URL and an
    /// example wider than the terminal. They are broken, never cut off or left overflowing.
    @Test(arguments: [40, 41, 49, 50, 63, 80])
    func longLabelsAndWordsAreBrokenToFit(width: Int) {
        let url = "https://example.org/a/path/much/too/long/for/a/narrow/terminal/to/show/on/one/line"
        let spec = CommandSpec(
            name: "demo", abstract: "Fetch \(url) for the demo.",
            discussion: "Read \(url) first.\n\n  lifesignal demo --fetch \(url) --and-then-some-more-flags",
            options: [
                .value(
                    "an-option-whose-name-alone-is-wider-than-forty", "and-a-long-placeholder", .text,
                    "Help for it.")
            ])
        let page = Help.page(for: spec, path: ["demo"], width: width)
        let wide = page.split(separator: "\n").filter { $0.count > width }
        #expect(wide.isEmpty, "wider than \(width) columns:\n\(wide.joined(separator: "\n"))")
        let letters = page.filter { !$0.isWhitespace }
        #expect(letters.contains("Fetch\(url)forthedemo."))
        #expect(letters.contains("Read\(url)first."))
        #expect(letters.contains("--an-option-whose-name-alone-is-wider-than-forty<and-a-long-placeholder>Helpforit."))
    }

    @Test func version() {
        let run = TempHome().run(["--version"])
        #expect(run.stdout == "lifesignal \(CommandTable.version)\n")
        #expect(run.stdout == "lifesignal 0.1.0\n")
        #expect(run.code == 0)
    }
}

/// The examples in help pages and the man page come from the command table: each is a command
/// line that parses, as the command it illustrates.
@Suite struct ExampleTests {
    /// The words of a command line as a POSIX shell splits them (quotes, no expansions).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character? = nil
        var started = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                started = true
            } else if character == " " {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words
    }

    @Test func everyExampleParsesAsItsCommand() throws {
        var count = 0
        for node in Completions.nodes() {
            for example in node.spec.examples {
                let words = Self.words(example)
                let start = try #require(words.firstIndex { $0.hasSuffix("lifesignal") }, "\(example)")
                let arguments = Array(words[(start + 1)...])
                guard case .run(_, let invocation) = try Parser.parse(arguments) else {
                    Issue.record("\(example) is not a command line")
                    continue
                }
                #expect(invocation.path == node.path, "\(example)")
                count += 1
            }
        }
        #expect(count >= 20)
    }

    @Test func helpPagesAndTheManPageShowThem() {
        let checkin = Help.page(for: CheckinCommand.spec, path: ["checkin"], width: 80)
        #expect(
            checkin.contains(
                "\nEXAMPLES:\n  $ lifesignal checkin\n  $ lifesignal checkin --note \"off to the hills\"\n"),
            "\(checkin)")
        #expect(
            ManPage.render().contains("lifesignal checkin trip 3h \\-\\-note")
                || ManPage.render().contains("lifesignal checkin trip 3h --note"))
    }
}

/// A run parses with the root narrowed to the command it names (`CommandTable.root(for:)`).
@Suite struct CommandTableTests {
    @Test func theTopLevelCommandsAreTheTreesInItsOrderUnderTheirOwnNames() {
        #expect(CommandTable.commands.map(\.name) == CommandTable.root.subcommands.map(\.name))
        for command in CommandTable.commands { #expect(command.spec().name == command.name) }
    }

    @Test func aRunNamingACommandFirstBuildsThatCommandAlone() {
        #expect(CommandTable.root(for: ["checkin", "--note", "x"]).subcommands.map(\.name) == ["checkin"])
        let whole = CommandTable.root.subcommands.count
        for arguments in [["--home", "/tmp/x", "checkin"], ["chekin"], ["help", "checkin"], []] {
            #expect(CommandTable.root(for: arguments).subcommands.count == whole, "\(arguments)")
        }
    }
}
