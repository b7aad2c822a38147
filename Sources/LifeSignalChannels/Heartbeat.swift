/// Heartbeat requests: a plain GET of a monitoring service's URL with the system's `curl`,
/// bounded by a short timeout so that a dead service never holds up a check-in.
public enum Heartbeat {
    /// Seconds a heartbeat may take.
    public static let timeout: Double = 5

    /// Requests `url` once; nil when it answered with success, else what went wrong.
    public static func send(_ url: String, environment: [String: String]) -> String? {
        switch HTTP.get(url, timeout: timeout, environment: environment, outputLimit: 4 * 1024) {
        case .success: return nil
        case .failure(let failure): return failure.message
        }
    }
}
