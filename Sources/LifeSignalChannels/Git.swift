import LifeSignalCore

/// The system's `git`, run through the child-process layer for a circle kept in a git work
/// tree: a clean environment, no prompts (a cron job must never wait for a password), a
/// timeout, and a fixed identity for commits so a machine without `user.name` still syncs.
public struct Git: Sendable {
    public internal(set) var directory: String
    let environment: [String: String]
    /// `-c name=value` settings given to every command (see `forGcrypt`).
    var settings: [String] = []
    /// Runs git (`ProgramRunner.system`, or a test's).
    let runner: ProgramRunner
    /// Seconds one git command may take (network operations included).
    public static let timeout: Double = 60

    public init(directory: String, environment from: [String: String], runner: ProgramRunner = .system) {
        self.directory = directory
        self.runner = runner
        var env: [String: String] = [:]
        // gpg's keyring and agent, for a remote encrypted with git-remote-gcrypt.
        for key in [
            "PATH", "HOME", "SSH_AUTH_SOCK", "GIT_SSH_COMMAND", "LANG", "LC_ALL", "TZ", "GNUPGHOME", "GPG_AGENT_INFO",
        ] {
            if let value = from[key], !value.isEmpty { env[key] = value }
        }
        if env["PATH"] == nil { env["PATH"] = "/usr/bin:/bin" }
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_ASKPASS"] = "/bin/false"
        if env["GIT_SSH_COMMAND"] == nil { env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes" }
        env["LC_ALL"] = "C"
        environment = env
    }

    /// What one git command did.
    public struct Outcome: Sendable {
        public var succeeded: Bool
        public var output: String
        /// Why it failed, in a line (the command, and git's own last words).
        public var problem: String
        /// What git (and a remote helper) said on stderr.
        public var stderr: String = ""
    }

    /// Runs `git -C directory <arguments>`.
    public func run(_ arguments: [String]) -> Outcome {
        let line =
            ["git", "-C", directory, "-c", "user.name=lifesignal", "-c", "user.email=lifesignal@localhost"]
            + settings.flatMap { ["-c", $0] }
        do {
            let result = try runner.run(line + arguments, environment, [], Self.timeout, 1 << 20)
            let output = String(decoding: result.stdout, as: UTF8.self)
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            let problem =
                result.timedOut
                ? "git \(arguments.first ?? "") did not finish within \(Int(Self.timeout))s"
                : Self.problem(arguments, stderr: stderr, status: result.status)
            return Outcome(succeeded: result.succeeded, output: output, problem: problem, stderr: stderr)
        } catch {
            switch error {
            case .notFound(_, let path):
                return Outcome(
                    succeeded: false, output: "", problem: "git is not installed or not on PATH (\(path)); install git")
            case .spawnFailed(_, let reason):
                return Outcome(succeeded: false, output: "", problem: "could not start git: \(reason)")
            }
        }
    }

    /// What went wrong, in a line: git's own error line (not its advice around it), and for a
    /// lock left in the repository, which file it is and what to do.
    static func problem(_ arguments: [String], stderr: String, status: Int32?) -> String {
        let command = "git \(arguments.joined(separator: " "))"
        let lines = stderr.split(separator: "\n").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        if let gcrypt = Gcrypt.problem(lines) { return "\(command) failed: \(gcrypt)" }
        if let line = lines.first(where: { $0.includes(".lock': File exists") }),
            let start = line.firstRange(ofText: "'"), let end = line.firstRange(ofText: ".lock'")
        {
            let lock = String(line[start.upperBound..<end.lowerBound]) + ".lock"
            return
                "\(command) failed: the repository is locked by \(lock): another git is working in it, or one that crashed left the file behind. If no git is running there, remove it (rm '\(lock)'); lifesignal removes one left for over \(Int(timeout) + 5)s itself"
        }
        let said =
            lines.first { $0.hasPrefix("fatal:") || $0.hasPrefix("error:") } ?? lines.last
            ?? "exit \(status ?? -1)"
        return "\(command) failed: \(said)"
    }

    /// The output's lines, without empty ones.
    public func lines(_ arguments: [String]) -> [String]? {
        let outcome = run(arguments)
        guard outcome.succeeded else { return nil }
        return outcome.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}
