import Foundation
import LifeSignalCLI
import LifeSignalCore
import TestSupport
import Testing

/// What one run of lifesignal showed: stdout, stderr and the exit code. Runs are in this process
/// through `LifeSignal.run` with a controlled environment (a temporary `LIFESIGNAL_HOME`, a fixed
/// `LIFESIGNAL_NOW`, `TZ=UTC`, `COLUMNS=80`), or a fresh process of the built binary where only
/// a process can show it (see `lifesignal(_:environment:…)`).
struct Run {
    var stdout: String
    var stderr: String
    var code: Int32
}

enum Binary {
    /// `.build/<triple>/debug/lifesignal`, next to the test bundle.
    static let path: String = {
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        let candidate = url.appendingPathComponent("lifesignal").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // swift-testing's runner may live elsewhere; fall back to the package's build folder.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/lifesignal").path
    }()

    /// The package's root folder (for README, completions, man page).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

/// A temporary data directory that is removed when the test ends.
final class TempHome {
    let url: URL
    var path: String { url.path }

    init() {
        url = Scratch.root.appendingPathComponent("lifesignal-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs lifesignal with this directory as `LIFESIGNAL_HOME`.
    @discardableResult
    func run(
        _ arguments: [String], now: String? = "2026-03-01T09:00:00Z", environment extra: [String: String] = [:],
        stdin: String? = nil,
        directory: String? = nil
    ) -> Run {
        var environment = [
            "LIFESIGNAL_HOME": path, "TZ": "UTC", "COLUMNS": "80", "PATH": "/usr/bin:/bin", "HOME": path,
        ]
        if let now { environment["LIFESIGNAL_NOW"] = now }
        for (key, value) in extra { environment[key] = value }
        return lifesignal(arguments, environment: environment, stdin: stdin, directory: directory)
    }

    /// Whether a file or directory exists at `relative` inside this directory.
    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path)
    }
}

/// Runs lifesignal with exactly `environment` (nothing inherited): in this process, through
/// `LifeSignal.run`, as `main.swift` would with the real world, unless only a process can show
/// what is asked — another executable, the crash failpoint (which ends the process), or a
/// local time zone other than UTC (the zone is the process's, not the run's).
func lifesignal(
    _ arguments: [String], environment: [String: String], stdin: String? = nil, executable: String = Binary.path,
    directory: String? = nil
) -> Run {
    let needsProcess =
        executable != Binary.path || environment["LIFESIGNAL_TEST_CRASH_AFTER_SEND"] != nil
        || !["UTC", "UTC0", nil].contains(environment["TZ"])
    if needsProcess {
        return spawn(arguments, environment: environment, stdin: stdin, executable: executable, directory: directory)
    }
    return InProcess.run(arguments, environment: environment, stdin: stdin, directory: directory)
}

/// One in-process run: the same `Context` that `main.swift` builds, with stdout, stderr and stdin
/// in memory and the clock and time zone fixed to UTC (tests pin the time with LIFESIGNAL_NOW).
enum InProcess {
    final class Capture: @unchecked Sendable {
        var stdout = ""
        var stderr = ""
        var input: [String]
        init(_ stdin: String?) {
            input = stdin.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
            if input.last == "" { input.removeLast() }
        }
    }

    static func run(_ arguments: [String], environment: [String: String], stdin: String?, directory: String?) -> Run {
        let (context, capture) = self.context(arguments, environment: environment, stdin: stdin, directory: directory)
        let code = LifeSignal.run(context)
        return Run(stdout: capture.stdout, stderr: capture.stderr, code: code)
    }

    /// The context of one in-process run and what it captures, for a test to change first.
    static func context(
        _ arguments: [String], environment: [String: String], stdin: String? = nil, directory: String? = nil
    ) -> (context: Context, capture: Capture) {
        let capture = Capture(stdin)
        let context = Context(
            arguments: arguments, environment: environment,
            clock: { Timestamp(seconds: Int64(Date().timeIntervalSince1970)) }, utcOffset: { _ in 0 },
            stdinIsTerminal: false, stdoutIsTerminal: false, terminalColumns: nil,
            account: Account.lookUp,
            workingDirectory: directory ?? FileManager.default.currentDirectoryPath,
            write: { stream, text in
                if stream == .standardOutput { capture.stdout += text } else { capture.stderr += text }
                return nil
            },
            readLine: { capture.input.isEmpty ? nil : capture.input.removeFirst() })
        return (context, capture)
    }
}

/// Runs an executable in a new process with exactly `environment`. Output goes to temporary
/// files, not pipes, so a large output can never block the child.
func spawn(
    _ arguments: [String], environment: [String: String], stdin: String? = nil, executable: String = Binary.path,
    directory: String? = nil
) -> Run {
    let scratch = Scratch.root.appendingPathComponent("lifesignal-run-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    guard let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL) else {
        return Run(stdout: "", stderr: "could not create capture files in \(scratch.path)", code: -1)
    }
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    do {
        try process.run()
    } catch {
        return Run(stdout: "", stderr: "could not start \(executable): \(error)", code: -1)
    }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    return Run(stdout: stdout, stderr: stderr, code: process.terminationStatus)
}

/// Parses JSON output into a dictionary for field-by-field checks.
func jsonObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let data = text.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
        Issue.record("not a JSON object: \(text)", sourceLocation: sourceLocation)
        return [:]
    }
    return object
}

/// The stderr of a usage error: the message, the command's usage line and where to read more.
func usageError(_ message: String, usage: String, command: String = "lifesignal") -> String {
    "lifesignal: error: \(message)\nUsage: \(usage)\n  See '\(command) --help' for more information.\n"
}

/// What `status` and `checkin` say on stderr for a profile that nobody watches over.
let noRespondersWarning =
    "lifesignal: warning: nobody watches over you: you have no responders, so a missed check-in or an alert reaches nobody. Add one with 'lifesignal contacts add'.\n"

extension TempHome {
    /// Adds an external responder (reached by a command that always succeeds), so that the
    /// profile is watched and runs say nothing about nobody watching.
    func addResponder(now: String = "2026-03-01T09:00:00Z") {
        run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"], now: now)
    }
}
