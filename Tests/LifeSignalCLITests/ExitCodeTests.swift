import Foundation
import Testing

@testable import LifeSignalCLI

// The exit-code contract, one end-to-end case per row of ExitCode.allCases. The switch in
// `scenario(for:)` is exhaustive, so a new row does not compile until it has a case here, and
// `everyCodeHasAScenario` runs each one.

/// Holds `<home>/lock` with util-linux `flock` until `wait()`, as another lifesignal would.
final class LockHolder {
    let process = Process()
    let lockPath: String

    init?(_ lockPath: String, seconds: Int) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { return nil }
        self.lockPath = lockPath
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // -o: flock itself holds the lock (its `sleep` does not inherit it), so ending flock
        // releases it at once.
        process.arguments = ["-o", lockPath, "sleep", String(seconds)]
        do { try process.run() } catch { return nil }
        // Wait until the lock is really held: `flock -n` fails (exit 1) while it is.
        if !probe(until: 1) { return nil }
    }

    /// Polls `flock -n` until it exits with `code` (1: held by someone, 0: free); false if it
    /// never does within 4 s.
    private func probe(until code: Int32) -> Bool {
        for _ in 0..<200 {
            let probe = lifesignal(
                ["-n", lockPath, "true"], environment: ["PATH": "/usr/bin:/bin"], executable: "/usr/bin/flock")
            if probe.code == code { return true }
            usleep(20_000)
        }
        return false
    }

    /// Ends `flock` and waits until the lock is free. SIGKILL, since a SIGTERM may sit blocked
    /// (children start with the spawning thread's signal mask); and no `waitUntilExit`, which
    /// would wait for the orphaned `sleep` as well.
    func wait() {
        kill(process.processIdentifier, SIGKILL)
        _ = probe(until: 0)
    }
}

@Suite struct ExitCodeTests {
    /// One run that must end with `code`.
    static func scenario(for code: ExitCode, in home: TempHome) -> Run {
        // A watched profile: a run that succeeds has nothing to say about nobody watching.
        if code.rawValue < 64 || code == .ioError {
            home.run(["checkin", "--quiet"])
            home.addResponder()
        }
        switch code {
        case .ok:
            home.run(["checkin", "--quiet"])
            return home.run(["checkin"], now: "2026-03-01T10:00:00Z")
        case .dueSoon:
            home.run(["checkin", "--quiet"])
            return home.run(["status"], now: "2026-03-02T08:30:00Z")
        case .overdue:
            home.run(["checkin", "--quiet"])
            // cron runs deliver (else status warns that nothing is sent).
            home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T09:00:01Z")
            return home.run(["status"], now: "2026-03-02T09:00:01Z")
        case .alertActive:
            // Overdue too: the alert wins over 4.
            home.run(["checkin", "--quiet"])
            home.run(["alert", "activate", "--yes", "--quiet"])
            home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T09:00:01Z")
            return home.run(["status"], now: "2026-03-02T09:00:01Z")
        case .dependentNeedsAttention:
            // Ana watches over Bea, who went quiet: Ana's own countdown is fine.
            let circle = home.path + "/shared-circle"
            func run(_ who: String, _ arguments: [String], now: String = "2026-03-01T09:00:00Z") -> Run {
                home.run(arguments, now: now, environment: ["LIFESIGNAL_HOME": home.path + "/" + who])
            }
            _ = run("bea", ["init", "--name", "Bea", "--circle", circle])
            _ = run("ana", ["init", "--name", "Ana", "--circle", circle])
            let code = jsonObject(run("bea", ["contacts", "code", "--json"]).stdout)["code"] as? String ?? ""
            _ = run("ana", ["contacts", "add", code, "--dependent"])
            _ = run("bea", ["contacts", "confirm", "Ana"])
            _ = run("ana", ["contacts", "add", "Sam", "--responder", "--notify", "exec:true"])
            _ = run("bea", ["checkin"])
            _ = run("ana", ["checkin"], now: "2026-03-02T10:00:00Z")
            _ = run("ana", ["notify", "deliver"], now: "2026-03-02T10:00:00Z")
            return run("ana", ["status"], now: "2026-03-02T10:00:00Z")
        case .checkupFailed:
            // A watched profile whose deliveries never ran: doctor names it.
            return home.run(["doctor"], now: "2026-03-03T09:00:00Z")
        case .usage:
            return home.run(["chekin"])
        case .dataError:
            home.run(["checkin", "--quiet"])
            return home.run(["checkin", "reminder", "24h"])
        case .noProfile:
            return home.run(["status"])
        case .unavailable:
            // qrencode cannot be found on this PATH (an empty directory).
            home.run(["checkin", "--quiet"])
            return home.run(["contacts", "code", "--qr"], environment: ["PATH": home.path])
        case .cannotCreate:
            _ = FileManager.default.createFile(atPath: home.path + "/file", contents: Data("x".utf8))
            return home.run(["checkin"], environment: ["LIFESIGNAL_HOME": home.path + "/file/x"])
        case .ioError:
            home.run(["checkin", "--quiet"])
            return home.shell("status > /dev/full")
        case .tryAgain:
            home.run(["checkin", "--quiet"])
            guard let holder = LockHolder(home.path + "/lock", seconds: 4) else {
                return Run(stdout: "", stderr: "flock(1) is not available to hold the lock", code: -1)
            }
            defer { holder.wait() }
            return home.run(["checkin"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"])
        case .configuration:
            return home.run(["status"], environment: ["LIFESIGNAL_HOME": "relative/dir"])
        }
    }

    @Test(arguments: ExitCode.allCases)
    func everyCodeHasAScenario(code: ExitCode) {
        let run = Self.scenario(for: code, in: TempHome())
        #expect(run.code == code.rawValue, "\(code): stderr was \(run.stderr)")
        // Success and the status answers say nothing on stderr; every error explains itself there.
        if code.rawValue < 64 {
            #expect(run.stderr == "")
        } else {
            #expect(run.stderr.hasPrefix("lifesignal: error: "))
            #expect(run.stderr.hasSuffix("\n"))
        }
    }

    @Test func codesAreTheDocumentedNumbers() {
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 3, 4, 5, 6, 7, 64, 65, 66, 69, 73, 74, 75, 78])
    }

