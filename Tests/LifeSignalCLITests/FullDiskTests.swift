import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A data directory on a small tmpfs of its own, filled up: what lifesignal does when the disk
/// is full. Needs root to mount (CI runs as root); skipped with the reason otherwise.
final class FullDisk {
    let mountPoint: String
    let outside = TempHome()
    private(set) var mounted = false

    init() {
        mountPoint = outside.path + "/disk"
        try? FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let run = spawn(
            ["-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", mountPoint], environment: ["PATH": "/usr/bin:/bin"],
            executable: "/bin/mount")
        mounted = run.code == 0
    }

    /// Fills the disk: one file grown until a write fails, then cut by `leaving` bytes.
    func fill(leaving: Int = 0) {
        let fd = open(mountPoint + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let block = [UInt8](repeating: 0, count: 4096)
        var size = 0
        while case let n = block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }), n > 0 { size += n }
        if leaving > 0 { _ = ftruncate(fd, off_t(max(0, size - leaving))) }
        close(fd)
    }

    func free() { unlink(mountPoint + "/filler") }

    /// Removes the spares the circle's copies are written over (`log.json.bak`, `feed.json.bak`
    /// beside each): with them, a full disk can still take a copy no larger than the spare, so a
    /// test of a write the circle refuses drops them first.
    func dropSpares(in circle: String) {
        let names = FileManager.default.enumerator(atPath: circle)?.compactMap { $0 as? String } ?? []
        for name in names where name.hasSuffix(".json.bak") { unlink(circle + "/" + name) }
    }

    /// Mounts the disk read-only (as ext4 does itself after an error) or writable again.
    func remount(readOnly: Bool) {
        let run = spawn(
            ["-o", readOnly ? "remount,ro" : "remount,rw", mountPoint], environment: ["PATH": "/usr/bin:/bin"],
            executable: "/bin/mount")
        #expect(run.code == 0, "\(run.stderr)")
    }

    /// Runs lifesignal with `home` as its data directory, as cron would (a bare PATH, UTC).
    func run(_ arguments: [String], home: String, now: String = "2026-03-01T09:00:00Z") -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": home, "LIFESIGNAL_NOW": now, "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": home,
            ])
    }

    deinit {
        if mounted {
            _ = spawn(["-l", mountPoint], environment: ["PATH": "/usr/bin:/bin"], executable: "/bin/umount")
        }
    }

    static let canMount: Bool = {
        let probe = FullDisk()
        return probe.mounted
    }()
}

@Suite struct FullDiskTests {
    /// Ana's data directory beside the disk and her circle on it, checked in on 2026-03-01 at
    /// 09:00 with a channel of her own that appends what it is sent to `log`.
    static func anaWithCircle(on disk: FullDisk) -> (home: String, circle: String, log: String) {
        let (home, circle) = (disk.outside.path + "/data", disk.mountPoint + "/circle")
        let log = disk.outside.path + "/sent.log"
        for arguments in [
            ["init", "--name", "Ana", "--circle", circle, "--quiet"], ["checkin", "--quiet"],
            ["notify", "prefs", "--channel", "exec:cat >> '\(log)'"],
        ] {
            let run = disk.run(arguments, home: home, now: "2026-03-01T09:00:00Z")
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
        }
        return (home, circle, log)
    }

