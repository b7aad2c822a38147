import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChildProcess {
    /// Starts `executable` and does not wait for it: in a session of its own, its stdio on
    /// /dev/null and nothing else inherited, so the command that started it ends (and a pipe
    /// or terminal reading that command sees its end) at once, and the child outlives it. What
    /// a check-in uses to send something after its output (a `notify deliver` run of this same
    /// lifesignal). Returns why it could not start, or nil.
    public static func detach(_ executable: String, _ arguments: [String], environment: [String: String]) -> String? {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { return String(cString: strerror(errno)) }
        defer { close(null) }
        let spawned = spawnInSession(
            executable, argv: [executable] + arguments, environment: environment, stdio: (null, null, null)
        ).error
        return spawned == 0 ? nil : String(cString: strerror(spawned))
    }
}
