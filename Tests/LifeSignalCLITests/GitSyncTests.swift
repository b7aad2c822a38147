import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `circle sync` with real git: a bare repository as the remote and a clone per machine, each
// machine's data directory using its clone as the circle.

/// Machines sharing a circle through one bare remote.
final class GitCircle {
    let root = TempHome()
    var remote: String { root.path + "/remote.git" }
    static let git = DeliveryTools.which("git")

    init() {
        _ = Self.run(["init", "-q", "--bare", remote])
    }

    @discardableResult
    static func run(_ arguments: [String], in directory: String? = nil) -> Run {
        let line =
            (directory.map { ["-C", $0] } ?? []) + ["-c", "user.name=Test", "-c", "user.email=test@example.org"]
            + arguments
        return lifesignal(
            line, environment: DeliveryTools.environment(home: nil, ["GIT_TERMINAL_PROMPT": "0"]),
            executable: git ?? "/usr/bin/git")
    }

    func clone(_ name: String) -> String {
        let path = root.path + "/" + name
        Self.run(["clone", "-q", remote, path])
        return path
    }

    /// lifesignal as `person`, whose data directory is `<root>/<person>-data`.
    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String = "2026-03-01T09:00:00Z") -> Run {
        var environment = DeliveryTools.environment(
            home: root.path,
            ["LIFESIGNAL_HOME": "\(root.path)/\(person)-data", "LIFESIGNAL_NOW": now, "TZ": "UTC"])
        environment["PATH"] = DeliveryTests.path()
        return lifesignal(arguments, environment: environment)
    }

    /// Every folder and file under `path` whose mode lets others read, write or enter it.
    static func openToOthers(_ path: String) -> [String] {
        var found: [String] = []
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & 0o007 != 0 { found.append(path) }
        let members = path + "/members"
        for item in FileManager.default.enumerator(atPath: members)?.compactMap({ $0 as? String }) ?? [] {
            let full = members + "/" + item
            if lstat(full, &info) == 0, info.st_mode & 0o007 != 0 { found.append(full) }
        }
        return found
    }
}

