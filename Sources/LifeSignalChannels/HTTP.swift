import LifeSignalCore

/// HTTP requests lifesignal makes itself (not deliveries): a heartbeat, a question to a sync
/// engine's API. Through the system's `curl`, its configuration on stdin so that no URL, header
/// or key is ever on a command line, with a short timeout so a dead service never holds up a
/// run.
public enum HTTP {
    /// GETs `url` (with `headers`); the body, or what went wrong in a line.
    public static func get(
        _ url: String, headers: [(String, String)] = [], timeout: Double, environment: [String: String],
        outputLimit: Int = 1 << 20, runner: ProgramRunner = .system
    ) -> Result<[UInt8], Failure> {
        var env: [String: String] = [:]
        for key in Delivery.passedThrough { if let value = environment[key], !value.isEmpty { env[key] = value } }
        if env["PATH"] == nil { env["PATH"] = "/usr/bin:/bin" }
        // curl gives up first, with its own words; the process timeout is the backstop.
        var options = [
            ("url", url), ("max-time", String(max(1, Int(timeout) - 1))), ("connect-timeout", "3"),
            ("user-agent", "lifesignal"),
        ]
        options += headers.map { ("header", "\($0.0): \($0.1)") }
        do {
            let result = try runner.run(
                ["curl", "--config", "-"], env, Array(Curl.config(options).utf8), timeout, outputLimit)
            if let failure = Delivery.failure(of: result, program: "curl", timeout: timeout) {
                return .failure(Failure(message: failure))
            }
            return .success(result.stdout)
        } catch {
            switch error {
            case .notFound(let program, let path):
                return .failure(Failure(message: "\(program) is not installed or not on PATH (\(path)); install curl"))
            case .spawnFailed(let program, let reason):
                return .failure(Failure(message: "could not start \(program): \(reason)"))
            }
        }
    }

    /// What went wrong with a request, as a person reads it.
    public struct Failure: Error, Equatable, Sendable {
        public var message: String

        public init(message: String) { self.message = message }
    }
}
