import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Concurrent invocations (cron and a shell in the same second) lose nothing, a kill at any
/// instant leaves a readable store, a held lock is reported, and files stay private whatever
/// the umask (reliability.md §2, T1–T4, T10). Serialized: each test alone loads both cores.
@Suite(.integration, .serialized) struct ConcurrencyTests {
    /// So that a slow, shared CI machine never turns a wait into a failure.
    static let patient = ["LIFESIGNAL_LOCK_TIMEOUT": "120"]

    @Test func twoHundredConcurrentCheckInsAreAllRecorded() throws {
        let home = TempHome()
        let environment = lifesignalEnvironment(home, Self.patient)
        // All started before any is waited for; the first write of all also races to create
        // the profile, and the 203 events cross the archive limit.
        var children: [SpawnedRun] = []
        for i in 0..<200 {
            children.append(try SpawnedRun(["checkin", "--note", "N\(i)"], environment: environment))
        }
        let results = children.map { $0.wait(timeout: 240) }
        let failed = results.enumerated().filter { $0.element.code != 0 }
        #expect(
            failed.isEmpty,
            "\(failed.count) failed, e.g. \(failed.prefix(3).map { "#\($0.offset): \($0.element.code) \($0.element.stderr)" })"
        )
        #expect(
            results.filter { $0.stderr.contains("created a profile") }.count == 1, "exactly one run creates the profile"
        )

        let notes = try historyNotes(home, expectedTotal: 200)
        #expect(notes.count == 200)
        #expect(Set(notes) == Set((0..<200).map { "N\($0)" }))
        let segments = StoreSnapshot(home.path).entries.keys.filter { $0.contains("/archive/") }
        #expect(!segments.isEmpty, "203 events should have been archived in part")
        expectPrivateAndClean(home.path, includingRoot: false)
    }

    @Test func mixedWritersAndReadersAllSucceed() throws {
        let fixture = try ReliabilityFixture.make()
        let home = fixture.home
        let environment = lifesignalEnvironment(home, Self.patient)
        var checkins: [SpawnedRun] = []
        var statuses: [SpawnedRun] = []
        var intervals: [SpawnedRun] = []
        for i in 0..<50 {
            checkins.append(try SpawnedRun(["checkin", "--note", "M\(i)"], environment: environment))
            statuses.append(try SpawnedRun(["checkin", "status", "--json"], environment: environment))
            if i < 20 {
                intervals.append(
                    try SpawnedRun(["checkin", "interval", i % 2 == 0 ? "8h" : "16h"], environment: environment))
            }
        }
        for run in checkins.map({ $0.wait(timeout: 240) }) { #expect(run.code == 0, "checkin: \(run.stderr)") }
        for run in intervals.map({ $0.wait(timeout: 240) }) { #expect(run.code == 0, "interval: \(run.stderr)") }
        for run in statuses.map({ $0.wait(timeout: 240) }) {
            #expect([0, 3, 4].contains(run.code), "status: \(run.code) \(run.stderr)")
            let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect(json?["state"] is String, "status output is not the status JSON: \(run.stdout)")
        }

        let notes = try historyNotes(home, expectedTotal: 53)
        #expect(Set((0..<50).map { "M\($0)" }).isSubset(of: Set(notes)))
        // Every write is in the log exactly once: 4 profile events (name, interval, reminder,
        // invite code), 3 + 50 check-ins, 20 intervals.
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.log)))
                as? [String: Any])
        let events = try #require(log["events"] as? [[String: Any]])
        #expect(log["lastSeq"] as? Int == 77)
        #expect(events.count == 77)
        #expect(events.filter { $0["type"] as? String == "intervalSet" }.count == 21)
        let interval = home.run(["checkin", "interval"])
        #expect(
            interval.stdout == "Check-in interval: 8h.\n" || interval.stdout == "Check-in interval: 16h.\n",
            "\(interval.stdout)")
        expectPrivateAndClean(home.path, includingRoot: false)
    }

    /// SIGKILL at a random instant of a check-in, again and again: the store always reads,
    /// and no acknowledged check-in is ever lost.
    @Test func killNineDuringCheckInsNeverDamagesTheStore() throws {
        let fixture = try ReliabilityFixture.make()
        let home = fixture.home
        // Close to the archive limit, so the loop also kills saves that write a segment.
        let baseline = 190
        try fixture.writeSyntheticLog(checkIns: baseline)
        let environment = lifesignalEnvironment(home, ["LIFESIGNAL_LOCK_TIMEOUT": "10"])
        var acknowledged: Set<String> = []
        var killed: Set<String> = []
        var problems: [String] = []
        let started = Date()
        for i in 0..<100 where problems.count < 5 && Date().timeIntervalSince(started) < 25 {
            let note = "K\(i)"
            let child = try SpawnedRun(["checkin", "--note", note], environment: environment)
            usleep(UInt32.random(in: 0...20_000))
            child.kill(SIGKILL)
            let run = child.wait(timeout: 30)
            if run.code == 0 {
                acknowledged.insert(note)
            } else if run.signaled {
                killed.insert(note)
            } else {
                problems.append("checkin #\(i) exited \(run.code): \(run.stderr)")
            }
            let status = home.run(["checkin", "status"])
            if ![0, 3, 4].contains(status.code) {
                problems.append("status after kill #\(i): \(status.code) \(status.stderr)")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(!killed.isEmpty, "no run was killed mid-way; the loop tested nothing")

        let history = home.run(["checkin", "history", "--limit", "1000", "--json"])
        #expect(history.code == 0, "\(history.stderr)")
        let json = jsonObject(history.stdout)
        let total = try #require(json["total"] as? Int)
        let notes = (json["checkIns"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        #expect(notes.count == total, "history lists \(notes.count) check-ins but counts \(total)")
        #expect(Set(notes).count == notes.count, "a check-in is listed twice")
        #expect(acknowledged.isSubset(of: Set(notes)), "lost acknowledged: \(acknowledged.subtracting(notes).sorted())")
        #expect(total - baseline >= acknowledged.count && total - baseline <= acknowledged.count + killed.count)
        #expect(Set(notes.filter { $0.hasPrefix("K") }).isSubset(of: acknowledged.union(killed)))

        // No lock is left held, and the next write that is not a check-in (cron's delivery run)
        // sweeps what the killed writers left.
        let after = home.run(["checkin", "--note", "after"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"])
        #expect(after.code == 0, "\(after.stderr)")
        let deliver = home.run(["notify", "deliver"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"])
        #expect([0, 3].contains(deliver.code), "\(deliver.stderr)")
        expectPrivateAndClean(home.path, includingRoot: false)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs util-linux flock"))
    func heldLockTimesOutWithTryAgain() throws {
        let fixture = try ReliabilityFixture.make()
        let home = fixture.home
        let lock = home.path + "/lock"
        // `flock FILE sleep 10` would leave the lock with the forked `sleep` once flock is
        // killed; locking an fd and exec-ing keeps it in one process that SIGKILL releases.
        let holder = try SpawnedRun(
            ["-c", "exec 9>>\"$0\" && flock -x 9 && exec sleep 10", lock], environment: ["PATH": "/usr/bin:/bin"],
            executable: "/bin/sh")
        defer {
            holder.kill(SIGKILL)
            _ = holder.wait(timeout: 5)
        }
        try #require(waitUntilLocked(lock, timeout: 5), "flock never took \(lock)")
        let before = StoreSnapshot(home.path)

        let run = try SpawnedRun(
            ["checkin"], environment: lifesignalEnvironment(home, ["LIFESIGNAL_LOCK_TIMEOUT": "1"])
        ).wait(timeout: 15)
        #expect(run.code == 75, "\(run.code) \(run.stderr)")
        #expect(run.seconds >= 0.9 && run.seconds < 4, "waited \(run.seconds)s for a 1s timeout")
        #expect(run.stderr.contains(lock), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was recorded"), "\(run.stderr)")
        #expect(StoreSnapshot(home.path) == before)

        // Readers need no lock: status answers at once while the lock is held.
        let status = try SpawnedRun(["checkin", "status"], environment: lifesignalEnvironment(home)).wait(timeout: 15)
        #expect(status.code == 0, "\(status.stderr)")
        #expect(status.seconds < 2)

        let immediate = home.run(["checkin"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "0"])
        #expect(immediate.code == 75)
        #expect(StoreSnapshot(home.path) == before)

        holder.kill(SIGKILL)
        _ = holder.wait(timeout: 5)
        #expect(home.run(["checkin"], environment: ["LIFESIGNAL_LOCK_TIMEOUT": "1"]).code == 0)
    }

    /// A umask of 000 (a careless cron or shell) must not make anything readable by others.
    @Test func filesArePrivateWhateverTheUmask() throws {
        let home = TempHome()
        let data = home.path + "/data"
        var environment = lifesignalEnvironment(home)
        environment["LIFESIGNAL_HOME"] = data
        func checkinWithOpenUmask(_ now: String) throws {
            environment["LIFESIGNAL_NOW"] = now
            let run = try SpawnedRun(
                ["-c", "umask 000; exec \"$0\" checkin", Binary.path], environment: environment, executable: "/bin/sh"
            ).wait(timeout: 30)
            #expect(run.code == 0, "\(run.stderr)")
        }
        try checkinWithOpenUmask("2026-02-28T09:00:00Z")
        try checkinWithOpenUmask("2026-03-01T09:00:00Z")
        expectPrivateAndClean(data, includingRoot: true)
        let snapshot = StoreSnapshot(data)
        #expect(snapshot.entries.keys.contains { $0.hasSuffix("/log.json.bak") })
        #expect(snapshot.entries.keys.contains { $0.hasSuffix("/lock") })
    }

    /// Temporary files exist only while a writer holds the lock, so any found after taking it
    /// are a killed writer's: every folder a save writes in is swept, the archive included, by
    /// the next write that is not a check-in (cron's delivery run).
    @Test func staleTemporaryFilesAreSweptEverywhereAWriterWrites() throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        let stale = [
            fixture.home.path + "/.identity.json.tmp.999999.1",
            fixture.deviceDirectory + "/.log.json.tmp.999999.2",
            fixture.archiveDirectory + "/.000000000001-000000000151-1772248860.json.tmp.999999.3",
        ]
        for path in stale { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        let run = fixture.home.run(["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(stale.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "a check-in leaves them")
        let deliver = fixture.home.run(["notify", "deliver"], now: "2026-03-01T10:00:00Z")
        #expect([0, 3].contains(deliver.code), "\(deliver.stderr)")
        for path in stale { #expect(!FileManager.default.fileExists(atPath: path), "left behind: \(path)") }
    }

    // MARK: - Helpers

    /// The notes of every check-in in the history (which reads archive segments too), after
    /// checking the listed count and the folded total agree with `expectedTotal`.
    private func historyNotes(_ home: TempHome, expectedTotal: Int, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [String]
    {
        let history = home.run(["checkin", "history", "--limit", "1000", "--json"])
        #expect(history.code == 0, "\(history.stderr)", sourceLocation: sourceLocation)
        let json = jsonObject(history.stdout, sourceLocation: sourceLocation)
        #expect(json["total"] as? Int == expectedTotal, sourceLocation: sourceLocation)
        let checkIns = json["checkIns"] as? [[String: Any]] ?? []
        #expect(checkIns.count == expectedTotal, "history lists \(checkIns.count)", sourceLocation: sourceLocation)
        let notes = checkIns.compactMap { $0["note"] as? String }
        #expect(Set(notes).count == notes.count, "a note is listed twice", sourceLocation: sourceLocation)
        return notes
    }

    /// Directories 0700, files 0600, nothing but files and directories, no temporary files.
    private func expectPrivateAndClean(
        _ root: String, includingRoot: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var entries = StoreSnapshot(root).entries
        if includingRoot {
            var info = stat()
            #expect(
                lstat(root, &info) == 0 && info.st_mode & 0o7777 == 0o700, "\(root) is not 0700",
                sourceLocation: sourceLocation)
            entries[root] = nil
        }
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            #expect(
                !ReliabilityPath.last(path).contains(".tmp"), "temporary file left: \(path)",
                sourceLocation: sourceLocation)
            switch entry.kind {
            case "directory":
                #expect(
                    entry.mode == 0o700, "\(path) is \(String(entry.mode, radix: 8))", sourceLocation: sourceLocation)
            case "file":
                #expect(
                    entry.mode == 0o600, "\(path) is \(String(entry.mode, radix: 8))", sourceLocation: sourceLocation)
            default: Issue.record("unexpected \(entry.kind) at \(path)", sourceLocation: sourceLocation)
            }
        }
    }

    /// True once another process holds an exclusive flock on `path`.
    private func waitUntilLocked(_ path: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let fd = open(path, O_RDWR | O_CLOEXEC)
            if fd >= 0 {
                let held = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
                close(fd)
                if held { return true }
            }
            usleep(10_000)
        }
        return false
    }
}
