import Foundation
import LifeSignalCore
import TestSupport
import Testing

/// The caches can never answer differently from the logs: seeded random sequences of what a
/// family does (check-ins, links made and removed from either side, pings, alerts,
/// acknowledgements, vouches, deliveries, the clock moving, caches deleted or damaged between
/// steps), and after each step every read a user has gives the same answer (output, warnings,
/// exit code) with the caches the runs left as with none, where a full read of the logs
/// decides. As the cryptography is tested against an independent implementation, the caches
/// are tested against the truth they are derived from.
@Suite struct CacheDifferentialTests {
    /// The unit suite: a few sequences in a circle of three.
    @Test(arguments: 1...2)
    func cachedReadsAnswerAsTheLogsDo(seed: Int) {
        CacheDifferential(seed: UInt64(seed), steps: 12).run()
    }

    /// The integration suite: 200 sequences.
    @Test(.integration, arguments: 0..<20)
    func cachedReadsAnswerAsTheLogsDoOverManySequences(batch: Int) {
        for seed in (batch * 10)..<(batch * 10 + 10) {
            CacheDifferential(seed: UInt64(1000 + seed), steps: 10).run()
        }
    }
}

/// One seeded sequence of a family's operations, with the reads compared after each step.
struct CacheDifferential {
    static let people = ["ana", "bea", "carl"]
    static let caches = DataFile.allCases.filter { $0.kind == .cache }.map(\.rawValue)
    /// Every read a user has, in text and JSON; `NAME` is a contact picked at random.
    static let reads: [[String]] = [
        ["status"], ["contacts", "list"], ["contacts", "show", "NAME"], ["checkin", "history"], ["notify", "list"],
        ["circle", "status"], ["doctor"],
    ]

    let seed: UInt64
    let steps: Int
    let family = Family()

    func run() {
        var random = ModelTests.Generator(state: seed)
        var clock = Int64(1_772_355_600)  // 2026-03-01T09:00:00Z
        family.join("ana", "bea", "carl")
        let codes = Dictionary(uniqueKeysWithValues: Self.people.map { ($0, family.code($0)) })
        for person in Self.people {
            family.run(person, ["checkin", "--quiet"], now: Self.time(clock))
            family.run(person, ["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
        }
        var trail: [String] = []
        for step in 0..<steps {
            let actor = Self.people.randomElement(using: &random) ?? "ana"
            let done = act(actor, codes: codes, clock: &clock, random: &random)
            trail.append("\(actor) \(done)")
            // One reader a step: the one who acted (a writer's cache) or another (a refresh).
            for person in [Self.people.randomElement(using: &random) ?? "ana"] {
                let name = ["Ana", "Bea", "Carl", "Sam"].randomElement(using: &random) ?? "Sam"
                let differences = compare(person, name: name, now: Self.time(clock))
                #expect(
                    differences.isEmpty,
                    "seed \(seed) step \(step), \(person) reads: \(differences.joined(separator: "\n"))\nafter: \(trail.joined(separator: "; "))"
                )
                if !differences.isEmpty { return }
            }
        }
    }

    /// One operation of `person`'s, picked at random; what it was, for the failure's story.
    func act(
        _ person: String, codes: [String: String], clock: inout Int64, random: inout ModelTests.Generator
    ) -> String {
        let others = Self.people.filter { $0 != person }
        let other = others.randomElement(using: &random) ?? "ana"
        let name = other.capitalized
        let now = Self.time(clock)
        let arguments: [String]
        switch Int.random(in: 0..<16, using: &random) {
        case 0, 1: arguments = ["checkin", "--note", "n\(Int.random(in: 0..<100, using: &random))"]
        case 2: arguments = ["checkin", "interval", ["8h", "16h", "24h", "48h"].randomElement(using: &random) ?? "8h"]
        case 3: arguments = ["contacts", "add", codes[other] ?? "", "--dependent"]
        case 4: arguments = ["contacts", "add", codes[other] ?? "", "--responder"]
        case 5: arguments = ["contacts", "confirm", name]
        case 6: arguments = ["contacts", "remove", "--yes", name]
        case 7: arguments = ["ping", "send", name]
        case 8: arguments = ["ping", "respond", name]
        case 9: arguments = ["alert", Bool.random(using: &random) ? "activate" : "deactivate", "--yes"]
        case 10: arguments = ["contacts", "vouch", name]
        case 11: arguments = ["notify", "ack", firstNotification(person, now: now) ?? "none"]
        case 12: arguments = ["notify", "deliver"]
        case 13:
            clock += Int64.random(in: 300...(30 * 3600), using: &random)
            return "waits until \(Self.time(clock))"
        case 14: return damageCache(person, random: &random)
        default: arguments = ["notify", "read", "--all"]
        }
        let run = family.run(person, arguments, now: now)
        return "\(arguments.joined(separator: " ")) → \(run.code)"
    }

    /// The id of the first notification `person` has, to acknowledge.
    func firstNotification(_ person: String, now: String) -> String? {
        let list = jsonObject(family.run(person, ["notify", "list", "--all", "--json"], now: now).stdout)
        let first = (list["notifications"] as? [[String: Any]])?.first
        return (first?["id"] as? String).map { String($0.prefix(8)) }
    }

    /// Deletes, cuts or flips a byte of one of `person`'s caches.
    func damageCache(_ person: String, random: inout ModelTests.Generator) -> String {
        let name = Self.caches.randomElement(using: &random) ?? "cache.bin"
        let path = family.home(person) + "/" + name
        guard var bytes = FileManager.default.contents(atPath: path), !bytes.isEmpty else { return "has no \(name)" }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            try? FileManager.default.removeItem(atPath: path)
            return "deletes \(name)"
        case 1:
            let length = Int.random(in: 0..<bytes.count, using: &random)
            try? bytes.prefix(length).write(to: URL(fileURLWithPath: path))
            return "cuts \(name) to \(length) bytes"
        default:
            let at = Int.random(in: 0..<bytes.count, using: &random)
            bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            try? bytes.write(to: URL(fileURLWithPath: path))
            return "flips a bit of \(name) at \(at)"
        }
    }

