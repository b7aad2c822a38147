import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Members sharing one circle folder, each with their own data directory: the people of the
/// attacks below. Mal has write access to the folder (his own laptop, a compromised one, or the
/// git host) and edits what lies there; the others only run lifesignal.
struct Family {
    let root = TempHome()
    var circle: String { root.path + "/circle" }
    static let t0 = "2026-03-01T09:00:00Z"

    func home(_ person: String) -> String { "\(root.path)/\(person)" }

    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String = Family.t0, stdin: String? = nil) -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": home(person), "LIFESIGNAL_NOW": now, "TZ": "UTC", "COLUMNS": "80",
                "PATH": "/usr/bin:/bin", "HOME": root.path,
            ], stdin: stdin)
    }

    func join(_ people: String...) {
        for person in people {
            let run = run(person, ["init", "--name", person.capitalized, "--circle", circle, "--quiet"])
            #expect(run.code == 0, "\(person): \(run.stderr)")
        }
    }

    func code(_ person: String) -> String {
        run(person, ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `person`'s member and device ids.
    func identity(_ person: String) -> (member: String, device: String) {
        let data = FileManager.default.contents(atPath: home(person) + "/identity.json") ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (object["member"] as? String ?? "", object["device"] as? String ?? "")
    }

    func deviceFolder(_ person: String) -> String {
        let (member, device) = identity(person)
        return "\(circle)/members/\(member)/\(device)"
    }

    /// The copy of `person`'s log in the circle, as JSON to edit, written back with `change`
    /// applied: signed by `person`'s own device (what their device can write, whatever it is),
    /// or with `signed` false not signed at all (what anyone else who can write the folder can do).
    func editPublishedLog(_ person: String, signed: Bool = true, _ change: (inout [String: Any]) -> Void) throws {
        try editLog(at: deviceFolder(person) + "/log.json", signedBy: signed ? person : nil, change)
    }

    /// The log at `path`, written back with `change` applied, signed by `signer`'s device.
    func editLog(at path: String, signedBy signer: String?, _ change: (inout [String: Any]) -> Void) throws {
        var log = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        change(&log)
        if let signer {
            try SignedLogWriter.write(log, to: path, key: SignedLogWriter.key(in: home(signer)))
        } else {
            try JSONSerialization.data(withJSONObject: log).write(to: URL(fileURLWithPath: path))
        }
    }

    /// `person`'s one member contact as their `contacts list --json` shows it at `now`: its
    /// status's kind and the time of its last check-in.
    func memberContact(as person: String, now: String) -> (kind: String?, lastCheckIn: String?) {
        let contacts = jsonObject(run(person, ["contacts", "list", "--json"], now: now).stdout)["contacts"]
        let member = (contacts as? [[String: Any]] ?? []).first { $0["kind"] as? String == "member" }
        let status = member?["status"] as? [String: Any]
        let last = (status?["checkIn"] as? [String: Any])?["lastCheckIn"] as? [String: Any]
        return (status?["kind"] as? String, last?["at"] as? String)
    }

    /// Whether `person`'s reads give the same answer from their caches as from a full read of
    /// the logs: each command run with the caches the last run left, then with none (what a
    /// full read finds; verified.bin is what was verified, not a cache, and stays).
    func cachedReadsMatchFullReads(
        _ person: String, now: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reads = [["status", "--json"], ["contacts", "list", "--json"], ["circle", "devices", "--json"]]
        for arguments in reads {
            let cached = run(person, arguments, now: now)
            for file in ["cache.bin", "cache-circle.bin", "cache-linked.bin"] {
                try? FileManager.default.removeItem(atPath: home(person) + "/" + file)
            }
            let full = run(person, arguments, now: now)
            #expect(cached.stdout == full.stdout, "\(arguments)", sourceLocation: sourceLocation)
            #expect(cached.stderr == full.stderr, "\(arguments)", sourceLocation: sourceLocation)
            #expect(cached.code == full.code, "\(arguments)", sourceLocation: sourceLocation)
        }
    }

    static func appending(_ entry: [String: Any], to key: String, in state: inout [String: Any]) {
        var list = state[key] as? [[String: Any]] ?? []
        list.append(entry)
        state[key] = list
    }

    static func stamp(_ at: String, clock: Int = 999, seq: Int = 1) -> [String: Any] {
        ["at": at, "clock": clock, "seq": seq]
    }
}

/// A circle peer can only be ignored: nothing a member's records say crosses into another
/// member's life — no command runs, no fact of someone else's changes, no check-in or delivery
/// is stopped — and whatever a log claims beyond its own member is left out and reported.
@Suite struct PeerTests {
    let family = Family()

    /// Mal adds, in his own log, an external contact "of Ana's" whose channel is a command.
    /// Ana's delivery of her missed check-in never runs it: the contact is not believed, and a
    /// command channel runs only on the device that set it anyway.
    @Test func aPeersRecordsNeverRunACommandHere() throws {
        family.join("ana", "mal")
        let ana = family.identity("ana").member
        let pwned = family.root.path + "/PWNED"
        family.root.addResponderFor(family, "ana")
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        try family.editPublishedLog("mal") { log in
            var state = log["state"] as? [String: Any] ?? [:]
            Family.appending(
                [
                    "owner": ana, "id": "0e0e0e0e-0000-4000-8000-00000000e001",
                    "contact": ["name": "Evil", "notify": ["exec:touch \(pwned)"], "email": [], "phone": []],
                ].merging(Family.stamp("2026-03-01T09:05:00Z")) { a, _ in a }, to: "externals", in: &state)
            log["state"] = state
        }
        let deliver = family.run("ana", ["notify", "deliver"], now: "2026-03-02T10:00:00Z")
        #expect(deliver.code == 0, "\(deliver.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pwned), "a peer's record ran a command here")
        let (_, malDevice) = family.identity("mal")
        #expect(deliver.stderr.contains("the records of device \(malDevice)"), "\(deliver.stderr)")
        #expect(deliver.stderr.contains("claim 1 external contact about other members"), "\(deliver.stderr)")
        let json = family.run("ana", ["status", "--json"], now: "2026-03-02T10:00:00Z")
        #expect(json.stderr.contains(#""code":"records-about-others-ignored""#), "\(json.stderr)")
        #expect(!family.run("ana", ["contacts", "list"]).stdout.contains("Evil"))
    }

    /// A device folder made under Ana's own member id (not her device) adds a command channel
    /// to her contact: no device of hers signed it, so nothing of it counts — the contact is not
    /// hers, the command never runs — and she is told loudly.
    @Test func aForgedDeviceOfTheSameMemberRunsNoCommandHere() throws {
        family.join("ana")
        let (ana, device) = family.identity("ana")
        let pwned = family.root.path + "/PWNED"
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        let forged = "\(family.circle)/members/\(ana)/0f0f0f0f-0000-4000-8000-00000000f001"
        try FileManager.default.createDirectory(atPath: forged, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: family.deviceFolder("ana") + "/log.json", encoding: .utf8)
            .replacingOccurrences(of: device, with: "0f0f0f0f-0000-4000-8000-00000000f001")
        try Data(text.utf8).write(to: URL(fileURLWithPath: forged + "/log.json"))
        try family.editLog(at: forged + "/log.json", signedBy: nil) { log in
            var state = log["state"] as? [String: Any] ?? [:]
            Family.appending(
                [
                    "owner": ana, "id": "0e0e0e0e-0000-4000-8000-00000000e002",
                    "contact": ["name": "Sam", "notify": ["exec:touch \(pwned)"], "email": [], "phone": []],
                ].merging(Family.stamp("2026-03-01T09:05:00Z")) { a, _ in a }, to: "externals", in: &state)
            log["state"] = state
        }
        let deliver = family.run("ana", ["notify", "deliver"], now: "2026-03-02T10:00:00Z")
        #expect(deliver.code == 0 || deliver.code == 75, "\(deliver.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pwned), "a forged device's command ran here")
        #expect(
            deliver.stderr.contains("a device that is not yours claims to be you: \(forged)/log.json"),
            "\(deliver.stderr)")
        #expect(!family.run("ana", ["contacts", "list"]).stdout.contains("Sam"))
        #expect(family.run("ana", ["status"], now: "2026-03-02T10:00:00Z").code == 6)
    }

    /// Over git: a pushed folder under Ana's member id, taken by `circle sync`, does not make
    /// her next delivery run its command.
    @Test(.integration, .enabled(if: DeliveryTools.which("git") != nil, DeliveryTools.missing("git")))
    func aPushedForgedDeviceRunsNoCommandAfterASync() throws {
        let remote = family.root.path + "/remote.git"
        let git = { (arguments: [String], directory: String) -> Run in
            spawn(
                ["-C", directory] + arguments,
                environment: ["PATH": "/usr/bin:/bin", "HOME": family.root.path, "GIT_TERMINAL_PROMPT": "0"],
                executable: DeliveryTools.which("git") ?? "/usr/bin/git")
        }
        #expect(git(["init", "-q", "--bare", remote], family.root.path).code == 0)
        #expect(git(["clone", "-q", remote, family.circle], family.root.path).code == 0)
        family.join("ana")
        let (ana, device) = family.identity("ana")
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        #expect(family.run("ana", ["circle", "sync"]).code == 0)
        // Mal, with push access, clones and pushes a device folder under Ana's member id.
        let mal = family.root.path + "/mal-clone"
        #expect(git(["clone", "-q", remote, mal], family.root.path).code == 0)
        let forged = "members/\(ana)/0f0f0f0f-0000-4000-8000-00000000f003"
        try FileManager.default.createDirectory(atPath: mal + "/" + forged, withIntermediateDirectories: true)
        let pwned = family.root.path + "/PWNED"
        let text = try String(contentsOfFile: "\(mal)/members/\(ana)/\(device)/log.json", encoding: .utf8)
            .replacingOccurrences(of: device, with: "0f0f0f0f-0000-4000-8000-00000000f003")
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(mal)/\(forged)/log.json"))
        try family.editLog(at: "\(mal)/\(forged)/log.json", signedBy: nil) { log in
            var state = log["state"] as? [String: Any] ?? [:]
            Family.appending(
                [
                    "owner": ana, "id": "0e0e0e0e-0000-4000-8000-00000000e003",
                    "contact": ["name": "Sam", "notify": ["exec:touch \(pwned)"], "email": [], "phone": []],
                ].merging(Family.stamp("2026-03-01T09:05:00Z")) { a, _ in a }, to: "externals", in: &state)
            log["state"] = state
        }
        #expect(git(["add", "-A"], mal).code == 0)
        #expect(git(["-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qm", "forged"], mal).code == 0)
        #expect(git(["push", "-q", "origin", "HEAD"], mal).code == 0)
        let sync = family.run("ana", ["circle", "sync"])
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(family.circle)/\(forged)/log.json"))
        _ = family.run("ana", ["notify", "deliver"], now: "2026-03-02T10:00:00Z")
        #expect(!FileManager.default.fileExists(atPath: pwned), "a pushed folder's command ran here")
    }

    /// A relation between Ana and Bea, written by Mal, does not unlink them; an
    /// acknowledgement "by Ana" in Mal's log does not stop Bea's escalation, and nobody reads
    /// "Ana is on it".
    @Test func aPeerCannotChangeFactsThatBelongToOthers() throws {
        family.join("ana", "bea", "mal")
        let (ana, _) = family.identity("ana")
        let (bea, _) = family.identity("bea")
        let told = family.root.path + "/sam.log"
        #expect(family.run("ana", ["contacts", "add", family.code("bea"), "--dependent", "--quiet"]).code == 0)
        #expect(
            family.run(
                "bea", ["contacts", "add", "Sam", "--responder", "--notify", "exec:cat >> \(told)", "--quiet"]
            ).code == 0)
        #expect(family.run("bea", ["contacts", "edit", "Sam", "--tier", "2", "--quiet"]).code == 0)
        #expect(family.run("bea", ["checkin", "--quiet"]).code == 0)
        // Mal unlinks Ana and Bea, and acknowledges Bea's coming miss in Ana's name.
        let deadline = Int64(1_772_355_600 + 86_400)
        try family.editPublishedLog("mal") { log in
            var state = log["state"] as? [String: Any] ?? [:]
            let (low, high) = ana < bea ? (ana, bea) : (bea, ana)
            Family.appending(
                ["low": low, "high": high, "roles": NSNull()].merging(Family.stamp("2026-03-01T09:10:00Z")) { a, _ in a
                },
                to: "relations", in: &state)
            Family.appending(
                ["thread": "deadline|\(bea)|\(deadline)", "by": ana].merging(Family.stamp("2026-03-02T09:05:00Z")) {
                    a, _ in a
                }, to: "acknowledgements", in: &state)
            log["state"] = state
        }
        #expect(family.run("ana", ["contacts", "list"]).stdout.contains("Bea   Dependent"))
        let anaFeed = family.run("ana", ["notify", "list", "--all"]).stdout
        #expect(!anaFeed.contains("no longer linked"), "\(anaFeed)")
        // Tier 2 (Sam) is due an hour after tier 1: nobody acknowledged, so Sam is told.
        let deliver = family.run("bea", ["notify", "deliver"], now: "2026-03-02T10:01:00Z")
        #expect(deliver.code == 0, "\(deliver.stderr)")
        let sent = (try? String(contentsOfFile: told, encoding: .utf8)) ?? ""
        #expect(sent.contains("receive_non_responsive_dependent_alert"), "Sam was not told: \(sent)")
        let beaFeed = family.run("bea", ["notify", "list", "--all"], now: "2026-03-02T10:01:00Z").stdout
        #expect(!beaFeed.contains("is on it"), "\(beaFeed)")
        #expect(deliver.stderr.contains("claim 1 relation, 1 acknowledgement about other members"), "\(deliver.stderr)")
    }

    /// A "ping" from someone who does not watch over Ana is nobody's: she is not asked.
    @Test func aStrangersPingAsksNothing() throws {
        family.join("ana", "mal")
        let ana = family.identity("ana").member
        let mal = family.identity("mal").member
        try family.editPublishedLog("mal") { log in
            var state = log["state"] as? [String: Any] ?? [:]
            Family.appending(
                [
                    "id": "0a0a0a0a-0000-4000-8000-00000000a001", "from": mal, "to": ana,
                    "sent": Family.stamp("2026-03-01T09:05:00Z"), "end": NSNull(),
                ], to: "pings", in: &state)
            log["state"] = state
        }
        let list = family.run("ana", ["ping", "list"], now: "2026-03-01T09:10:00Z")
        #expect(list.stdout.contains("No pings waiting for your answer."), "\(list.stdout)")
        let feed = family.run("ana", ["notify", "list", "--all"], now: "2026-03-01T09:10:00Z").stdout
        #expect(!feed.contains("has sent you a ping"), "\(feed)")
    }

    /// Four check-ins stamped a year ahead (a clock a year fast, a "what if" run), then real
    /// ones: the real ones count; the switch is never disarmed.
    @Test func checkInsStampedAheadNeverHideALaterRealOne() throws {
        let home = TempHome()
        for day in 1...4 { #expect(home.run(["checkin", "--quiet"], now: "2027-03-0\(day)T09:00:00Z").code == 0) }
        #expect(home.run(["checkin", "--quiet"], now: Family.t0).code == 0)
        let status = jsonObject(home.run(["status", "--json"], now: "2026-03-01T10:00:00Z").stdout)
        let checkIn = status["checkIn"] as? [String: Any] ?? [:]
        #expect(checkIn["deadline"] as? String == "2026-03-02T09:00:00Z", "\(checkIn)")
        #expect(home.run(["status", "--quiet"], now: "2026-03-02T10:00:00Z").code == 4)
        // Another real check-in a day later moves the deadline on, whatever the clock of the reader.
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-02T10:00:00Z").code == 0)
        let later = jsonObject(home.run(["status", "--json"], now: "2026-03-02T11:00:00Z").stdout)
        #expect((later["checkIn"] as? [String: Any])?["deadline"] as? String == "2026-03-03T10:00:00Z")
    }

    /// Mal sets his log's clock to the largest a reader accepts: Ana's writes stay within it,
    /// and every command of hers keeps working.
    @Test func aPeersClockAtTheLimitStopsNobody() throws {
        family.join("ana", "mal")
        try family.editPublishedLog("mal") { $0["clock"] = 9_007_199_254_740_992 }
        for _ in 0..<3 {
            let checkin = family.run("ana", ["checkin", "--quiet"])
            #expect(checkin.code == 0, "\(checkin.stderr)")
        }
        #expect(family.run("ana", ["status", "--quiet"]).code == 0)
        #expect(family.run("ana", ["notify", "deliver"]).code == 0)
    }

    /// A 40 GiB (sparse) log in Mal's folder is refused unread, with its size in the warning:
    /// every command of Ana's still works, without allocating it.
    @Test func aHugeLogIsRefusedUnread() throws {
        family.join("ana", "mal")
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: family.deviceFolder("mal") + "/log.json"))
        try log.truncate(atOffset: 40 << 30)
        try log.close()
        let checkin = family.run("ana", ["checkin"])
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(
            checkin.stderr.contains("it is 40 GiB, over the 8 MiB such a lifesignal file may hold"), "\(checkin.stderr)"
        )
        #expect(family.run("ana", ["status", "--quiet"]).code == 0)
        #expect(family.run("ana", ["notify", "deliver"]).code == 0)
        #expect(family.run("ana", ["checkin", "history", "--json"]).code == 0)
    }

    /// Junk in the circle's copy of Ana's feed, before she ever wrote one, is not hers: her
    /// delivery and status go on.
    @Test func junkInTheCirclesCopyOfAFeedNeverWrittenStopsNothing() throws {
        family.join("ana")
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: family.deviceFolder("ana") + "/feed.json"))
        let deliver = family.run("ana", ["notify", "deliver"], now: "2026-03-02T08:40:00Z")
        #expect(deliver.code == 0, "\(deliver.stderr)")
        #expect(family.run("ana", ["status"], now: "2026-03-02T08:41:00Z").code == 3)
        #expect(
            family.run("ana", ["notify", "list"], now: "2026-03-02T08:41:00Z").stdout.contains("Check-in Reminder"))
    }

    /// A raised clock in the circle's copy of Ana's own log: her own copy is the authority.
    @Test func anEditedCircleCopyOfMyLogDoesNotStopMe() throws {
        family.join("ana")
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        try family.editPublishedLog("ana", signed: false) { $0["clock"] = 9_000_000 }
        let checkin = family.run("ana", ["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("is not this machine's"), "\(checkin.stderr)")
        #expect(
            FileManager.default.contents(atPath: family.deviceFolder("ana") + "/log.json")
                == FileManager.default.contents(atPath: family.home("ana") + "/own/log.json"))
    }

    /// Ana's device folder replaced by a link to a folder elsewhere: nothing is written through
    /// it; the link gives way to a real folder, and she is told.
    @Test func aLinkInPlaceOfMyDeviceFolderIsNeverWrittenThrough() throws {
        family.join("ana")
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        let folder = family.deviceFolder("ana")
        let elsewhere = family.root.path + "/elsewhere"
        try FileManager.default.moveItem(atPath: folder, toPath: elsewhere)
        let before = FileManager.default.contents(atPath: elsewhere + "/log.json")
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
        let status = family.run("ana", ["status"])
        #expect(status.stderr.contains("was a symbolic link or a file"), "\(status.stderr)")
        let checkin = family.run("ana", ["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("was a symbolic link or a file"), "\(checkin.stderr)")
        #expect(FileManager.default.contents(atPath: elsewhere + "/log.json") == before, "written through the link")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        #expect(
            FileManager.default.contents(atPath: folder + "/log.json")
                == FileManager.default.contents(atPath: family.home("ana") + "/own/log.json"))
    }

    /// Another device's folder that is a link is left out and said, never read through.
    @Test func aLinkInPlaceOfAnotherDevicesFolderIsNotRead() throws {
        family.join("ana", "mal")
        let folder = family.deviceFolder("mal")
        let elsewhere = family.root.path + "/elsewhere"
        try FileManager.default.moveItem(atPath: folder, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
        let status = family.run("ana", ["status"])
        #expect(status.code == 0, "\(status.stderr)")
        #expect(status.stderr.contains("\(folder): it is a symbolic link"), "\(status.stderr)")
    }

    /// Bea's folder vanished from the circle: Ana, who watches over her, is told and her status
    /// says someone needs attention — never "no check-in" with exit 0.
    @Test func aDependentWhoseFolderVanishedNeedsAttention() throws {
        family.join("ana", "bea")
        #expect(family.run("ana", ["contacts", "add", family.code("bea"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("bea", ["checkin", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        let (bea, _) = family.identity("bea")
        try FileManager.default.removeItem(atPath: "\(family.circle)/members/\(bea)")
        let status = family.run("ana", ["status"], now: "2026-03-01T10:00:00Z")
        #expect(status.code == 6, "\(status.stderr)")
        #expect(
            status.stderr.contains(
                "\(family.circle)/members/\(bea): the folder of member \(bea), linked with you, is missing"),
            "\(status.stderr)")
    }

    /// A peer's name with a newline cannot make a line of its own in anything lifesignal prints.
    @Test func aNameWithANewlineCannotFakeALine() throws {
        family.join("ana", "bea")
        #expect(family.run("ana", ["contacts", "add", family.code("bea"), "--dependent", "--quiet"]).code == 0)
        try family.editPublishedLog("bea") { log in
            var state = log["state"] as? [String: Any] ?? [:]
            var name = state["name"] as? [String: Any] ?? [:]
            name["value"] = "Bea\nlifesignal: all is well"
            state["name"] = name
            log["state"] = state
        }
        let list = family.run("ana", ["contacts", "list"]).stdout
        #expect(list.contains("Bea^Jlifesignal: all is well"), "\(list)")
        #expect(!list.split(separator: "\n").contains { $0.hasPrefix("lifesignal: all is well") }, "\(list)")
    }

    /// Thousands of unreadable logs would be thousands of lines on every run: a few are named,
    /// the rest counted.
    @Test func manyUnreadableLogsAreSummarised() throws {
        family.join("ana")
        for i in 0..<20 {
            let folder =
                "\(family.circle)/members/0d0d0d0d-0000-4000-8000-\(String(format: "%012d", i))/0c0c0c0c-0000-4000-8000-000000000001"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("{ broken".utf8).write(to: URL(fileURLWithPath: folder + "/log.json"))
        }
        let status = family.run("ana", ["status"])
        let leftOut = status.stderr.split(separator: "\n").filter { $0.contains("left out another device's records") }
        #expect(leftOut.count == 5, "\(status.stderr)")
        #expect(status.stderr.contains("and 15 more of other devices' files cannot be read either"), "\(status.stderr)")
    }

    /// A FIFO where the cache belongs must not hang any command.
    @Test func aFifoAtTheCacheHangsNothing() throws {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        let cache = home.path + "/cache.bin"
        try? FileManager.default.removeItem(atPath: cache)
        #expect(mkfifo(cache, 0o600) == 0)
        #expect(home.run(["status", "--quiet"]).code == 0)
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(home.run(["notify", "deliver"], now: "2026-03-01T10:00:00Z").code == 0)
    }

    /// A circle on a disk that is full: the check-in is saved on this machine and the message
    /// says exactly that — not "nothing was recorded"; once there is room, it is published.
    @Test(.enabled(if: FullDisk.canMount, "needs root to mount a small tmpfs"))
    func aCheckInSavedHereButNotPublishedSaysSo() throws {
        let disk = FullDisk()
        try #require(disk.mounted)
        let circle = disk.mountPoint + "/circle"
        let home = family.home("ana")
        #expect(family.run("ana", ["init", "--name", "Ana", "--circle", circle, "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        disk.dropSpares(in: circle)
        disk.fill()
        let checkin = family.run("ana", ["checkin", "--note", "while full"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 74, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("it was recorded on this machine (\(home)/own)"), "\(checkin.stderr)")
        #expect(checkin.stderr.contains("the people in your circle cannot see it yet"), "\(checkin.stderr)")
        #expect(!checkin.stderr.contains("nothing was recorded"), "\(checkin.stderr)")
        let own = (try? String(contentsOfFile: home + "/own/log.json", encoding: .utf8)) ?? ""
        #expect(own.contains("while full"))
        disk.free()
        let behind = family.run("ana", ["status"], now: "2026-03-01T10:01:00Z").stderr
        #expect(behind.contains("this machine could not write your records into the circle from"), "\(behind)")
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-01T10:02:00Z").code == 0)
        let (member, device) = family.identity("ana")
        let published = try String(contentsOfFile: "\(circle)/members/\(member)/\(device)/log.json", encoding: .utf8)
        #expect(published.contains("while full"))
    }
}

extension TempHome {
    /// Gives `person` of `family` an external responder reached by a command that succeeds.
    func addResponderFor(_ family: Family, _ person: String) {
        family.run(person, ["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
    }
}