@Suite(.integration, .enabled(if: GitCircle.git != nil, DeliveryTools.missing("git")))
struct GitSyncTests {
    /// Ana and Bea, each on a clone; Ana watches over Bea; both synced once.
    static func anaAndBea() -> (circle: GitCircle, a: String, b: String) {
        let circle = GitCircle()
        let (a, b) = (circle.clone("a"), circle.clone("b"))
        #expect(circle.run("ana", ["init", "--name", "Ana", "--circle", a, "--quiet"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: a + "/.gitignore"), "init writes the ignore patterns at once")
        // Every private file of a data directory (should one lie in the folder) is among them.
        let ignored = Set(
            ((try? String(contentsOfFile: a + "/.gitignore", encoding: .utf8)) ?? "").split(separator: "\n"))
        for name in ["cache.bin", "cache-circle.bin", "cache-linked.bin", "lock", "health.json"] {
            #expect(ignored.contains(Substring(name)), "\(name) is not in .gitignore")
        }
        #expect(circle.run("ana", ["checkin", "--quiet"]).code == 0)
        let first = circle.run("ana", ["circle", "sync", "--json"])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(jsonObject(first.stdout)["bootstrapped"] as? Bool == true, "the empty remote gets its first commit")
        #expect(circle.run("bea", ["init", "--name", "Bea", "--circle", b, "--quiet"]).code == 0)
        #expect(circle.run("bea", ["checkin", "--quiet"]).code == 0)
        #expect(circle.run("bea", ["circle", "sync"]).code == 0)
        #expect(circle.run("ana", ["circle", "sync"]).code == 0)
        let code = circle.run("bea", ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(circle.run("ana", ["contacts", "add", code, "--dependent", "--quiet"]).code == 0)
        for person in ["ana", "bea", "ana"] { circle.run(person, ["circle", "sync"]) }
        // Each copy's spare (the version before last, see Posix.replaceCopy) stays on its machine.
        let anaFolder = anaLog(in: b).map { "/members/" + ($0 as NSString).deletingLastPathComponent } ?? "/none"
        let arrived = (try? FileManager.default.contentsOfDirectory(atPath: b + anaFolder)) ?? []
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: a + anaFolder)) ?? []
        #expect(kept.contains("log.json.bak") && arrived.contains("log.json") && !arrived.contains("log.json.bak"))
        return (circle, a, b)
    }

    /// Ana's log.json in a clone, relative to its members/ folder.
    static func anaLog(in clone: String) -> String? {
        FileManager.default.enumerator(atPath: clone + "/members")?.compactMap { $0 as? String }.first {
            $0.hasSuffix("log.json")
                && (try? String(contentsOfFile: clone + "/members/" + $0, encoding: .utf8))?.contains("\"Ana\"") == true
        }
    }

    @Test func twoClonesOfAnEmptyRemoteShareACircleQuietlyAndPrivately() throws {
        let (circle, a, b) = Self.anaAndBea()
        #expect(circle.run("bea", ["contacts", "list"]).stdout.contains("Ana   Responder"))
        #expect(circle.run("ana", ["contacts", "list"]).stdout.contains("Bea   Dependent"))
        // Nothing to do: silent and 0, as cron wants it.
        let idle = circle.run("ana", ["circle", "sync"])
        #expect(idle.code == 0 && idle.stdout.isEmpty && idle.stderr.isEmpty, "\(idle.stderr)")
        // The ignore file was the first commit, before any record; no backup or temporary
        // file was ever committed.
        let first = GitCircle.run(["log", "--reverse", "--format=%H"], in: a).stdout.split(separator: "\n").first
        let files = GitCircle.run(["show", "--name-only", "--format=", String(first ?? "")], in: a).stdout
        #expect(files == ".gitignore\n")
        let everything = GitCircle.run(["log", "--all", "--name-only", "--format="], in: b).stdout
        #expect(!everything.contains(".bak") && !everything.contains(".tmp"), "\(everything)")
        // git checked the other's records out readable by everyone; sync closed them again.
        #expect(GitCircle.openToOthers(a).isEmpty, "\(GitCircle.openToOthers(a))")
        #expect(GitCircle.openToOthers(b).isEmpty, "\(GitCircle.openToOthers(b))")
        // A missed check-in of Bea's reaches Ana's machine through the remote.
        circle.run("bea", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z")
        circle.run("bea", ["circle", "sync"], now: "2026-03-02T08:00:00Z")
        circle.run("ana", ["circle", "sync"], now: "2026-03-03T09:00:00Z")
        let status = circle.run("ana", ["status"], now: "2026-03-03T09:00:00Z")
        #expect(status.code == 6, "\(status.stdout)")
    }

    @Test func aRemoteCommitThatChangedMyOwnRecordsIsReportedAndUndone() throws {
        let (circle, a, b) = Self.anaAndBea()
        // On Bea's clone, up to date, someone rewrites Ana's log and pushes it.
        #expect(circle.run("bea", ["circle", "sync"]).code == 0)
        let anaLog = try #require(Self.anaLog(in: b))
        let good = try String(contentsOfFile: a + "/members/" + anaLog, encoding: .utf8)
        try Data("{ not a log".utf8).write(to: URL(fileURLWithPath: b + "/members/" + anaLog))
        #expect(GitCircle.run(["commit", "-qam", "tamper"], in: b).code == 0)
        #expect(GitCircle.run(["push", "-q", "origin", "HEAD"], in: b).code == 0)
        let synced = circle.run("ana", ["circle", "sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("had changed this device's own records"), "\(synced.stderr)")
        #expect(try String(contentsOfFile: a + "/members/" + anaLog, encoding: .utf8) == good)
        // And the good copy went back to the remote for everyone.
        circle.run("bea", ["circle", "sync"])
        #expect(try String(contentsOfFile: b + "/members/" + anaLog, encoding: .utf8) == good)
    }

    /// A file a remote commit added to this device's own folder (force-added past .gitignore,
    /// here a folder in place of a backup's name, where this device writes) is removed, not
    /// kept beside the records put back.
    @Test func aFileARemoteCommitAddedToMyOwnFolderIsRemoved() throws {
        let (circle, a, b) = Self.anaAndBea()
        #expect(circle.run("bea", ["circle", "sync"]).code == 0)
        let anaLog = try #require(Self.anaLog(in: b))
        let planted = "members/" + anaLog + ".bak/x"
        try FileManager.default.createDirectory(
            atPath: b + "/members/" + anaLog + ".bak", withIntermediateDirectories: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: b + "/" + planted))
        #expect(GitCircle.run(["add", "-f", planted], in: b).code == 0)
        #expect(GitCircle.run(["commit", "-qm", "plant"], in: b).code == 0)
        #expect(GitCircle.run(["push", "-q", "origin", "HEAD"], in: b).code == 0)
        let synced = circle.run("ana", ["circle", "sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("had changed this device's own records"), "\(synced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: a + "/members/" + anaLog + ".bak"))
        #expect(circle.run("ana", ["checkin", "--quiet"]).code == 0)
        circle.run("bea", ["circle", "sync"])
        #expect(!FileManager.default.fileExists(atPath: b + "/" + planted), "the remote still holds it")
    }

    /// A git left running (or crashed) holds the index lock: the message names the lock and the
    /// way out, not git's advice cut into pieces.
    @Test func aLockedRepositoryIsNamed() throws {
        let (circle, a, _) = Self.anaAndBea()
        #expect(circle.run("ana", ["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        let lock = a + "/.git/index.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
        let sync = circle.run("ana", ["circle", "sync"], now: "2026-03-01T10:00:00Z")
        #expect(sync.code == 69, "\(sync.stderr)")
        #expect(sync.stderr.contains("the repository is locked by \(lock)"), "\(sync.stderr)")
        #expect(sync.stderr.contains("rm '\(lock)'"), "\(sync.stderr)")
    }

    @Test func aFolderThatIsNoRepositoryIsRefusedWithTheWayToSetItUp() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let run = home.run(["circle", "sync"])
        #expect(run.code == 65)
        #expect(run.stderr.contains("is neither a git work tree nor a Syncthing folder"))
        #expect(run.stderr.contains("git init && git remote add origin URL"))
    }

    /// Check-ins on both machines while each runs `circle sync` again and again, Ana's killed
    /// with SIGKILL at random moments: every acknowledged check-in reaches both clones, and no
    /// clone is ever left in a merge or rebase.
    @Test func killedSyncsAmidCheckInsLoseNothing() throws {
        let (circle, a, b) = Self.anaAndBea()
        var generator = SystemRandomNumberGenerator()
        var acknowledged = ["ana": 1, "bea": 1]
        for round in 0..<10 {
            let now = "2026-03-01T10:\(String(format: "%02d", round)):00Z"
            let sync = Process()
            sync.executableURL = URL(fileURLWithPath: Binary.path)
            sync.arguments = ["circle", "sync", "--quiet"]
            var environment = DeliveryTools.environment(
                home: circle.root.path,
                ["LIFESIGNAL_HOME": "\(circle.root.path)/ana-data", "LIFESIGNAL_NOW": now, "TZ": "UTC"])
            environment["PATH"] = DeliveryTests.path()
            sync.environment = environment
            try sync.run()
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            kill(sync.processIdentifier, SIGKILL)
            sync.waitUntilExit()
            for person in ["ana", "bea"] where circle.run(person, ["checkin", "--quiet"], now: now).code == 0 {
                acknowledged[person, default: 0] += 1
            }
            circle.run("bea", ["circle", "sync", "--quiet"], now: now)
        }
        usleep(300_000)  // a git orphaned by a kill finishes
        for person in ["ana", "bea", "ana", "bea"] {
            let run = circle.run(person, ["circle", "sync"], now: "2026-03-01T11:00:00Z")
            #expect(run.code == 0, "\(person): \(run.stderr)")
        }
        for clone in [a, b] {
            for state in ["MERGE_HEAD", "rebase-merge", "rebase-apply"] {
                #expect(!FileManager.default.fileExists(atPath: clone + "/.git/" + state), "\(clone) left \(state)")
            }
            #expect(GitCircle.openToOthers(clone).isEmpty)
        }
        // Each machine counts every check-in of both.
        for person in ["ana", "bea"] {
            let list = jsonObject(
                circle.run(person, ["contacts", "list", "--json"], now: "2026-03-01T11:00:00Z").stdout)
            let other = (list["contacts"] as? [[String: Any]])?.first
            let mine = jsonObject(
                circle.run(person, ["checkin", "history", "--json"], now: "2026-03-01T11:00:00Z").stdout)
            #expect(mine["total"] as? Int == acknowledged[person], "\(person): \(mine)")
            #expect(other != nil)
        }
        let anaFromBea = jsonObject(circle.run("bea", ["status", "--json"], now: "2026-03-01T11:00:00Z").stdout)
        #expect(anaFromBea["member"] != nil)
    }

    /// The README's git recipe, command for command: clone, init, sync, then its crontab line
    /// run as cron runs it (`/bin/sh -c`, a bare environment).
    @Test func theReadmesGitRecipeWorksAsWritten() throws {
        let readme = ReadmeTests.readme
        let cronLine = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("*/5 ") && $0.contains("circle sync") })
        let command = String(cronLine.split(separator: " ", maxSplits: 5)[5]).replacingOccurrences(
            of: "/usr/local/bin/lifesignal", with: Binary.path)
        let circle = GitCircle()
        let clone = circle.clone("family-circle")
        #expect(circle.run("ana", ["init", "--name", "Ana", "--circle", clone]).code == 0)
        #expect(circle.run("ana", ["circle", "sync"]).code == 0)
        #expect(circle.run("ana", ["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        let cron = lifesignal(
            [
                "-i", "HOME=\(circle.root.path)", "LOGNAME=root", "SHELL=/bin/sh",
                "PATH=/usr/local/bin:/usr/bin:/bin", "LIFESIGNAL_HOME=\(circle.root.path)/ana-data",
                "LIFESIGNAL_NOW=2026-03-01T10:05:00Z", "TZ=UTC", "/bin/sh", "-c", command,
            ],
            environment: [:], executable: "/usr/bin/env")
        #expect(cron.code == 0, "\(cron.stderr)")
        #expect(cron.stdout.isEmpty && cron.stderr.isEmpty, "cron mails nothing when all is well: \(cron.stderr)")
        let other = circle.clone("other")
        let files = GitCircle.run(["ls-files"], in: other).stdout
        #expect(files.contains("/log.json") && files.contains(".gitignore"))
    }
}
