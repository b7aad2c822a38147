import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another program safely: found on the given PATH (so "not installed" is a clear error),
/// started in its own session with exactly the environment given, fed its data on stdin,
/// its output captured up to a cap, and — past the timeout — the whole process group ended,
/// SIGTERM then SIGKILL, so no grandchild survives. Nothing is ever spliced into a shell string.
public enum ChildProcess {
    public struct Result: Equatable, Sendable {
        /// The exit status, or nil when a signal ended it.
        public var status: Int32?
        public var signal: Int32?
        public var timedOut: Bool
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// Output beyond the cap was dropped.
        public var truncated: Bool
        /// The child's process id, which is also its session and process-group id (tests use
        /// it to check that nothing of the session survived).
        public var pid: Int32

        public var succeeded: Bool { status == 0 && !timedOut }

        public init(
            status: Int32?, signal: Int32? = nil, timedOut: Bool = false, stdout: [UInt8], stderr: [UInt8],
            truncated: Bool = false, pid: Int32
        ) {
            (self.status, self.signal, self.timedOut) = (status, signal, timedOut)
            (self.stdout, self.stderr, self.truncated, self.pid) = (stdout, stderr, truncated, pid)
        }
    }

    public enum Failure: Error, Equatable, Sendable {
        /// The program is not on PATH (or not executable).
        case notFound(program: String, path: String)
        case spawnFailed(program: String, reason: String)
    }

    /// The absolute path of `program`, searched on `path` when it has no slash.
    public static func locate(_ program: String, path: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = Paths.join(String(directory), program)
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    public static func run(
        _ arguments: [String], environment: [String: String], stdin: [UInt8] = [],
        timeout: Double, outputLimit: Int = 64 * 1024
    ) throws(Failure) -> Result {
        guard let program = arguments.first else { throw .spawnFailed(program: "", reason: "no program given") }
        let searchPath = environment["PATH"] ?? "/usr/bin:/bin"
        guard let executable = locate(program, path: searchPath) else {
            throw .notFound(program: program, path: searchPath)
        }
        let child = try spawn(executable, arguments, environment: environment)
        var supervision = Supervision(child: child, stdin: stdin, timeout: timeout, outputLimit: outputLimit)
        return supervision.run()
    }

    /// A started child: its pid and our ends of its stdin, stdout and stderr pipes.
    struct Child {
        var pid: pid_t
        var stdin: Int32
        var stdout: Int32
        var stderr: Int32
    }

    /// Starts `executable` in a session of its own, with stdio on three new pipes and nothing
    /// else inherited.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]) throws(Failure)
        -> Child
    {
        let program = arguments.first ?? executable
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard closeOnExecPipe(&input), closeOnExecPipe(&output), closeOnExecPipe(&errors) else {
            let reason = String(cString: strerror(errno))
            for fd in input + output + errors where fd >= 0 { close(fd) }
            throw .spawnFailed(program: program, reason: reason)
        }
        let (pid, spawned) = spawnInSession(
            executable, argv: arguments, environment: environment, stdio: (input[0], output[1], errors[1]))
        close(input[0])
        close(output[1])
        close(errors[1])
        if spawned != 0 {
            close(input[1])
            close(output[0])
            close(errors[0])
            throw .spawnFailed(program: program, reason: String(cString: strerror(spawned)))
        }
        return Child(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0])
    }

    /// Starts `executable` with `argv` in a session of its own, its stdio on the descriptors
    /// given and nothing else inherited: the pid, and 0 or the error posix_spawn returned.
    static func spawnInSession(
        _ executable: String, argv arguments: [String], environment: [String: String],
        stdio: (Int32, Int32, Int32)
    ) -> (pid: pid_t, error: Int32) {
        var actions = fileActions(stdin: stdio.0, stdout: stdio.1, stderr: stdio.2)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = sessionAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return (pid, error)
    }

    /// The child's stdio on the pipes' ends, and nothing else.
    private static func fileActions(stdin: Int32, stdout: Int32, stderr: Int32) -> posix_spawn_file_actions_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        #if os(Linux)
            // Only stdio reaches the child. Any other descriptor this process holds without
            // FD_CLOEXEC (inherited from whatever started lifesignal; a test runner's sockets)
            // was otherwise held open by the hook and by any grandchild it leaves behind.
            // Darwin does this with POSIX_SPAWN_CLOEXEC_DEFAULT below; glibc's closefrom action
            // is not visible to Swift. Closing an fd that is gone by then is ignored.
            for fd in numericEntries(of: "/proc/self/fd") where fd > 2 {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
        #endif
        return actions
    }

