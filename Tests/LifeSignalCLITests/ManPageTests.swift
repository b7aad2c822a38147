import Foundation
import TestSupport
import Testing

@testable import LifeSignalCLI

/// man/lifesignal.1: generated from the command table, committed, lint-clean, and complete
/// (every command, option, argument, environment variable and exit status is on the page).
@Suite struct ManPageTests {
    static let page = ManPage.render()

    /// The text of section `name`: from its `.Sh` line to the next one.
    static func section(_ name: String) -> String {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(".Sh \(name)")) else { return "" }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// Text as it reads once mdoc's line breaks are undone (sentences are one per line and
    /// long lines are wrapped at spaces).
    static func flattened(_ text: String) -> String { text.replacing("\n", with: " ") }

    @Test func committedPageIsWhatTheBinaryPrints() {
        let run = lifesignal(["__man"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == Self.page)
        let committed = DocTools.committed("man/lifesignal.1")
        #expect(committed != nil, "man/lifesignal.1 is missing: run scripts/generate-docs")
        #expect(
            committed == run.stdout,
            "man/lifesignal.1 differs from the generated page: run scripts/generate-docs and commit the result")
    }

    @Test func renderingIsReproducible() {
        #expect(ManPage.render() == Self.page)
        #expect(
            Self.page.contains("\n.Dd \(ManPage.date)\n"), "the .Dd date must be the fixed ManPage.date, not today's")
        #expect(Self.page.hasPrefix(".\\\" Generated"))
    }

    @Test(.integration, .enabled(if: DocTools.exists("mandoc"), "mandoc is not installed"))
    func mandocLintFindsNothing() {
        let home = TempHome()
        let file = Binary.packageRoot.appendingPathComponent("man/lifesignal.1").path
        let run = DocTools.run("mandoc", ["-T", "lint", "-W", "warning", file], home: home)
        #expect(run.code == 0, "mandoc -T lint -W warning exited \(run.code)")
        #expect(run.stdout + run.stderr == "", "mandoc -T lint -W warning:\n\(run.stdout)\(run.stderr)")
    }

    @Test(.integration, .enabled(if: DocTools.exists("mandoc"), "mandoc is not installed"))
    func pageRendersWithEverySection() {
        let home = TempHome()
        let file = Binary.packageRoot.appendingPathComponent("man/lifesignal.1").path
        let run = DocTools.run("mandoc", ["-T", "ascii", file], home: home)
        #expect(run.code == 0)
        // Undo the terminal's overstrike (bold is "X\bX", underline "_\bX").
        var text = ""
        for character in run.stdout {
            if character == "\u{8}" { _ = text.popLast() } else { text.append(character) }
        }
        for heading in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS",
            "EXAMPLES", "SHELL COMPLETION", "SEE ALSO",
        ] {
            #expect(text.contains("\n\(heading)\n"), "the rendered page has no \(heading) section")
        }
    }

    @Test func sectionsComeInMdocOrder() {
        let headings = Self.page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        #expect(
            headings == [
                "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "CHANNELS", "WEBHOOKS", "ENVIRONMENT",
                "FILES",
                "EXIT STATUS",
                "EXAMPLES", "SHELL COMPLETION", "SEE ALSO",
            ])
        #expect(Self.page.contains(".Dt LIFESIGNAL 1\n"))
        #expect(Self.page.contains(".Nm lifesignal\n"))
    }

    @Test func everyCommandWithItsOptionsAndArgumentsIsDocumented() {
        let commands = Self.section("COMMANDS")
        let synopsis = Self.section("SYNOPSIS")
        func walk(_ spec: CommandSpec, _ path: [String]) {
            for sub in spec.subcommands {
                let subPath = path + [sub.name]
                let key = subPath.joined(separator: " ")
                if sub.hidden {
                    let text = Self.page.split(separator: "\n").filter { !$0.hasPrefix(".\\\"") }.joined(
                        separator: "\n")
                    #expect(
                        !text.contains(sub.name), "the hidden command '\(key)' is on the page (outside its comments)")
                    continue
                }
                #expect(synopsis.contains(".Cm \(key)\n"), "SYNOPSIS lacks '\(key)'")
                // The command's entry: from its `.It Cm` line to the next command's.
                let lines = commands.split(separator: "\n", omittingEmptySubsequences: false)
                guard let start = lines.firstIndex(where: { $0 == ".It Cm \(key)" || $0.hasPrefix(".It Cm \(key) ") })
                else {
                    Issue.record("COMMANDS has no entry for '\(key)'")
                    continue
                }
                let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".It Cm ") } ?? lines.endIndex
                let entry = lines[start..<end].joined(separator: "\n")
                #expect(Self.flattened(entry).contains(Mdoc.escape(sub.abstract)), "'\(key)' lacks its abstract")
                for option in sub.options {
                    let head = "Fl -\(option.long)" + (option.valueName.map { " Ar \($0)" } ?? "")
                    #expect(
                        entry.contains(".It " + (option.short.map { "Fl \($0) , " } ?? "") + head + "\n"),
                        "'\(key)' lacks \(head)")
                    #expect(
                        synopsis.contains(".Op " + (option.short.map { "Fl \($0) , " } ?? "") + head + "\n"),
                        "SYNOPSIS of '\(key)' lacks \(head)")
                }
                for argument in sub.arguments {
                    #expect(entry.contains(".It Ar \(argument.name)\n"), "'\(key)' lacks argument <\(argument.name)>")
                    #expect(entry.hasPrefix(".It Cm \(key) " + (argument.optional ? "Op Ar " : "Ar ") + argument.name))
                }
                walk(sub, subPath)
            }
        }
        walk(CommandTable.root, [])
        #expect(commands.contains(".It Cm help Op Ar command | topic\n"))
        for topic in CommandTable.helpTopics {
            #expect(commands.contains(".It Cm \(topic.name)\n"), "help topic \(topic.name) is missing")
        }
    }

    @Test func everyGlobalOptionIsDocumented() {
        let section = Self.section("GLOBAL OPTIONS")
        for option in CommandTable.globalOptions {
            let head =
                (option.short.map { "Fl \($0) , " } ?? "") + "Fl -\(option.long)"
                + (option.valueName.map { " Ar \($0)" } ?? "")
            #expect(section.contains(".It \(head)\n"), "GLOBAL OPTIONS lacks \(head)")
            #expect(
                Self.flattened(section).contains(Mdoc.escape(option.help)),
                "GLOBAL OPTIONS lacks the help of --\(option.long)")
        }
    }

    @Test func everyEnvironmentVariableIsDocumented() {
        let section = Self.section("ENVIRONMENT")
        for variable in CommandTable.environment {
            #expect(section.contains(".It Ev \(variable.name)\n"), "ENVIRONMENT lacks \(variable.name)")
            #expect(
                Self.flattened(section).contains(Mdoc.escape(variable.help)),
                "ENVIRONMENT lacks the text for \(variable.name)")
        }
    }

    @Test(arguments: ExitCode.allCases)
    func everyExitStatusIsDocumented(code: ExitCode) {
        let section = Self.section("EXIT STATUS")
        #expect(section.contains(".It \(code.rawValue)\n"), "EXIT STATUS lacks \(code.rawValue)")
        #expect(
            Self.flattened(section).contains(".It \(code.rawValue) " + Mdoc.escape(code.meaning)),
            "EXIT STATUS lacks the meaning of \(code.rawValue)")
    }

    @Test func filesNamesTheDataDirectoryAndItsContents() {
        let section = Self.section("FILES")
        for name in [
            "$XDG_DATA_HOME/lifesignal", "~/.local/share/lifesignal", "~/Library/Application\\ Support/lifesignal",
            "identity.json", "lock",
            "circle/members/", "/log.json", ".bak", "/archive/",
        ] {
            #expect(section.contains(name), "FILES does not mention \(name)")
        }
    }

    @Test func examplesCoverFirstCheckInScriptsCronAndJq() {
        let section = Self.section("EXAMPLES")
        #expect(section.contains("$ lifesignal checkin"))
        #expect(section.contains("lifesignal status --quiet\ncase $? in"))
        #expect(section.contains("0 8,20 * * * lifesignal status"))
        #expect(section.contains("--json | jq"))
        // Every command an example runs (a word 'lifesignal' in a display, not inside quotes)
        // exists in the table.
        var inDisplay = false
        for line in section.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".Bd ") { inDisplay = true }
            if line == ".Ed" { inDisplay = false }
            guard inDisplay else { continue }
            let words = line.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated() where word == "lifesignal" {
                var spec = CommandTable.root
                for next in words[(index + 1)...] {
                    guard !next.hasPrefix("-"), let sub = spec.subcommand(named: next) else { break }
                    spec = sub
                }
                #expect(spec.run != nil, "example '\(line)' does not name a command that runs")
            }
        }
    }

    @Test func shellCompletionSaysWhereToInstall() {
        let section = Self.section("SHELL COMPLETION")
        for place in [
            "~/.local/share/bash-completion/completions/lifesignal", "_lifesignal", "fpath",
            "~/.config/fish/completions/lifesignal.fish",
        ] {
            #expect(section.contains(place), "SHELL COMPLETION does not mention \(place)")
        }
    }

    @Test func seeAlsoIsSortedBySectionThenName() {
        #expect(Self.section("SEE ALSO") == ".Sh SEE ALSO\n.Xr crontab 1 ,\n.Xr flock 1 ,\n.Xr jq 1 ,\n.Xr crontab 5\n")
    }
}
