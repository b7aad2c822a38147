/// Heartbeat requests: a plain GET of a monitoring service's URL with the system's `curl`,
/// bounded by a short timeout so that a dead service never holds up a check-in.
public enum Heartbeat {
    /// Seconds a heartbeat may take.
    public static let timeout: Double = 5

    /// Requests `url` once; nil when it answered with success, else what went wrong.
    public static func send(_ url: String, environment: [String: String]) -> String? {
        var env: [String: String] = [:]
        for key in Delivery.passedThrough { if let value = environment[key], !value.isEmpty { env[key] = value } }
        if env["PATH"] == nil { env["PATH"] = "/usr/bin:/bin" }
        // curl gives up first, with its own words; the process timeout is the backstop.
        let config = Curl.config([
            ("url", url), ("max-time", String(Int(timeout) - 1)), ("connect-timeout", "3"),
            ("user-agent", "lifesignal"),
        ])
        do {
            let result = try ChildProcess.run(
                ["curl", "--config", "-"], environment: env, stdin: Array(config.utf8), timeout: timeout,
                outputLimit: 4 * 1024)
            return Delivery.failure(of: result, program: "curl", timeout: timeout)
        } catch {
            switch error {
            case .notFound(let program, let path):
                return "\(program) is not installed or not on PATH (\(path)); install curl"
            case .spawnFailed(let program, let reason):
                return "could not start \(program): \(reason)"
            }
        }
    }
}
