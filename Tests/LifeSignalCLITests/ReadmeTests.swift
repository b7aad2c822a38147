import Foundation
import TestSupport
import Testing

@testable import LifeSignalCLI

/// The README is part of the interface: its exit-code table, command list and crontab line
/// are checked against the command table and run as written.
@Suite struct ReadmeTests {
    static let readme =
        (try? String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    /// The user's guide, where the README's topics are said in full.
    static let guide =
        (try? String(contentsOf: Binary.packageRoot.appendingPathComponent("docs/GUIDE.md"), encoding: .utf8)) ?? ""

    @Test func exitCodeTableMatchesTheCode() {
        var rows: [String] = []
        var inTable = false
        for line in Self.readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "## Exit codes" {
                inTable = true
                continue
            }
            if inTable, line.hasPrefix("## ") { break }
            if inTable, line.hasPrefix("| "), !line.hasPrefix("| code"), !line.hasPrefix("|---") {
                rows.append(String(line))
            }
        }
        let expected = ExitCode.allCases.map { "| \($0.rawValue) | \($0.meaning) |" }
        #expect(rows == expected)
    }

    @Test func everyCommandAndGlobalOptionIsDocumented() {
        func walk(_ spec: CommandSpec, _ path: [String]) -> [[String]] {
            spec.visibleSubcommands.flatMap { [path + [$0.name]] + walk($0, path + [$0.name]) }
        }
        for path in walk(CommandTable.root, []) {
            let command = "`lifesignal " + path.joined(separator: " ")
            #expect(Self.readme.contains(command), "README does not document \(command)`")
            let spec = LifeSignal.spec(at: path)
            for option in spec.options {
                #expect(Self.readme.contains("--\(option.long)"), "README does not mention --\(option.long) of \(path)")
            }
        }
        for option in CommandTable.globalOptions {
            #expect(
                Self.readme.contains("--\(option.long)"), "README does not mention the global option --\(option.long)")
        }
        for topic in CommandTable.helpTopics {
            #expect(Self.readme.contains("`\(topic.name)`"), "README does not mention the help topic \(topic.name)")
        }
    }

    /// Both of the README's test commands, the unit suite and everything with the integration
    /// tests, are what CI runs.
    @Test func ciRunsTheReadmeTestCommands() throws {
        let commands = ["swift test", "LIFESIGNAL_INTEGRATION=1 swift test"]
        #expect(Self.readme.contains("```sh\n\(commands.joined(separator: "\n"))\n```"))
        let ci = try String(contentsOf: Binary.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        let lines = ci.split(separator: "\n")
        #expect(lines.contains("swift test"))
        #expect(lines.contains { $0.hasPrefix(commands[1]) })
    }

    /// The crontab line, run the way cron runs it: `/bin/sh -c` with only HOME, LOGNAME,
    /// SHELL and PATH=/usr/bin:/bin (plus LIFESIGNAL_NOW to pick the moment).
    @Test func crontabLineWorksUnderCronsEnvironment() throws {
        let blocks = Self.readme.components(separatedBy: "```crontab\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
        let entry = try #require(
            blocks.flatMap { $0.split(separator: "\n") }.first {
                !$0.hasPrefix("#") && $0.contains("/usr/local/bin/lifesignal status")
            })
        let fields = entry.split(separator: " ", maxSplits: 5)
        #expect(fields.count == 6, "a crontab entry has five time fields and a command")
        let command = String(fields[5]).replacingOccurrences(of: "/usr/local/bin/lifesignal", with: Binary.path)
        let home = TempHome()
        func cron(_ now: String) -> Run {
            lifesignal(
                [
                    "-i", "HOME=\(home.path)", "LOGNAME=root", "SHELL=/bin/sh", "PATH=/usr/bin:/bin",
                    "LIFESIGNAL_NOW=\(now)", "TZ=UTC", "/bin/sh", "-c", command,
                ],
                environment: [:], executable: "/usr/bin/env")
        }
        #expect(
            home.run(["checkin"], environment: ["LIFESIGNAL_HOME": "\(home.path)/.local/share/lifesignal"]).code == 0)
        let onTime = cron("2026-03-01T12:00:00Z")
        #expect(onTime.code == 0)
        #expect(onTime.stdout == "")
        #expect(onTime.stderr == "")
        let dueSoon = cron("2026-03-02T08:45:00Z")
        #expect(dueSoon.code == 3)
        #expect(dueSoon.stdout.contains("Status          due soon"))
        // The notify deliver line, with the crontab's PATH, stays silent and succeeds.
        let deliverEntry = try #require(
            blocks.flatMap { $0.split(separator: "\n") }.first {
                $0.contains("/usr/local/bin/lifesignal notify deliver") && !$0.contains("circle sync")
            })
        let deliverCommand = String(deliverEntry.split(separator: " ", maxSplits: 5)[5]).replacingOccurrences(
            of: "/usr/local/bin/lifesignal", with: Binary.path)
        let cronPath = try #require(blocks.flatMap { $0.split(separator: "\n") }.first { $0.hasPrefix("PATH=") })
        let delivered = lifesignal(
            [
                "-i", "HOME=\(home.path)", "LOGNAME=root", "SHELL=/bin/sh", String(cronPath),
                "LIFESIGNAL_NOW=2026-03-02T11:00:00Z", "TZ=UTC", "/bin/sh", "-c", deliverCommand,
            ],
            environment: [:], executable: "/usr/bin/env")
        #expect(delivered.code == 0, "\(delivered.stderr)")
        #expect(delivered.stdout == "")
        #expect(delivered.stderr == "")
        let overdue = cron("2026-03-02T11:00:00Z")
        #expect(overdue.code == 4)
        #expect(overdue.stdout.contains("Status          OVERDUE"))
        #expect(overdue.stdout.contains("Overdue by      2h"))
    }

    /// The phone's SSH forced command, run the way sshd runs it: the account's shell with
    /// `-c` and the command from `authorized_keys`, in sshd's bare environment (HOME, USER,
    /// LOGNAME, SHELL, PATH), whatever the phone asked to run in SSH_ORIGINAL_COMMAND.
    @Test func thePhonesForcedCommandChecksIn() throws {
        let line = try #require(
            Self.guide.split(separator: "\n").first { $0.hasPrefix("command=\"/usr/local/bin/lifesignal checkin") })
        let quoted = try #require(line.split(separator: "\"").dropFirst().first)
        let command = String(quoted).replacingOccurrences(of: "/usr/local/bin/lifesignal", with: Binary.path)
        let home = TempHome()
        #expect(
            home.run(["checkin", "--quiet"], environment: ["LIFESIGNAL_HOME": "\(home.path)/.local/share/lifesignal"])
                .code == 0)
        let run = lifesignal(
            [
                "-i", "HOME=\(home.path)", "USER=root", "LOGNAME=root", "SHELL=/bin/sh", "PATH=/usr/bin:/bin",
                "SSH_ORIGINAL_COMMAND=rm -rf ~", "LIFESIGNAL_NOW=2026-03-01T15:00:00Z", "TZ=UTC", "/bin/sh", "-c",
                command,
            ],
            environment: [:], executable: "/usr/bin/env")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "" && run.stderr == "")
        let status = jsonObject(
            home.run(
                ["checkin", "status", "--json"], now: "2026-03-01T15:00:00Z",
                environment: ["LIFESIGNAL_HOME": "\(home.path)/.local/share/lifesignal"]
            ).stdout)
        #expect((status["lastCheckIn"] as? [String: Any])?["at"] as? String == "2026-03-01T15:00:00Z")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/lifesignal/identity.json"))
    }
}

/// The README's commands that install the completions, run as written in a fresh HOME: each
/// shell's file lands where that shell looks, under the name it looks for.
@Suite(.integration) struct ReadmeCompletionInstallTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
    func theCompletionInstallCommandsWorkAsWritten() throws {
        let readme = ReadmeTests.readme
        let after = try #require(readme.components(separatedBy: "For your account").dropFirst().first)
        let block = try #require(
            after.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let home = TempHome()
        let bin = home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/lifesignal", withDestinationPath: Binary.path)
        let run = lifesignal(
            ["-e", "-c", block], environment: ["HOME": home.path, "PATH": "\(bin):/usr/bin:/bin"],
            executable: "/bin/bash")
        #expect(run.code == 0, "\(run.stderr)")
        for (shell, path) in [
            ("bash", "/.local/share/bash-completion/completions/lifesignal"), ("zsh", "/.zfunc/_lifesignal"),
            ("fish", "/.config/fish/completions/lifesignal.fish"),
        ] {
            let installed = FileManager.default.contents(atPath: home.path + path)
            let generated = lifesignal(
                ["completion", shell], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
            #expect(installed == Data(generated.stdout.utf8), "\(shell) at \(path)")
        }
    }
}
