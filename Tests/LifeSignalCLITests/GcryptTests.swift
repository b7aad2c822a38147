import Foundation
import TestSupport
import Testing

// `circle sync` over a remote encrypted with git-remote-gcrypt: real git, real gcrypt, real gpg
// with keys without passphrase, a bare repository as the host's storage (taking forced pushes,
// as any host does), a clone per machine.

/// OpenPGP keys without passphrase for the people of these tests, made once per test run: a
/// keyring per person holding their own secret key and everyone's public key.
enum CircleKeys {
    static let people = ["ana", "bea", "cara"]
    static let gpg = DeliveryTools.which("gpg")
    static let gcrypt = DeliveryTools.which("git-remote-gcrypt")
    static let available = gpg != nil && gcrypt != nil && GitCircle.git != nil

    /// The folder holding `<person>/` keyrings and `<person>.fpr` fingerprints.
    static let folder: String? = {
        guard available else { return nil }
        let root = Scratch.root.appendingPathComponent("lifesignal-keys-\(UUID())").path
        var script = "set -e\n"
        for person in people {
            script += """
                mkdir -m 700 -p '\(root)/\(person)'
                gpg --homedir '\(root)/\(person)' --batch -q --passphrase '' \
                  --quick-gen-key '\(person) <\(person)@example.org>' rsa2048 sign,encr never 2>/dev/null
                gpg --homedir '\(root)/\(person)' --with-colons -K | awk -F: '$1 == "fpr" { print $10; exit }' > '\(root)/\(person).fpr'
                gpg --homedir '\(root)/\(person)' --armor --export > '\(root)/\(person).asc'

                """
        }
        for person in people {
            for other in people where other != person {
                script += "gpg --homedir '\(root)/\(person)' -q --import '\(root)/\(other).asc' 2>/dev/null\n"
            }
            script += "gpgconf --homedir '\(root)/\(person)' --kill gpg-agent\n"
        }
        let run = lifesignal(["-c", script], environment: DeliveryTools.environment(), executable: "/bin/sh")
        return run.code == 0 ? root : nil
    }()