    /// Every read of `person`'s, run with the caches as the last run left them, then with none
    /// (a full read of the logs); the caches are then put back, so the sequence goes on as a
    /// user's would. `notify list` notices what is due (a write), so it runs once first: the
    /// cached and the full read then start from the same records. What differs, described.
    func compare(_ person: String, name: String, now: String) -> [String] {
        family.run(person, ["notify", "list"], now: now)
        return Self.compare(home: family.home(person), reads: Self.reads, name: name, json: [false, true]) {
            family.run(person, $0, now: now)
        }
    }

    /// The reads at `home` run with its caches and without, each in the forms `json` lists.
    static func compare(home: String, reads: [[String]], name: String, json forms: [Bool], run: ([String]) -> Run)
        -> [String]
    {
        var differences: [String] = []
        for read in reads {
            for json in forms {
                let arguments = read.map { $0 == "NAME" ? name : $0 } + (json ? ["--json"] : [])
                let cached = run(arguments)
                let kept = caches.map { ($0, FileManager.default.contents(atPath: home + "/" + $0)) }
                for (file, _) in kept { try? FileManager.default.removeItem(atPath: home + "/" + file) }
                let full = run(arguments)
                for (file, bytes) in kept {
                    try? FileManager.default.removeItem(atPath: home + "/" + file)
                    try? bytes?.write(to: URL(fileURLWithPath: home + "/" + file))
                }
                differences += Self.differences(arguments, cached: cached, full: full)
            }
        }
        return differences
    }

    static func differences(_ arguments: [String], cached: Run, full: Run) -> [String] {
        let label = arguments.joined(separator: " ")
        var differences: [String] = []
        if cached.code != full.code { differences.append("\(label): exit \(cached.code) cached, \(full.code) full") }
        if cached.stdout != full.stdout {
            differences.append("\(label) stdout cached:\n\(cached.stdout)\nfull:\n\(full.stdout)")
        }
        if cached.stderr != full.stderr {
            differences.append("\(label) stderr cached:\n\(cached.stderr)\nfull:\n\(full.stderr)")
        }
        return differences
    }

    static func time(_ seconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime]
        return format.string(from: date)
    }
}