    /// A new session makes the child a process-group leader we can end as a whole; the
    /// signals lifesignal ignores (SIGPIPE) are restored to their defaults in the child, and
    /// its signal mask is cleared.
    private static func sessionAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
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
        return attributes
    }

    /// POSIX_SPAWN_SETSID, which the C headers only expose with _GNU_SOURCE (glibc ≥ 2.26);
    /// and on Darwin POSIX_SPAWN_CLOEXEC_DEFAULT, so the child gets only the descriptors the
    /// file actions name (stdio). Linux closes the others through file actions instead.
    #if os(Linux)
        static let spawnNewSession: Int32 = 0x80
        static let closeOthers: Int32 = 0
    #else
        static let spawnNewSession: Int32 = 0x400
        static let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif

    /// Sends `signal` to the child's whole session: its process group and, on Linux, every
    /// other process whose session id is the child's pid. A coreutils `timeout` wrapper or a
    /// bash `set -m` background job moves into a process group of its own, which kill(-pid)
    /// alone missed (they survived the hook). A program that calls setsid() itself leaves the
    /// session and is beyond reach here; on Darwin only the process group is signalled.
    static func signalSession(_ session: pid_t, _ signal: Int32) {
        _ = kill(-session, signal)
        #if os(Linux)
            for pid in numericEntries(of: "/proc") where pid > 1 && getsid(pid) == session {
                _ = kill(pid, signal)
            }
        #endif
    }

    /// The names in `directory` that are numbers: pids in /proc, descriptors in /proc/self/fd.
    static func numericEntries(of directory: String) -> [Int32] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var numbers: [Int32] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let number = Int32(name) { numbers.append(number) }
        }
        return numbers
    }

    /// `write`, except that a child which closed its stdin (or exited) without reading it all
    /// gives EPIPE rather than SIGPIPE, even when the calling process has not ignored SIGPIPE
    /// (a test runner, another tool embedding this). Without this, such a child killed us.
    /// The signal a pipe write raises is sent to the writing thread: block it here, and take
    /// it back off this thread's pending set before unblocking. Process-wide state is untouched.
    static func writeWithoutSigpipe(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        let written = write(fd, bytes, count)
        let saved = errno
        if written < 0, saved == EPIPE, !alreadyPending {
            sigpending(&pending)
            // Pending now means it is ours (thread-directed), so sigwait returns at once.
            if sigismember(&pending, SIGPIPE) == 1 {
                var signal: Int32 = 0
                sigwait(&pipeOnly, &signal)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = saved
        return written
    }

    /// A pipe whose ends are not inherited by the programs we start (only the dup2'd copies are).
    static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Watches one child until it is done: feeds its stdin, collects its output up to the cap, and
/// past the timeout ends its whole session (SIGTERM, then SIGKILL half a second later).
private struct Supervision {
    let child: ChildProcess.Child
    let stdin: [UInt8]
    let timeout: Double
    let outputLimit: Int
    var result: ChildProcess.Result
    var stdinFD: Int32
    var stdinOffset = 0
    var open: [Int32]
    let start = ChildProcess.monotonicSeconds()
    var exited = false
    /// 0 running, 1 SIGTERM sent, 2 SIGKILL sent.
    var killStage = 0
    var exitedAt: Double? = nil
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(child: ChildProcess.Child, stdin: [UInt8], timeout: Double, outputLimit: Int) {
        self.child = child
        self.stdin = stdin
        self.timeout = timeout
        self.outputLimit = outputLimit
        result = ChildProcess.Result(
            status: nil, signal: nil, timedOut: false, stdout: [], stderr: [], truncated: false, pid: child.pid)
        stdinFD = child.stdin
        open = [child.stdout, child.stderr]
        if stdin.isEmpty {
            close(stdinFD)
            stdinFD = -1
        } else {
            _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
        }
    }

    mutating func run() -> ChildProcess.Result {
        while true {
            enforceTimeout(at: ChildProcess.monotonicSeconds())
            reap()
            if exited && open.isEmpty {
                if stdinFD >= 0 { close(stdinFD) }
                return result
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for entry in fds where entry.revents != 0 {
                if entry.fd == stdinFD { feed() } else { collect(from: entry.fd) }
            }
        }
    }

    mutating func enforceTimeout(at now: Double) {
        // After the child exits, a grandchild may still hold the pipes open: give it a moment,
        // then end the group and stop reading.
        if let exitedAt, !open.isEmpty, now - exitedAt > 0.2 {
            ChildProcess.signalSession(child.pid, SIGKILL)
            for fd in open { close(fd) }
            open.removeAll()
        }
        if !exited, now - start > timeout, killStage == 0 {
            result.timedOut = true
            ChildProcess.signalSession(child.pid, SIGTERM)
            killStage = 1
        }
        if killStage == 1, now - start > timeout + 0.5 {
            ChildProcess.signalSession(child.pid, SIGKILL)
            killStage = 2
        }
    }

    mutating func reap() {
        guard !exited else { return }
        var status: Int32 = 0
        guard waitpid(child.pid, &status, WNOHANG) == child.pid else { return }
        exited = true
        exitedAt = ChildProcess.monotonicSeconds()
        if status & 0x7F == 0 {
            result.status = (status >> 8) & 0xFF
        } else {
            result.signal = status & 0x7F
        }
        // Anything the child started in its session goes with it.
        ChildProcess.signalSession(child.pid, SIGKILL)
    }

    mutating func feed() {
        let offset = stdinOffset
        let fd = stdinFD
        let n = stdin.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return ChildProcess.writeWithoutSigpipe(fd, base + offset, raw.count - offset)
        }
        if n > 0 { stdinOffset += n }
        if n < 0 && errno != EAGAIN && errno != EINTR || stdinOffset >= stdin.count {
            close(stdinFD)
            stdinFD = -1
        }
    }

    mutating func collect(from fd: Int32) {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else {
            if n == 0 || (errno != EINTR && errno != EAGAIN) {
                close(fd)
                open.removeAll { $0 == fd }
            }
            return
        }
        let isOut = fd == child.stdout
        let room = max(0, outputLimit - (isOut ? result.stdout.count : result.stderr.count))
        if n > room { result.truncated = true }
        guard room > 0 else { return }
        if isOut {
            result.stdout += buffer[0..<min(n, room)]
        } else {
            result.stderr += buffer[0..<min(n, room)]
        }
    }
}