    static func fingerprint(_ person: String) -> String {
        ((try? String(contentsOfFile: (folder ?? "") + "/\(person).fpr", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Machines sharing a circle through one gcrypt remote; each person's keyring is a copy of
/// theirs from `CircleKeys`, and their gpg-agents are ended with the object.
final class GcryptCircle: @unchecked Sendable {
    let root = TempHome()
    var storage: String { root.path + "/host.git" }
    var url: String { "gcrypt::" + storage }

    init() {
        GitCircle.run(["init", "-q", "--bare", storage])
    }

    deinit {
        for person in CircleKeys.people {
            _ = lifesignal(
                ["--homedir", gnupg(person), "--kill", "gpg-agent"], environment: DeliveryTools.environment(),
                executable: "/usr/bin/gpgconf")
        }
    }

    func gnupg(_ person: String) -> String { root.path + "/\(person)-gnupg" }
    func clone(_ person: String) -> String { root.path + "/\(person)" }

    /// `person`'s machine: their keyring, and an empty clone whose remote is the encrypted one,
    /// encrypted to `participants`.
    func machine(_ person: String, participants: [String]) throws {
        try FileManager.default.copyItem(atPath: (CircleKeys.folder ?? "") + "/" + person, toPath: gnupg(person))
        GitCircle.run(["init", "-q", "-b", "main", clone(person)])
        GitCircle.run(["remote", "add", "origin", url], in: clone(person))
        encrypt(person, to: participants)
    }

    func encrypt(_ person: String, to participants: [String]) {
        let keys = participants.map(CircleKeys.fingerprint).joined(separator: " ")
        GitCircle.run(["config", "remote.origin.gcrypt-participants", keys], in: clone(person))
    }

    /// lifesignal as `person` on their machine (their data directory and keyring).
    @discardableResult
    func run(_ person: String, _ arguments: [String], now: String = "2026-03-01T09:00:00Z") -> Run {
        var environment = DeliveryTools.environment(
            home: root.path,
            [
                "LIFESIGNAL_HOME": "\(root.path)/\(person)-data", "LIFESIGNAL_NOW": now, "TZ": "UTC",
                "GNUPGHOME": gnupg(person),
            ])
        environment["PATH"] = DeliveryTests.path()
        return lifesignal(arguments, environment: environment)
    }

    /// Every byte the host holds: its files as stored, and every git object in it unpacked
    /// (git compresses what it stores, so a plain remote's names show only there).
    static func hostBytes(_ bare: String) -> Data {
        var bytes = Data()
        for item in FileManager.default.enumerator(atPath: bare)?.compactMap({ $0 as? String }) ?? [] {
            bytes += FileManager.default.contents(atPath: bare + "/" + item) ?? Data()
        }
        let unpacked = bare + ".objects"
        let run = lifesignal(
            ["-c", "git -C '\(bare)' cat-file --batch-all-objects --batch > '\(unpacked)'"],
            environment: DeliveryTools.environment(), executable: "/bin/sh")
        #expect(run.code == 0, "\(run.stderr)")
        defer { try? FileManager.default.removeItem(atPath: unpacked) }
        return bytes + (FileManager.default.contents(atPath: unpacked) ?? Data())
    }

    /// Which of `secrets` appear in `bytes`.
    static func found(_ secrets: [String], in bytes: Data) -> [String] {
        secrets.filter { bytes.range(of: Data($0.utf8)) != nil }
    }
}

/// The runs of syncs made at the same moment on two threads.
final class SyncRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [String: Run] = [:]

    func add(_ person: String, _ run: Run) {
        lock.lock()
        runs[person] = run
        lock.unlock()
    }

    var all: [(String, Run)] {
        lock.lock()
        defer { lock.unlock() }
        return runs.sorted { $0.key < $1.key }
    }
}

@Suite(.integration, .enabled(if: CircleKeys.available, DeliveryTools.missing("git-remote-gcrypt or gpg")))
struct GcryptTests {
    /// What the circle says that the host must not read.
    static let secrets = [
        "Anastasia Quill", "Beatrix Marlowe", "hiking Ben Nevis, back by 6pm", "beatrix.marlowe@example.org",
        "trip to the Cairngorms",
    ]

    /// Ana and Bea on their own machines, through the encrypted remote; Ana watches over Bea,
    /// and Ana's own channel is a log file on her machine.
    static func anaAndBea(_ circle: GcryptCircle) throws -> String {
        try circle.machine("ana", participants: ["ana", "bea"])
        try circle.machine("bea", participants: ["ana", "bea"])
        #expect(circle.run("ana", ["init", "--name", "Anastasia Quill", "--circle", circle.clone("ana")]).code == 0)
        #expect(circle.run("ana", ["checkin", "--note", "hiking Ben Nevis, back by 6pm", "--quiet"]).code == 0)
        let first = circle.run("ana", ["circle", "sync", "--json"])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(jsonObject(first.stdout)["bootstrapped"] as? Bool == true, "the empty remote gets its first commit")
        #expect(circle.run("bea", ["init", "--name", "Beatrix Marlowe", "--circle", circle.clone("bea")]).code == 0)
        let contact = circle.run(
            "bea",
            ["contacts", "add", "Mum", "--responder", "--notify", "mailto:beatrix.marlowe@example.org", "--quiet"])
        #expect(contact.code == 0, "\(contact.stderr)")
        #expect(circle.run("bea", ["checkin", "--note", "trip to the Cairngorms", "--quiet"]).code == 0)
        let synced = circle.run("bea", ["circle", "sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(circle.run("ana", ["circle", "sync"]).code == 0)
        let code = circle.run("bea", ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(circle.run("ana", ["contacts", "add", code, "--dependent", "--quiet"]).code == 0)
        let told = circle.root.path + "/ana-told.log"
        let channel = "exec:echo \"$LIFESIGNAL_TYPE\" >> '\(told)'"
        #expect(circle.run("ana", ["notify", "prefs", "--channel", channel, "--quiet"]).code == 0)
        for person in ["ana", "bea", "ana"] {
            let run = circle.run(person, ["circle", "sync"])
            #expect(run.code == 0 && run.stderr.isEmpty, "\(person): \(run.stderr)")
        }
        return told
    }

    @Test func theHostHoldsOnlyCiphertextWhileBothSeeEachOtherAndAMissIsTold() throws {
        let circle = GcryptCircle()
        let told = try Self.anaAndBea(circle)
        #expect(circle.run("bea", ["contacts", "list"]).stdout.contains("Anastasia Quill"))
        #expect(circle.run("ana", ["contacts", "list"]).stdout.contains("Beatrix Marlowe"))
        let note = circle.run("bea", ["contacts", "show", "Anastasia Quill"]).stdout
        #expect(note.contains("2026-03-01 09:00"), "Bea sees Ana's check-in: \(note)")
        // Bea checks in the next morning, then goes quiet; Ana's cron hears of it.
        circle.run("bea", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z")
        #expect(circle.run("bea", ["circle", "sync"], now: "2026-03-02T08:00:00Z").code == 0)
        #expect(circle.run("ana", ["circle", "sync"], now: "2026-03-03T08:10:00Z").code == 0)
        let deliver = circle.run("ana", ["notify", "deliver"], now: "2026-03-03T08:30:00Z")
        #expect([0, 75].contains(deliver.code), "\(deliver.stderr)")
        let heard = (try? String(contentsOfFile: told, encoding: .utf8)) ?? ""
        #expect(heard.contains("receive_non_responsive_dependent_alert"), "\(heard)")
        // The host holds none of it, searched as bytes in its files and in its objects unpacked.
        let host = GcryptCircle.hostBytes(circle.storage)
        #expect(host.count > 1000, "the host holds the circle, encrypted")
        #expect(GcryptCircle.found(Self.secrets, in: host).isEmpty)
        // The same search finds them all in a plain remote of the same circle: it can fail.
        let plain = circle.root.path + "/plain.git"
        GitCircle.run(["init", "-q", "--bare", plain])
        let plainPush = GitCircle.run(["push", "-q", plain, "HEAD:refs/heads/main"], in: circle.clone("ana"))
        #expect(plainPush.code == 0, "\(plainPush.stderr)")
        #expect(GcryptCircle.found(Self.secrets, in: GcryptCircle.hostBytes(plain)) == Self.secrets)
    }

    /// Ana and Bea check in and sync at the same moment, 50 times each: 100 syncs whose pushes
    /// race. gcrypt rewrites its manifest on every push, so a push that raced another must be
    /// refused and made again, never replace it: every commit either machine pushed is in the
    /// remote's history at the end, no sync found its push gone, and each machine holds the
    /// other's records exactly as the other wrote them.
    @Test func a100RacingSyncsLoseNoRecordAndOverwriteNoPush() throws {
        let circle = GcryptCircle()
        _ = try Self.anaAndBea(circle)
        var pushed: Set<String> = []
        var acknowledged = ["ana": 1, "bea": 1]
        var retried = 0
        let start = Date()
        for round in 0..<50 {
            let now = "2026-03-01T1\(round / 10):\(String(format: "%02d", (round % 10) * 5)):00Z"
            for person in ["ana", "bea"] where circle.run(person, ["checkin", "--quiet"], now: now).code == 0 {
                acknowledged[person, default: 0] += 1
            }
            let runs = SyncRuns()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let person = ["ana", "bea"][index]
                runs.add(person, circle.run(person, ["circle", "sync", "--json"], now: now))
            }
            for (person, run) in runs.all {
                #expect(run.code == 0, "round \(round), \(person): \(run.stderr)")
                let report = jsonObject(run.stdout)
                #expect(report["pushed"] as? Bool == true && report["lostPush"] as? Bool == false, "\(report)")
                retried += max(0, (report["attempts"] as? Int ?? 1) - 1)
                let head = GitCircle.run(["rev-parse", "refs/lifesignal/pushed"], in: circle.clone(person))
                pushed.insert(head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        for person in ["ana", "bea", "ana"] { #expect(circle.run(person, ["circle", "sync"]).code == 0) }
        // Every push is in the remote's history: none was replaced.
        let final = GitCircle.run(["rev-parse", "origin/main"], in: circle.clone("ana")).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(pushed.count >= 50, "\(pushed.count) pushes")
        let lost = pushed.filter {
            GitCircle.run(["merge-base", "--is-ancestor", $0, final], in: circle.clone("ana")).code != 0
        }
        #expect(lost.isEmpty, "pushes no longer in the remote: \(lost)")
        // Each machine holds the other's log byte for byte, with every acknowledged check-in.
        let logs = GitCircle.run(["ls-files", "members"], in: circle.clone("ana")).stdout.split(separator: "\n")
            .filter { $0.hasSuffix("/log.json") }
        #expect(logs.count == 2, "\(logs)")
        for log in logs {
            let a = FileManager.default.contents(atPath: circle.clone("ana") + "/" + log)
            let b = FileManager.default.contents(atPath: circle.clone("bea") + "/" + log)
            #expect(a != nil && a == b, "\(log) differs between the machines")
        }
        for person in ["ana", "bea"] {
            let history = jsonObject(
                circle.run(person, ["checkin", "history", "--json"], now: "2026-03-01T15:00:00Z").stdout)
            #expect(history["total"] as? Int == acknowledged[person], "\(person): \(history)")
        }
        // The pushes did race: some were refused and made again over the other's.
        #expect(retried > 0, "no sync ever raced another")
        print("gcrypt: 100 racing syncs in \(Int(elapsed))s, \(pushed.count) pushes, \(retried) made again")
    }

    /// Cara joins later: until a member adds her key, she is told she cannot read the remote;
    /// once Ana has, she reads it, and Bea, who has not yet, is told what to add.
    @Test func aMemberAddedLaterReadsOnceAddedAndTheOthersAreToldWhatToDo() throws {
        let circle = GcryptCircle()
        _ = try Self.anaAndBea(circle)
        try circle.machine("cara", participants: ["ana", "bea", "cara"])
        #expect(circle.run("cara", ["init", "--name", "Cara", "--circle", circle.clone("cara")]).code == 0)
        let early = circle.run("cara", ["circle", "sync"])
        #expect(early.code == 69, "\(early.stderr)")
        #expect(early.stderr.contains("not encrypted to a secret key this machine's gpg holds"), "\(early.stderr)")
        #expect(early.stderr.contains("gcrypt-participants"), "\(early.stderr)")
        circle.encrypt("ana", to: ["ana", "bea", "cara"])
        #expect(circle.run("ana", ["checkin", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(circle.run("ana", ["circle", "sync"], now: "2026-03-01T10:00:00Z").code == 0)
        let joined = circle.run("cara", ["circle", "sync"], now: "2026-03-01T10:05:00Z")
        #expect(joined.code == 0, "\(joined.stderr)")
        #expect(circle.run("cara", ["contacts", "list"], now: "2026-03-01T10:05:00Z").code == 0)
        let logs = GitCircle.run(["ls-files", "members"], in: circle.clone("cara")).stdout
        #expect(logs.split(separator: "\n").filter { $0.hasSuffix("/log.json") }.count == 3, "\(logs)")
        // Bea's list lacks Cara, who pushed last: her sync says which key to add, and how.
        let bea = circle.run("bea", ["circle", "sync"], now: "2026-03-01T10:10:00Z")
        #expect(bea.code == 69, "\(bea.stderr)")
        #expect(bea.stderr.contains("not in remote.origin.gcrypt-participants here"), "\(bea.stderr)")
        #expect(bea.stderr.contains("gpg --import"), "\(bea.stderr)")
        circle.encrypt("bea", to: ["ana", "bea", "cara"])
        let fixed = circle.run("bea", ["circle", "sync"], now: "2026-03-01T10:10:00Z")
        #expect(fixed.code == 0, "\(fixed.stderr)")
        let beaSees = GitCircle.run(["ls-files", "members"], in: circle.clone("bea")).stdout
        #expect(beaSees.split(separator: "\n").filter { $0.hasSuffix("/log.json") }.count == 3, "\(beaSees)")
    }

    /// A key with a passphrase gpg-agent does not hold: the sync fails at once (cron has no
    /// terminal to ask on), saying what to do, instead of waiting on a prompt.
    @Test func aKeyWithAPassphraseFailsAtOnceSayingWhatToDo() throws {
        let circle = GcryptCircle()
        let home = circle.gnupg("ana")
        let made = lifesignal(
            [
                "-c",
                "mkdir -m 700 '\(home)' && gpg --homedir '\(home)' --batch -q --passphrase 'correct horse' --quick-gen-key 'Dora <dora@example.org>' rsa2048 sign,encr never 2>/dev/null",
            ], environment: DeliveryTools.environment(), executable: "/bin/sh")
        #expect(made.code == 0, "\(made.stderr)")
        GitCircle.run(["init", "-q", "-b", "main", circle.clone("ana")])
        GitCircle.run(["remote", "add", "origin", circle.url], in: circle.clone("ana"))
        GitCircle.run(["config", "remote.origin.gcrypt-participants", "dora@example.org"], in: circle.clone("ana"))
        #expect(circle.run("ana", ["init", "--name", "Dora", "--circle", circle.clone("ana")]).code == 0)
        let start = Date()
        let sync = circle.run("ana", ["circle", "sync"])
        #expect(Date().timeIntervalSince(start) < 30, "it waited on a prompt")
        #expect(sync.code == 69, "\(sync.stderr)")
        #expect(sync.stderr.contains("never asks for one"), "\(sync.stderr)")
        #expect(sync.stderr.contains("key without a passphrase"), "\(sync.stderr)")
        // Once the circle has a key without passphrase, the next sync publishes.
        let fixed = lifesignal(
            [
                "-c",
                "gpg --homedir '\(home)' --batch -q --passphrase '' --quick-gen-key 'Dora Two <dora2@example.org>' rsa2048 sign,encr never 2>/dev/null",
            ], environment: DeliveryTools.environment(), executable: "/bin/sh")
        #expect(fixed.code == 0, "\(fixed.stderr)")
        GitCircle.run(
            ["config", "remote.origin.gcrypt-participants", "dora2@example.org"], in: circle.clone("ana"))
        GitCircle.run(["config", "remote.origin.gcrypt-signingkey", "dora2@example.org"], in: circle.clone("ana"))
        let again = circle.run("ana", ["circle", "sync"])
        #expect(again.code == 0, "\(again.stderr)")
    }

    /// The guide's set-up for two people, command for command through /bin/sh in each one's
    /// HOME (keys made there, in ~/.gnupg), with the host's URL pointing at a local bare
    /// repository and the key files handed over by copying.
    @Test func theReadmesEncryptedRecipeWorksAsWritten() throws {
        let section = try #require(
            ReadmeTests.guide.components(separatedBy: "### git, encrypted for the host\n").dropFirst().first?
                .components(separatedBy: "\n### ").first)
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
        #expect(blocks.count == 2, "\(blocks)")
        let circle = GcryptCircle()
        let bin = circle.root.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/lifesignal", withDestinationPath: Binary.path)
        /// Ana's lines as Bea types them.
        func swapped(_ text: String) -> String {
            text.replacingOccurrences(of: "Ana", with: "\u{1}").replacingOccurrences(of: "ana", with: "\u{2}")
                .replacingOccurrences(of: "Bea", with: "Ana").replacingOccurrences(of: "bea", with: "ana")
                .replacingOccurrences(of: "\u{1}", with: "Bea").replacingOccurrences(of: "\u{2}", with: "bea")
        }
        func sh(_ person: String, _ block: String) -> Run {
            let home = circle.root.path + "/" + person + "-home"
            try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let script = (person == "bea" ? swapped(block) : block).replacingOccurrences(
                of: "git@example.org:family/circle.git", with: circle.storage)
            return lifesignal(
                ["-e", "-c", "cd ~ && " + script],
                environment: [
                    "HOME": home, "PATH": "\(bin):" + DeliveryTests.path(), "TZ": "UTC",
                    "LIFESIGNAL_NOW": "2026-03-01T09:00:00Z",
                ], executable: "/bin/sh")
        }
        defer {
            for person in ["ana", "bea"] {
                _ = lifesignal(
                    ["--kill", "gpg-agent"],
                    environment: ["HOME": circle.root.path + "/\(person)-home", "PATH": "/usr/bin:/bin"],
                    executable: "/usr/bin/gpgconf")
            }
        }
        for person in ["ana", "bea"] {
            let keys = sh(person, blocks[0])
            #expect(keys.code == 0, "\(person): \(keys.stderr)")
        }
        for (from, to) in [("ana", "bea"), ("bea", "ana")] {
            try FileManager.default.copyItem(
                atPath: circle.root.path + "/\(from)-home/\(from).asc",
                toPath: circle.root.path + "/\(to)-home/\(from).asc")
        }
        for person in ["ana", "bea"] {
            let setUp = sh(person, blocks[1])
            #expect(setUp.code == 0, "\(person): \(setUp.stderr)")
        }
        let again = sh("ana", "lifesignal circle sync")
        #expect(again.code == 0 && again.stderr.isEmpty, "\(again.stderr)")
        for person in ["ana", "bea"] {
            let clone = circle.root.path + "/\(person)-home/family-circle"
            let logs = GitCircle.run(["ls-files", "members"], in: clone).stdout.split(separator: "\n")
            #expect(logs.filter { $0.hasSuffix("/log.json") }.count == 2, "\(person): \(logs)")
        }
        #expect(GcryptCircle.found(["\"Ana\"", "\"Bea\""], in: GcryptCircle.hostBytes(circle.storage)).isEmpty)
    }
}