/// The same comparison in a circle of 1,000 (the benchmark's `circle-1000`, written through the
/// real store code): the member whose data directory it is watches over 100 of the others.
/// They and the others check in, link back, and are removed; the clock moves; the caches are
/// damaged; and after each step every read of that member's answers as a full read does.
@Suite(.integration) struct LargeCircleCacheDifferentialTests {
    @Test func cachedReadsAnswerAsTheLogsDoInACircleOfAThousand() throws {
        let root = TempHome()
        let home = root.path + "/typical"
        let seed = Process()
        seed.executableURL = URL(fileURLWithPath: Binary.path + "-bench-seed")
        seed.arguments = [home, "circle-1000"]
        seed.standardOutput = FileHandle.nullDevice
        try seed.run()
        seed.waitUntilExit()
        try #require(seed.terminationStatus == 0, "lifesignal-bench-seed failed")
        let peers = home + ".peers"
        func run(_ data: String, _ arguments: [String], _ clock: Int64) -> Run {
            lifesignal(
                arguments,
                environment: [
                    "LIFESIGNAL_HOME": data, "LIFESIGNAL_NOW": CacheDifferential.time(clock), "TZ": "UTC",
                    "COLUMNS": "80", "PATH": "/usr/bin:/bin", "HOME": root.path,
                ])
        }
        let code = run(home, ["contacts", "code"], 1_772_355_600).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var random = ModelTests.Generator(state: 1000)
        var clock = Int64(1_772_355_600)  // 2026-03-01T09:00:00Z
        var trail: [String] = []
        for step in 0..<8 {
            // The first 100 are watched; any of the thousand may act.
            let peer =
                "\(peers)/\(Bool.random(using: &random) ? Int.random(in: 0..<100, using: &random) : Int.random(in: 0..<1000, using: &random))"
            let (who, arguments): (String, [String])
            switch Int.random(in: 0..<8, using: &random) {
            case 0: (who, arguments) = (peer, ["checkin", "--note", "p\(step)"])
            case 1: (who, arguments) = (peer, ["contacts", "add", code, "--responder"])
            case 2: (who, arguments) = (home, ["checkin", "--note", "t\(step)"])
            case 3: (who, arguments) = (home, ["notify", "deliver"])
            case 4:
                (who, arguments) = (
                    home, ["contacts", "remove", "--yes", "Member \(Int.random(in: 0..<100, using: &random))"]
                )
            case 5:
                clock += Int64.random(in: 600...(20 * 3600), using: &random)
                (who, arguments) = (home, ["notify", "read", "--all"])
            case 6:
                let name = CacheDifferential.caches.randomElement(using: &random) ?? "cache.bin"
                try? FileManager.default.removeItem(atPath: home + "/" + name)
                (who, arguments) = (home, ["status", "--quiet"])
            default:
                (who, arguments) = (home, ["contacts", "confirm", "Member \(Int.random(in: 0..<100, using: &random))"])
            }
            let result = run(who, arguments, clock)
            trail.append(
                "\(who == home ? "typical" : String(who.dropFirst(peers.count + 1))) \(arguments.joined(separator: " ")) → \(result.code)"
            )
            // `notify list` notices what is due (a write): run once first, so that the cached and
            // the full read start from the same records.
            _ = run(home, ["notify", "list"], clock)
            // (Their JSON alone: the text is rendered from the same result, and compared in the
            // small circle.)
            let differences = CacheDifferential.compare(
                home: home, reads: CacheDifferential.reads, name: "Member 7", json: [true]
            ) { run(home, $0, clock) }
            #expect(
                differences.isEmpty,
                "step \(step): \(differences.joined(separator: "\n"))\nafter: \(trail.joined(separator: "; "))")
            if !differences.isEmpty { return }
        }
    }
}

/// A damaged or deleted cache (any byte, any length) changes no output and is rebuilt: each
/// cache file cut short and with a bit flipped, then a read that uses it answers as a read
/// with no cache at all. The unit suite cuts at every 61st length and flips every 61st byte;
/// the integration suite every length and every byte.
@Suite struct DamagedCacheTests {
    static let caches: [(String, [String])] = [
        ("cache.bin", ["status", "--json"]), ("cache-circle.bin", ["contacts", "list", "--json"]),
        ("cache-linked.bin", ["checkin", "--dry-run", "--json", "--note", "x"]),
    ]

