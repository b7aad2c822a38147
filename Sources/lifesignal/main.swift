import LifeSignalCLI
import LifeSignalCore

// Wires the real world into a Context and runs lifesignal. Nothing else belongs here.
#if canImport(Glibc)
    @preconcurrency import Glibc
    import CGlibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process environment as a dictionary. Split on the raw bytes: Character-based string
/// scanning cost a noticeable share of start-up for a few dozen variables.
func readEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let length = strlen(pointer)
        pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            let buffer = UnsafeBufferPointer(start: bytes, count: length)
            if let equals = buffer.firstIndex(of: UInt8(ascii: "=")) {
                environment[String(decoding: buffer[..<equals], as: UTF8.self)] = String(
                    decoding: buffer[(equals + 1)...], as: UTF8.self)
            }
        }
        entry += 1
    }
    return environment
}

/// Writes all of `text` to stdout or stderr; an errno-style reason on failure ("EPIPE" for a
/// closed pipe).
func writeOut(_ stream: Context.Stream, _ text: String) -> String? {
    let fd = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return errno == EPIPE ? "EPIPE" : String(cString: strerror(errno))
        }
        bytes = bytes.dropFirst(written)
    }
    return nil
}

/// Everything runs inside this function, not at the top level: in Swift 6 top-level variables
/// belong to the main actor, and closures capturing them get run-time executor checks that
/// link the concurrency runtime and libdispatch into the binary, which every run would pay
/// for at start-up.
func run() -> Int32 {
    // fds 0–2 must be open, or the first file opened would become stdout and receive output.
    for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
        _ = open("/dev/null", O_RDWR)
    }
    // A closed pipe is an EPIPE to handle, not a signal that kills us mid-write.
    signal(SIGPIPE, SIG_IGN)
    // Files are private to the user, whatever umask the shell or cron left.
    umask(0o077)

    let environment = readEnvironment()

    var cwdBuffer = [CChar](repeating: 0, count: 4096)
    let workingDirectory: String? =
        getcwd(&cwdBuffer, cwdBuffer.count) != nil
        ? String(decoding: cwdBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil

    var size = winsize()
    let columns: Int? = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil

    var context = Context(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: environment,
        clock: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Timestamp(seconds: Int64(now.tv_sec))
        },
        utcOffset: { time in
            var seconds = time_t(time.seconds)
            var local = tm()
            guard localtime_r(&seconds, &local) != nil else { return 0 }
            return Int64(local.tm_gmtoff)
        },
        stdinIsTerminal: isatty(STDIN_FILENO) == 1,
        stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
        terminalColumns: columns,
        account: Account.lookUp,
        workingDirectory: workingDirectory,
        write: writeOut,
        readLine: { Swift.readLine(strippingNewline: true) })
    // Not even the program's own name: the runtime could not read the arguments.
    context.argumentsUnreadable = CommandLine.argc < 1
    context.zoneAbbreviation = { time in
        var seconds = time_t(time.seconds)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil, let zone = local.tm_zone else { return nil }
        return String(cString: zone)
    }

    context.executable = ownExecutable
    context.readHiddenLine = readHiddenLine
    return LifeSignal.run(context)
}

/// The path of this program's executable, as the kernel knows it.
func ownExecutable() -> String? {
    #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
}

/// One line from the terminal on stdin with echo off (restored afterwards, and the newline the
/// person typed shown); nil at end of input.
func readHiddenLine() -> String? {
    var saved = termios()
    let hidden = tcgetattr(STDIN_FILENO, &saved) == 0
    if hidden {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    }
    let line = Swift.readLine(strippingNewline: true)
    if hidden {
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        _ = writeOut(.standardError, "\n")
    }
    return line
}

#if canImport(Glibc) && canImport(CGlibc)
    // A run lives a fraction of a second with two reader threads besides the main one. Two
    // malloc arenas, not one per thread, and a fixed 128 KiB threshold above which a block is
    // mapped and given back when freed (glibc raises it as large blocks are freed, then keeps
    // them): the cold 1,000-member read of scripts/bench's store peaked at 11.4 MiB over ten
    // runs (/usr/bin/time), 12.3 without either, in the same time (hyperfine, 34 ms). One
    // arena saved no more and cost a fifth more time: the three threads waited on its lock.
    _ = mallopt(M_ARENA_MAX, 2)
    _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
#endif
exit(run())
