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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, null, fd) }
        #if os(Linux)
            for fd in numericEntries(of: "/proc/self/fd") where fd > 2 {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
        #endif
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(
            &attributes,
            Int16(spawnNewSession | closeOthers | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return spawned == 0 ? nil : String(cString: strerror(spawned))
    }
}