    @Test(arguments: caches)
    func aDamagedCacheChangesNoOutputAndIsRebuilt(file: String, read: [String]) throws {
        try Self.damage(file, read: read, every: 61)
    }

    @Test(.integration, arguments: caches)
    func anyByteAndAnyLengthOfACacheChangesNoOutput(file: String, read: [String]) throws {
        try Self.damage(file, read: read, every: 1)
    }

    static func damage(_ file: String, read: [String], every step: Int) throws {
        let family = Family()
        family.join("ana", "bea")
        family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"])
        family.run("ana", ["contacts", "confirm", "Bea", "--quiet"])
        for person in ["ana", "bea"] { family.run(person, ["checkin", "--note", person, "--quiet"]) }
        family.run("ana", ["checkin", "--note", "warm", "--quiet"])
        family.run("ana", read)
        let path = family.home("ana") + "/" + file
        let good = try #require(FileManager.default.contents(atPath: path), "\(file) was made")
        let caches = CacheDifferential.caches.map { family.home("ana") + "/" + $0 }
        let kept = caches.map { FileManager.default.contents(atPath: $0) }
        for cache in caches { try? FileManager.default.removeItem(atPath: cache) }
        let truth = family.run("ana", read)
        var damaged: [Data] = [Data()]
        for length in stride(from: 1, to: good.count, by: step) { damaged.append(good.prefix(length)) }
        for at in stride(from: 0, to: good.count, by: step) {
            var flipped = good
            flipped[at] ^= UInt8(1) << UInt8(at % 8)
            damaged.append(flipped)
        }
        var failures: [String] = []
        for bytes in damaged + [nil] {
            for (cache, contents) in zip(caches, kept) { try? contents?.write(to: URL(fileURLWithPath: cache)) }
            if let bytes {
                try bytes.write(to: URL(fileURLWithPath: path))
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
            let run = family.run("ana", read)
            let what = bytes.map { "\($0.count) bytes" } ?? "deleted"
            if run.stdout != truth.stdout || run.stderr != truth.stderr || run.code != truth.code {
                failures.append("\(what): exit \(run.code), \(run.stdout)\(run.stderr)")
            }
            // (A dry run writes nothing, the linked part included: the next check-in makes it.)
            if file != "cache-linked.bin", FileManager.default.contents(atPath: path) == bytes {
                failures.append("\(what): not rebuilt")
            }
            if failures.count > 3 { break }
        }
        #expect(failures.isEmpty, "\(file): \(failures.joined(separator: "\n"))")
    }

    /// What this device verified before is a record, not a cache: a damaged `verified.bin` is
    /// said once, believed in nothing, every log is verified again (no cache is used), and the
    /// file is written anew in its own format; reads answer as before.
    @Test func aDamagedTrustMemoryIsSaidAndVerifiedAgain() throws {
        let family = Family()
        family.join("ana", "bea")
        family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"])
        family.run("ana", ["contacts", "confirm", "Bea", "--quiet"])
        family.run("bea", ["checkin", "--note", "b", "--quiet"])
        let truth = family.run("ana", ["contacts", "list", "--json"])
        let path = family.home("ana") + "/verified.bin"
        let good = try #require(FileManager.default.contents(atPath: path))
        #expect(good.starts(with: Data("LSTRUST".utf8)), "a format of its own")
        for damage in [
            good.prefix(good.count / 2), good.dropFirst(0).map { $0 ^ 0x20 }.reduce(into: Data()) { $0.append($1) },
        ] {
            try Data(damage).write(to: URL(fileURLWithPath: path))
            let damaged = family.run("ana", ["contacts", "list", "--json"])
            #expect(damaged.stdout == truth.stdout, "\(damaged.stdout)")
            #expect(damaged.stderr.contains("verified-memory-damaged"), "\(damaged.stderr)")
            let again = family.run("ana", ["contacts", "list", "--json"])
            #expect(
                again.stdout == truth.stdout && !again.stderr.contains("verified-memory-damaged"), "\(again.stderr)")
            #expect(
                FileManager.default.contents(atPath: path)?.starts(with: Data("LSTRUST".utf8)) == true, "written anew")
        }
    }
}