    // MARK: - Each code in detail

    @Test func dataErrorForADamagedIdentity() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let path = home.path + "/identity.json"
        try Data("{broken".utf8).write(to: URL(fileURLWithPath: path))
        for arguments in [["status"], ["checkin"], ["checkin", "status"], ["init"]] {
            let run = home.run(arguments)
            #expect(run.code == 65, "\(arguments)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("lifesignal: error: \(path) is damaged: line 1, column 2: "), "\(arguments)")
            #expect(run.stderr.contains("Nothing was changed."))
        }
        // Never replaced by a fresh profile.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{broken")
    }

    @Test func noProfileFromEveryReadingCommand() {
        let home = TempHome()
        for arguments in [
            ["status"], ["checkin", "status"], ["checkin", "history"], ["checkin", "interval"],
            ["checkin", "reminder"],
        ] {
            let run = home.run(arguments)
            #expect(run.code == 66, "\(arguments)")
            #expect(run.stdout == "")
        }
        // Reading made nothing.
        #expect(!home.exists("identity.json"))
    }

    @Test func cannotCreateUnderARegularFile() {
        let home = TempHome()
        _ = FileManager.default.createFile(atPath: home.path + "/file", contents: Data("x".utf8))
        let run = home.run(["checkin"], environment: ["LIFESIGNAL_HOME": home.path + "/file/x"])
        #expect(run.code == 73)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("lifesignal: error: cannot create \(home.path)/file"))
        #expect(
            run.stderr.hasSuffix(
                "; check that the parent directory exists and is writable, or choose another place with --home\n"))
    }

    @Test func ioErrorWhenStdoutIsFull() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        home.addResponder()
        for (arguments, code) in [("status", 74), ("--version", 74), ("help exit-codes", 74), ("status --quiet", 0)]
            as [(String, Int32)]
        {
            let run = home.shell("\(arguments) > /dev/full")
            #expect(run.code == code, "\(arguments)")
            if code == 74 {
                #expect(
                    run.stderr
                        == "lifesignal: error: cannot write to standard output: No space left on device. Anything the command recorded was kept; check with 'lifesignal status'\n",
                    "\(arguments)")
            }
        }
        let json = home.shell("status --json > /dev/full")
        #expect(json.code == 74)
        #expect(jsonObject(json.stderr)["error"] != nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs util-linux flock"))
    func tryAgainWhileTheLockIsHeld() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let holder = try #require(LockHolder(home.path + "/lock", seconds: 3))
        let run = home.run(
            ["checkin", "--note", "blocked"], now: "2026-03-01T10:00:00Z", environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"]
        )
        #expect(run.code == 75)
        #expect(run.stdout == "")
        let lock = home.path + "/lock"
        #expect(
            run.stderr
                == "lifesignal: error: another lifesignal has held the lock \(lock) for over 1s; nothing was recorded. Try again; if it persists, find the process holding it with 'fuser \(lock)'\n"
        )
        // Readers need no lock.
        #expect(home.run(["status"]).code == 0)
        holder.wait()
        // Nothing was recorded; once the lock is free, the retry works.
        #expect(home.run(["checkin", "history"]).stdout == "2026-03-01 09:00 UTC  now\n")
        #expect(
            home.run(
                ["checkin", "--quiet"], now: "2026-03-01T10:00:00Z", environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"]
            ).code == 0)
    }

    @Test func configurationErrors() {
        let home = TempHome()
        let cases: [([String: String], String)] = [
            (
                ["LIFESIGNAL_HOME": "relative/dir"],
                "LIFESIGNAL_HOME must be an absolute path, but it is \"relative/dir\"; set it to a path starting with /"
            ),
            (
                ["LIFESIGNAL_NOW": "2026-02-30T09:00:00Z"],
                "LIFESIGNAL_NOW is not an RFC 3339 time: \"2026-02-30T09:00:00Z\"; use a form such as 2026-01-31T09:00:00Z, or unset it to use the clock"
            ),
            (
                ["LIFESIGNAL_NOW": "tomorrow"],
                "LIFESIGNAL_NOW is not an RFC 3339 time: \"tomorrow\"; use a form such as 2026-01-31T09:00:00Z, or unset it to use the clock"
            ),
            (
                ["LIFESIGNAL_LOCK_TIMEOUT": "abc"],
                "LIFESIGNAL_LOCK_TIMEOUT must be a whole number of seconds from 0 to 3600, but it is \"abc\""
            ),
            (
                ["LIFESIGNAL_LOCK_TIMEOUT": "3601"],
                "LIFESIGNAL_LOCK_TIMEOUT must be a whole number of seconds from 0 to 3600, but it is \"3601\""
            ),
            (
                ["LIFESIGNAL_LOCK_TIMEOUT": "-1"],
                "LIFESIGNAL_LOCK_TIMEOUT must be a whole number of seconds from 0 to 3600, but it is \"-1\""
            ),
        ]
        for (environment, message) in cases {
            for arguments in [["status"], ["checkin"]] {
                let run = home.run(arguments, environment: environment)
                #expect(run.code == 78, "\(environment) \(arguments)")
                #expect(run.stdout == "")
                #expect(run.stderr == "lifesignal: error: \(message)\n", "\(environment)")
            }
        }
        #expect(!home.exists("identity.json"))
        // Boundaries that are fine.
        #expect(home.run(["checkin", "--quiet"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "0"]).code == 0)
        // An empty LIFESIGNAL_NOW means the clock, not an error.
        #expect(
            home.run(["checkin", "--quiet"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "3600", "LIFESIGNAL_NOW": ""])
                .code == 0)
    }
}

extension TempHome {
    /// Runs `lifesignal <arguments>` through `/bin/sh -c`, for redirections such as
    /// `> /dev/full`; `arguments` is shell text after the binary's path.
    func shell(_ arguments: String) -> Run {
        let environment = [
            "LIFESIGNAL_HOME": path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": path,
            "LIFESIGNAL_NOW": "2026-03-01T09:00:00Z",
        ]
        return lifesignal(
            ["-c", "exec \"$0\" \(arguments)", Binary.path], environment: environment, executable: "/bin/sh")
    }
}