    /// With the disk full, `notify deliver` still sends what is already due (sending twice
    /// beats not sending), then exits 74 saying so; once the disk is fixed, the next run sends
    /// it again (nothing was recorded) and then stops.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func deliverStillSendsWhatIsDueWhenTheDiskIsFull() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let home = disk.mountPoint + "/data"
        let log = disk.outside.path + "/sent.log"
        func run(_ arguments: [String], now: String) -> Run { disk.run(arguments, home: home, now: now) }
        #expect(run(["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(run(["notify", "prefs", "--channel", "exec:cat >> '\(log)'"], now: "2026-03-01T09:00:00Z").code == 0)
        disk.fill()
        let full = run(["notify", "deliver"], now: "2026-03-02T08:40:00Z")
        #expect(full.code == 74, "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        // Whether the log still fit in its backup's blocks decides which is said: nothing was
        // recorded (and what was sent), or the log was and its notifications were not.
        #expect(
            full.stderr.contains("Still, 1 notification that was due was sent")
                || full.stderr.contains("it was recorded on this machine, but its notifications could not be written"),
            "\(full.stderr)")
        let sent = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(sent.contains("check_in_reminder"), "the reminder was not sent: \(sent)")

        disk.free()
        // A log recorded here but not in the circle (on the same full disk) is told as this
        // machine's doing once there is room, never as a sync tool's rollback.
        let status = run(["status"], now: "2026-03-02T08:40:30Z")
        #expect(!status.stderr.contains("sync tool"), "\(status.stderr)")
        if full.stderr.contains("its notifications could not be written") {
            // Its copy in the circle went over its spare's blocks, or is said to be behind.
            let copies = FileManager.default.enumerator(atPath: home + "/circle")?.compactMap { $0 as? String }
            let copy = copies?.first { $0.hasSuffix("/log.json") && !$0.contains("/archive/") }
            #expect(
                copy.flatMap { FileManager.default.contents(atPath: home + "/circle/" + $0) }
                    == FileManager.default.contents(atPath: home + "/own/log.json")
                    || status.stderr.contains("this machine could not write your records into the circle from"),
                "\(status.stderr)")
        }
        #expect(run(["notify", "deliver"], now: "2026-03-02T08:41:00Z").code == 0)
        #expect(run(["notify", "deliver"], now: "2026-03-02T08:42:00Z").code == 0)
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 2, "sent once while full, once more after: \(lines)")
    }

    /// The circle on a disk that is full: a check-in's copy still goes in, over the blocks of the
    /// version before last that each copy keeps beside it (`log.json.bak`, never synced).
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func aFullCircleStillTakesACopyOverItsSpare() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let (home, circle, _) = Self.anaWithCircle(on: disk)
        func run(_ arguments: [String], now: String) -> Run { disk.run(arguments, home: home, now: now) }
        #expect(run(["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        let names = FileManager.default.enumerator(atPath: circle)?.compactMap { $0 as? String } ?? []
        let copy = try #require(names.first { $0.hasSuffix("/log.json") && !$0.contains("/archive/") })
        #expect(names.contains(copy + ".bak"), "the version before last is kept beside the copy")
        disk.fill()
        let full = run(["checkin", "--note", "while full"], now: "2026-03-01T11:00:00Z")
        #expect(full.code == 0, "\(full.stderr)")
        let published = try String(contentsOfFile: circle + "/" + copy, encoding: .utf8)
        #expect(published.contains("while full"))
        #expect(
            FileManager.default.contents(atPath: circle + "/" + copy)
                == FileManager.default.contents(atPath: home + "/own/log.json"))
    }

    /// The circle on a disk that is full, this machine's records on another: what is due is
    /// still sent, and recorded here (so not sent again); once there is room, the circle gets it.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func deliverSendsWhatIsDueWhenOnlyTheCircleIsFull() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let (home, circle, log) = Self.anaWithCircle(on: disk)
        func run(_ arguments: [String], now: String) -> Run { disk.run(arguments, home: home, now: now) }
        disk.dropSpares(in: circle)
        disk.fill()
        let full = run(["notify", "deliver"], now: "2026-03-02T08:40:00Z")
        #expect(full.code == 74, "\(full.stderr)")
        #expect(full.stderr.contains("it was recorded on this machine"), "\(full.stderr)")
        let sent = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(sent.contains("check_in_reminder"), "the reminder was not sent: \(sent)")

        // Recorded here: not sent again while the circle stays full, nor after.
        #expect(run(["notify", "deliver"], now: "2026-03-02T08:41:00Z").code == 74)
        disk.free()
        // The copy left behind is told as this machine's doing, with when and why, not as a
        // sync tool's rollback; the next write publishes it, and then nothing is said.
        let behind = run(["status"], now: "2026-03-02T08:41:30Z")
        #expect(
            behind.stderr.contains(
                "this machine could not write your records into the circle from 2026-03-02 08:40 UTC (\(circle)/members/"
            ),
            "\(behind.stderr)")
        #expect(behind.stderr.contains("/log.json: No space left on device), so the circle's copy"), "\(behind.stderr)")
        #expect(!behind.stderr.contains("sync tool"), "\(behind.stderr)")
        let after = run(["notify", "deliver"], now: "2026-03-02T08:42:00Z")
        #expect(after.code == 0, "\(after.stderr)")
        // The feed's copy too, with the delivery made while the circle was full (else another
        // device of Ana's would send the reminder again).
        let feeds = FileManager.default.enumerator(atPath: circle)?.compactMap { $0 as? String }.filter {
            $0.hasSuffix("/feed.json")
        }
        let published = try #require(feeds?.first.flatMap { FileManager.default.contents(atPath: circle + "/" + $0) })
        #expect(
            published == FileManager.default.contents(atPath: home + "/own/feed.json"), "the circle's feed is behind")
        let current = run(["status"], now: "2026-03-02T08:43:00Z")
        #expect(!current.stderr.contains("circle's copy"), "\(current.stderr)")
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 1, "sent once: \(lines)")
    }

    /// This device's folder in the circle removed (by a sync tool) while the circle's disk is
    /// read-only: it cannot be made again, yet what is due is sent and recorded here, and the
    /// folder comes back with the records once the disk can be written.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func deliverSendsWhatIsDueWhenItsCircleFolderIsGoneAndCannotBeMade() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let (home, circle, log) = Self.anaWithCircle(on: disk)
        func run(_ arguments: [String], now: String) -> Run { disk.run(arguments, home: home, now: now) }
        let members = circle + "/members"
        let folders = try FileManager.default.contentsOfDirectory(atPath: members)
        #expect(folders.count == 1, "\(folders)")
        for folder in folders { try FileManager.default.removeItem(atPath: members + "/" + folder) }
        disk.remount(readOnly: true)
        let refused = run(["notify", "deliver"], now: "2026-03-02T08:40:00Z")
        #expect(refused.code == 74, "\(refused.stderr)")
        #expect(refused.stderr.contains("it was recorded on this machine"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
        let sent = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(sent.contains("check_in_reminder"), "the reminder was not sent: \(sent)")

        disk.remount(readOnly: false)
        let after = run(["notify", "deliver"], now: "2026-03-02T08:41:00Z")
        #expect(after.code == 0, "\(after.stderr)")
        let published = FileManager.default.enumerator(atPath: members)?.compactMap { $0 as? String } ?? []
        #expect(published.contains { $0.hasSuffix("/log.json") }, "not published again: \(published)")
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 1, "sent once: \(lines)")
    }

    /// A move into a folder whose disk is full (it takes an empty file, not the records; or
    /// the log and not the feed) is refused as a move, with nothing changed and nothing of this
    /// device left there (a copy left would look, to anyone reading that folder, like a person
    /// who stopped checking in); not told as records "recorded on this machine" that "the next
    /// write publishes", since identity.json still names the old circle.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"), arguments: [0, 4096])
    func aMoveIntoAFullDiskIsRefusedWithNothingChanged(leaving free: Int) throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let home = disk.outside.path + "/data"
        func run(_ arguments: [String], now: String = "2026-03-01T09:00:00Z") -> Run {
            disk.run(arguments, home: home, now: now)
        }
        #expect(run(["checkin", "--note", "before the move", "--quiet"]).code == 0)
        #expect(run(["notify", "deliver"], now: "2026-03-02T08:40:00Z").code == 0)
        let identity = FileManager.default.contents(atPath: home + "/identity.json")
        disk.fill(leaving: free)
        let circle = disk.mountPoint + "/circle"
        let moved = run(["init", "--circle", circle])
        #expect(moved.code == 73, "\(moved.stderr)")
        #expect(moved.stderr.contains("cannot take this device's records"), "\(moved.stderr)")
        #expect(moved.stderr.contains(": No space left on device). Nothing was set up here."), "\(moved.stderr)")
        #expect(!moved.stderr.contains("recorded on this machine"), "\(moved.stderr)")
        let left = FileManager.default.enumerator(atPath: circle)?.compactMap { $0 as? String } ?? []
        #expect(!left.contains { $0.hasPrefix("members") }, "left in the folder: \(left)")
        #expect(FileManager.default.contents(atPath: home + "/identity.json") == identity)
        let status = run(["status", "--json"])
        #expect(jsonObject(status.stdout)["circle"] as? String == home + "/circle", "\(status.stdout)")
        #expect(run(["checkin", "--quiet"]).code == 0)
    }

    /// An alert raised while the circle's disk is full still reaches an external responder at
    /// once, and the person is told the circle is behind.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func anAlertReachesItsResponderWhenTheCircleIsFull() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let home = disk.outside.path + "/data"
        let circle = disk.mountPoint + "/circle"
        let log = disk.outside.path + "/sam.log"
        func run(_ arguments: [String]) -> Run { disk.run(arguments, home: home) }
        #expect(run(["init", "--name", "Ana", "--circle", circle, "--quiet"]).code == 0)
        let sam = ["contacts", "add", "Sam", "--responder", "--notify", "exec:cat >> '\(log)'", "--quiet"]
        #expect(run(sam).code == 0)
        disk.fill()
        let alert = run(["alert", "activate", "--message", "fell on the ice", "--yes"])
        #expect(alert.code == 74, "\(alert.stderr)")
        #expect(alert.stderr.contains("it was recorded on this machine"), "\(alert.stderr)")
        #expect(alert.stdout.contains("Emergency alert activated"), "shown as on any run: \(alert.stdout)")
        let told = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(told.contains("fell on the ice"), "Sam was not told: \(told)")

        // With --json: the result as JSON on stdout, then the error as JSON on stderr.
        let json = run(["checkin", "--json"])
        #expect(json.code == 74, "\(json.stderr)")
        #expect(jsonObject(json.stdout)["checkedIn"] != nil, "\(json.stdout)")
        let error = jsonObject(json.stderr)["error"] as? [String: Any]
        #expect(error?["code"] as? Int == 74, "\(json.stderr)")
        #expect((error?["message"] as? String)?.contains("it was recorded on this machine") == true)
    }
}
