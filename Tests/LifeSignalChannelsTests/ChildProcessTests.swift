import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalChannels

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// ChildProcess with real programs (reliability.md §4.4, §5.4 T11): hung, TERM-ignoring and
/// backgrounding commands are ended with their whole session, output is capped, statuses and
/// signals are reported, and data reaches the child byte-exact through env and stdin only.
// Serialized: one test sets the process-wide SIGPIPE disposition, another relies on its default.
@Suite(.integration, .serialized) struct ChildProcessTests {
    static let path = "/usr/bin:/bin"
    static let env = ["PATH": path]

    /// A fresh temporary directory, for the tests that write files (each removes its own).
    static func makeDirectory() throws -> String {
        let directory = Scratch.root.appendingPathComponent(
            "lifesignal-child-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func sh(
        _ script: String, env: [String: String] = env, stdin: [UInt8] = [], timeout: Double = 10, limit: Int = 64 * 1024
    )
        throws(ChildProcess.Failure) -> (result: ChildProcess.Result, seconds: Double)
    {
        let start = ChildProcess.monotonicSeconds()
        let result = try ChildProcess.run(
            ["/bin/sh", "-c", script], environment: env, stdin: stdin, timeout: timeout, outputLimit: limit)
        return (result, ChildProcess.monotonicSeconds() - start)
    }

    /// `sh`, on a thread of its own: a run that waits out a timeout then suspends the test
    /// instead of holding one of the test runner's few threads.
    static func shOffThread(_ script: String, timeout: Double) async throws -> (
        result: ChildProcess.Result, seconds: Double
    ) {
        let outcome = await withCheckedContinuation {
            (done: CheckedContinuation<Result<(ChildProcess.Result, Double), ChildProcess.Failure>, Never>) in
            Thread {
                do throws(ChildProcess.Failure) {
                    done.resume(returning: .success(try sh(script, timeout: timeout)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }.start()
        }
        return try outcome.get()
    }

    // MARK: Session bookkeeping

    /// The whole contents of a /proc file (their size reads as 0, so read to EOF).
    static func readProc(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return n == 0 ? bytes : nil }
            bytes += chunk[0..<n]
        }
    }

    /// Live (non-zombie) processes whose session id is `sid`, from /proc/*/stat. A zombie has
    /// already ended; reaping orphans is init's job, which a container's pid 1 may not do.
    static func sessionMembers(_ sid: Int32) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var members: [Int32] = []
        for name in names {
            guard let pid = Int32(name), let bytes = readProc("/proc/\(name)/stat"),
                let close = bytes.lastIndex(of: UInt8(ascii: ")"))
            else { continue }
            // After "(comm)": state ppid pgrp session …
            let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " ")).map {
                String(decoding: $0, as: UTF8.self)
            }
            guard fields.count > 3, fields[0] != "Z", fields[0] != "X", Int32(fields[3]) == sid else { continue }
            members.append(pid)
        }
        return members
    }

    /// The session's survivors once SIGKILL has had a moment to land (empty is the pass).
    /// Any found are killed after being reported, so a failing run leaves nothing behind.
    static func survivors(of sid: Int32) -> [Int32] {
        let deadline = ChildProcess.monotonicSeconds() + 2
        while true {
            let left = sessionMembers(sid)
            if left.isEmpty || ChildProcess.monotonicSeconds() > deadline {
                for pid in left { kill(pid, SIGKILL) }
                return left
            }
            usleep(20_000)
        }
    }

    @Test func sessionScanSeesLiveProcesses() {
        // The checker itself works: this test process is in its own session's list.
        #expect(Self.sessionMembers(getsid(0)).contains(getpid()))
    }

    // MARK: 1–3. Hung, TERM-ignoring and backgrounding commands

    @Test func hungCommandIsTerminatedWithItsSession() async throws {
        let (result, seconds) = try await Self.shOffThread("sleep 1000", timeout: 1)
        #expect(result.timedOut)
        #expect(!result.succeeded)
        #expect(result.signal == SIGTERM)
        #expect(seconds >= 1 && seconds < 2, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func hungCommandWithChildrenIsTerminatedWithItsSession() async throws {
        // The shell waits on a pipeline and a background job: every member goes.
        let (result, seconds) = try await Self.shOffThread("sleep 1000 & sleep 1000 | cat; wait", timeout: 1)
        #expect(result.timedOut)
        #expect(seconds >= 1 && seconds < 2, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func commandIgnoringTermIsKilled() async throws {
        let (result, seconds) = try await Self.shOffThread("trap '' TERM; sleep 1000; echo unreachable", timeout: 1)
        #expect(result.timedOut)
        #expect(result.signal == SIGKILL)
        #expect(result.stdout.isEmpty)
        // SIGTERM at 1 s is ignored; SIGKILL follows 0.5 s later.
        #expect(seconds >= 1.4 && seconds < 2, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func backgroundGrandchildHoldingThePipesDoesNotHoldUpTheRun() throws {
        let (result, seconds) = try Self.sh("sleep 1000 & echo started", timeout: 10)
        #expect(result.status == 0)
        #expect(!result.timedOut)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "started\n")
        #expect(seconds < 1, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func detachedGrandchildIsEndedWhenTheChildExits() throws {
        // The grandchild lets go of the pipes, so only the exit of the child says when to end it.
        let (result, seconds) = try Self.sh("sleep 1000 </dev/null >/dev/null 2>&1 & echo started", timeout: 10)
        #expect(result.status == 0)
        #expect(seconds < 1, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func backgroundJobInAnotherProcessGroupOfTheSessionIsEnded() throws {
        // bash's `set -m` gives a background job its own process group (bash sets it in parent
        // and child, so it is in place before `echo`): killing the child's group alone misses it.
        let script = "set -m; sleep 1000 </dev/null >/dev/null 2>&1 & echo started"
        let start = ChildProcess.monotonicSeconds()
        let result = try ChildProcess.run(["bash", "-c", script], environment: Self.env, timeout: 10)
        #expect(result.status == 0)
        #expect(ChildProcess.monotonicSeconds() - start < 1)
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func hungCommandUnderTimeoutWrapperIsEndedWithTheSession() async throws {
        // coreutils `timeout` moves itself into a new process group: a common wrapper in hooks.
        let (result, seconds) = try await Self.shOffThread("timeout 1000 sleep 1000; echo after", timeout: 1)
        #expect(result.timedOut)
        #expect(result.stdout.isEmpty)
        #expect(seconds >= 1 && seconds < 2, "took \(seconds) s")
        #expect(Self.survivors(of: result.pid) == [])
    }

    @Test func onlyStdioIsInherited() throws {
        // A descriptor this process holds without FD_CLOEXEC stays here: a hook (or a grandchild
        // it leaves) must not keep our files, locks, pipes or sockets open.
        let leaky = open("/dev/null", O_RDONLY)
        #expect(leaky > 2)
        defer { close(leaky) }
        let result = try ChildProcess.run(["ls", "/proc/self/fd"], environment: Self.env, stdin: [1], timeout: 5)
        #expect(result.status == 0)
        // 0–2 are stdio, 3 is the directory `ls` itself opened.
        #expect(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") == ["0", "1", "2", "3"])
    }

    // MARK: 4. Output cap

    #if os(Linux)
        static let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
        static let rusageSelf = RUSAGE_SELF
    #endif

    @Test func hugeOutputIsCappedWithoutHangingOrBuffering() throws {
        let limit = 64 * 1024
        var before = rusage()
        getrusage(Self.rusageSelf, &before)
        let (result, seconds) = try Self.sh(
            "head -c 100000000 /dev/zero; yes | head -c 100000000 >&2", timeout: 15, limit: limit)
        var after = rusage()
        getrusage(Self.rusageSelf, &after)
        #expect(result.status == 0)
        #expect(!result.timedOut)
        #expect(result.truncated)
        #expect(result.stdout.count == limit)
        #expect(result.stdout.allSatisfy { $0 == 0 })
        #expect(result.stderr.count == limit)
        #expect(Array(result.stderr.prefix(4)) == Array("y\ny\n".utf8))
        #expect(seconds < 10, "took \(seconds) s")
        // Peak resident memory (KiB on Linux) did not grow by anything like 100 MB.
        #expect(after.ru_maxrss - before.ru_maxrss < 50 * 1024)
    }

    @Test func outputAtTheCapIsNotTruncated() throws {
        let (result, _) = try Self.sh("head -c 1000 /dev/zero", limit: 1000)
        #expect(result.stdout.count == 1000)
        #expect(!result.truncated)
    }

    // MARK: 5. Exit statuses and signals

    @Test func exitStatusesAndSignalsAreReported() throws {
        let ok = try Self.sh("exit 0").result
        #expect(ok.status == 0 && ok.signal == nil && ok.succeeded)
        let three = try Self.sh("exit 3").result
        #expect(three.status == 3 && three.signal == nil && !three.succeeded && !three.timedOut)
        let high = try Self.sh("exit 255").result
        #expect(high.status == 255)
        let killed = try Self.sh("kill -9 $$").result
        #expect(killed.status == nil && killed.signal == 9 && !killed.succeeded && !killed.timedOut)
        let aborted = try Self.sh("kill -TERM $$").result
        #expect(aborted.signal == SIGTERM && !aborted.timedOut)
        let direct = try ChildProcess.run(["false"], environment: Self.env, timeout: 5)
        #expect(direct.status == 1)
    }

    // MARK: 6. Byte-exact data, no shell interpretation

    static let hostile: [String] = [
        "'", "\"", "$(id)", "`id`", ";", "\n", "a\nb\r\nc\n\n", "; rm -rf /tmp/x", "&& echo pwned || true",
        "é", "😀", "שלום עולם", "مرحبا", "\u{202E}txt.exe", "$HOME ${PATH} $$ $0 $1 *", "\\n\\0\\x41 %s %n",
        "' ; touch CANARY ; '", "\" ; touch CANARY ; \"", "$(touch CANARY)", "`touch CANARY`", "-n", "-e \\c",
        "BIG",
    ]

    /// About 100 KB of everything above (a single environment string may be at most 128 KiB).
    static func big(_ canary: String) -> String {
        let unit = "Ünïcødé 😀 '\"$(touch \(canary))`touch \(canary)`;\n"
        return String(repeating: unit, count: 100_000 / unit.utf8.count)
    }

    @Test func valuesArriveByteExactThroughEnvironmentStdinAndArguments() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let canary = Paths.join(directory, "canary")
        let out = Paths.join(directory, "out")
        let script = #"printf %s "$LIFESIGNAL_TEST" > "$OUT"; printf %s "$1" > "$OUT.arg"; cat > "$OUT.stdin""#
        for template in Self.hostile {
            let value = template == "BIG" ? Self.big(canary) : template.replacingOccurrences(of: "CANARY", with: canary)
            let bytes = Array(value.utf8)
            let env = ["PATH": Self.path, "OUT": out, "LIFESIGNAL_TEST": value]
            let result = try ChildProcess.run(
                ["/bin/sh", "-c", script, "lifesignal-test", value], environment: env, stdin: bytes, timeout: 10)
            #expect(result.status == 0, "\(result) for \(value.prefix(40))")
            #expect(result.stderr.isEmpty)
            #expect(Self.readProc(out) == bytes, "env value \(value.prefix(40).debugDescription)")
            #expect(Self.readProc(out + ".arg") == bytes, "argument \(value.prefix(40).debugDescription)")
            #expect(Self.readProc(out + ".stdin") == bytes, "stdin \(value.prefix(40).debugDescription)")
            #expect(
                !FileManager.default.fileExists(atPath: canary),
                "ran a command from \(value.prefix(40).debugDescription)")
        }
        #expect(Self.big(canary).utf8.count > 95_000)
    }

    // MARK: 7. Exactly the environment given

    @Test func environmentIsExactlyWhatWasGiven() throws {
        setenv("SECRET_TOKEN", "do-not-leak", 1)
        setenv("AWS_SECRET_ACCESS_KEY", "do-not-leak", 1)
        let given = ["PATH": Self.path, "LIFESIGNAL_CONTACT": "Ana 'the' \"best\"", "EMPTY": ""]
        let result = try ChildProcess.run(["env"], environment: given, timeout: 5)
        #expect(result.status == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(Set(lines) == Set(given.map { "\($0.key)=\($0.value)" }))
        #expect(lines.count == given.count)
        #expect(!lines.contains { $0.hasPrefix("SECRET_TOKEN=") || $0.hasPrefix("AWS_") || $0.hasPrefix("HOME=") })

        // Nothing at all, not even PATH, when nothing is given (found on the default PATH).
        let bare = try ChildProcess.run(["env"], environment: [:], timeout: 5)
        #expect(bare.status == 0 && bare.stdout.isEmpty)
    }

    // MARK: 8. Missing and non-executable programs

    @Test func missingProgramIsNotFoundNamingProgramAndPath() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory):/nonexistent/bin"
        #expect(throws: ChildProcess.Failure.notFound(program: "lifesignal-no-such-program", path: path)) {
            try ChildProcess.run(["lifesignal-no-such-program", "x"], environment: ["PATH": path], timeout: 5)
        }
        // A plain file without execute permission, found on PATH or named by path.
        let file = Paths.join(directory, "not-executable")
        #expect(
            FileManager.default.createFile(
                atPath: file, contents: Data("#!/bin/sh\necho ran\n".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(throws: ChildProcess.Failure.notFound(program: "not-executable", path: path)) {
            try ChildProcess.run(["not-executable"], environment: ["PATH": path], timeout: 5)
        }
        #expect(throws: ChildProcess.Failure.notFound(program: file, path: path)) {
            try ChildProcess.run([file], environment: ["PATH": path], timeout: 5)
        }
        // A directory of that name on PATH is not the program either.
        try FileManager.default.createDirectory(
            atPath: Paths.join(directory, "a-directory"), withIntermediateDirectories: false)
        #expect(throws: ChildProcess.Failure.notFound(program: "a-directory", path: path)) {
            try ChildProcess.run(["a-directory"], environment: ["PATH": path], timeout: 5)
        }
        // Without PATH in the environment the default is searched, and named in the error.
        #expect(throws: ChildProcess.Failure.notFound(program: "lifesignal-no-such-program", path: "/usr/bin:/bin")) {
            try ChildProcess.run(["lifesignal-no-such-program"], environment: [:], timeout: 5)
        }
        // The test's own PATH is not used: `sleep` is not in the given directory.
        #expect(throws: ChildProcess.Failure.notFound(program: "sleep", path: directory)) {
            try ChildProcess.run(["sleep", "0"], environment: ["PATH": directory], timeout: 5)
        }
    }

    // MARK: 9. Large stdin

    static let megabyte: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    @Test func stdinLargerThanThePipeBufferIsDeliveredFully() throws {
        let counted = try ChildProcess.run(["wc", "-c"], environment: Self.env, stdin: Self.megabyte, timeout: 10)
        #expect(counted.status == 0)
        #expect(
            String(decoding: counted.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(1 << 20)")
        // And byte for byte, while the child is writing back at the same time.
        let echoed = try ChildProcess.run(
            ["cat"], environment: Self.env, stdin: Self.megabyte, timeout: 10, outputLimit: 2 << 20)
        #expect(echoed.status == 0 && !echoed.truncated)
        #expect(echoed.stdout == Self.megabyte)
    }

    @Test func childThatNeverReadsStdinDoesNotHang() throws {
        // With SIGPIPE at its default (as in this test runner), writing to a child that is gone
        // must give EPIPE, not a signal that ends the caller.
        let previous = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, previous) }
        let start = ChildProcess.monotonicSeconds()
        let sleeper = try ChildProcess.run(["sleep", "0.1"], environment: Self.env, stdin: Self.megabyte, timeout: 10)
        #expect(sleeper.status == 0 && !sleeper.timedOut)
        // One that closes stdin at once and keeps running: writing hits EPIPE, not a hang or a signal.
        let closer = try Self.sh("exec 0<&-; sleep 0.2; echo done", stdin: Self.megabyte)
        #expect(closer.result.status == 0 && closer.result.stdout == Array("done\n".utf8))
        #expect(ChildProcess.monotonicSeconds() - start < 3)
    }

    // MARK: 10. SIGPIPE

    @Test func childGetsDefaultSigpipeEvenWhenTheParentIgnoresIt() throws {
        // lifesignal ignores SIGPIPE (main.swift); the programs it starts must not inherit that.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let (result, seconds) = try Self.sh(#"(yes; echo "yes ended with $?" >&2) | head -n 1"#, timeout: 10)
        #expect(result.status == 0)
        #expect(result.stdout == Array("y\n".utf8))
        // 128 + SIGPIPE: `yes` was ended by the signal, not left to fail on EPIPE.
        #expect(String(decoding: result.stderr, as: UTF8.self) == "yes ended with \(128 + SIGPIPE)\n")
        #expect(seconds < 5)
        let own = try Self.sh("kill -PIPE $$; echo survived").result
        #expect(own.signal == SIGPIPE && own.stdout.isEmpty)
    }

    @Test func signalMaskIsClearedInTheChild() throws {
        // A signal blocked in the calling thread must not stay blocked in the child.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let result = try Self.sh("kill -TERM $$; echo survived").result
        #expect(result.signal == SIGTERM)
    }
}
