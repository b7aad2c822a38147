import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A damaged, truncated, hand-broken, newer or unreadable store file must stop every command
/// that needs it with exit 65 and a message that names the file, the position of a syntax
/// error and the backup — and must leave the store exactly as it was (reliability.md §3, T8).
/// Every case runs the built binary against a real store it wrote itself.
@Suite(.integration) struct DamagedStoreTests {
    /// The commands that read (and for the last two, would write) the identity and the log.
    static let commands: [[String]] = [["status"], ["checkin", "status"], ["checkin"], ["checkin", "interval", "8h"]]

    // MARK: - identity.json and log.json

    @Test(arguments: StoreDamage.allCases)
    func damagedIdentityStopsEveryCommand(_ damage: StoreDamage) throws {
        let fixture = try ReliabilityFixture.make()
        // identity.json is never rewritten by check-ins, so give it a backup by hand: the
        // message must point at it whenever one exists.
        try FileManager.default.copyItem(atPath: fixture.identity, toPath: fixture.identity + ".bak")
        try damage.apply(to: fixture.identity, fixture: fixture)
        try expectRefused(fixture, file: fixture.identity, damage: damage, backup: fixture.identity + ".bak")
    }

    /// What is not damage to a log's text (a newer lifesignal's file, something other than a
    /// file, another device's log) stops every command as before.
    @Test(arguments: [StoreDamage.newerSchema, .directory, .symlink, .fifo])
    func aLogThatIsNotThisDevicesStopsEveryCommand(_ damage: StoreDamage) throws {
        let fixture = try ReliabilityFixture.make()
        try damage.apply(to: fixture.log, fixture: fixture)
        try expectRefused(fixture, file: fixture.log, damage: damage, backup: fixture.publishedLog)
    }

    /// A damaged private log is never believed: the copy this device signed with the most
    /// records (the circle's; the backup is one write behind) is read in its place and the
    /// damage said, each read changing nothing; the next write writes the log again from that
    /// copy and keeps the damaged file aside. So cron's runs go on sending alarms.
    @Test(
        arguments: StoreDamage.readable + [
            .memberMismatch, .deviceMismatch, .nulTail, .seqAtInt64Max, .checkInsAtInt64Max, .clockAtInt64Max,
        ])
    func aDamagedLogIsReadFromTheCopyThisDeviceSigned(_ damage: StoreDamage) throws {
        let fixture = try ReliabilityFixture.make()
        try damage.apply(to: fixture.log, fixture: fixture)
        let damaged = FileManager.default.contents(atPath: fixture.log)
        // (A read may note the keys it verified, in verified.bin; the records stay as they are.)
        let records = [fixture.log, fixture.log + ".bak", fixture.publishedLog, fixture.log + ".damaged"]
        let before = records.map { FileManager.default.contents(atPath: $0) }
        for command in [["status"], ["checkin", "status"], ["checkin", "history"]] {
            let run = runBounded(fixture.home, command)
            let label = "\(damage) \(command.joined(separator: " "))"
            #expect(run.code == 0, "\(label): exit \(run.code), stderr: \(run.stderr)")
            for expected in ["are damaged", fixture.log, fixture.publishedLog] + damage.expectedText {
                #expect(run.stderr.contains(expected), "\(label) lacks \"\(expected)\": \(run.stderr)")
            }
            #expect(records.map { FileManager.default.contents(atPath: $0) } == before, "\(label) changed the records")
        }
        let json = fixture.home.run(["status", "--json"])
        #expect(json.stderr.contains(#""code":"own-records-damaged""#), "\(damage): \(json.stderr)")
        let checkin = fixture.home.run(["checkin", "--note", "after"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(damage): \(checkin.stderr)")
        #expect(checkin.stderr.contains("kept the damaged file as \(fixture.log).damaged"), "\(checkin.stderr)")
        #expect(FileManager.default.contents(atPath: fixture.log + ".damaged") == damaged, "\(damage)")
        let after = fixture.home.run(["checkin", "history", "--json"], now: "2026-03-01T10:01:00Z")
        #expect(after.code == 0 && !after.stderr.contains("are damaged"), "\(damage): \(after.stderr)")
        #expect(after.stdout.contains("\"after\"") && after.stdout.contains("\"n2\""), "\(damage): \(after.stdout)")
    }

    /// One flipped bit anywhere in this device's private log, even where the JSON stays valid
    /// (a note, a channel, a responder's address), is never believed nor signed again: each of
    /// 80 flips is said as damage, the check-in after it records on the signed copy, and the
    /// history keeps every earlier check-in.
    @Test func noFlippedBitInTheOwnLogIsSignedAgain() throws {
        let fixture = try ReliabilityFixture.make()
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.log))
        let published = try Data(contentsOf: URL(fileURLWithPath: fixture.publishedLog))
        let backup = try Data(contentsOf: URL(fileURLWithPath: fixture.log + ".bak"))
        var random = ModelTests.Generator(state: 46)
        for flip in 0..<80 {
            for (path, data) in [(fixture.log + ".bak", backup), (fixture.publishedLog, published)] {
                try data.write(to: URL(fileURLWithPath: path))
            }
            var damaged = original
            let at = Int.random(in: 0..<damaged.count, using: &random)
            damaged[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            try damaged.write(to: URL(fileURLWithPath: fixture.log))
            let run = fixture.home.run(["checkin", "--note", "flip\(flip)"], now: "2026-03-01T10:00:00Z")
            #expect(
                run.code == 0 && run.stderr.contains("are damaged"), "byte \(at): exit \(run.code), \(run.stderr)")
            let history = fixture.home.run(["checkin", "history", "--json"], now: "2026-03-01T10:01:00Z")
            #expect(!history.stderr.contains("are damaged"), "byte \(at): \(history.stderr)")
            for note in ["n0", "n1", "n2", "flip\(flip)"] {
                #expect(history.stdout.contains("\"\(note)\""), "byte \(at): \(note) lost: \(history.stdout)")
            }
        }
    }

    /// With no copy that this device signed and that verifies, the damage stops every command.
    @Test func aDamagedLogWithoutASignedCopyStopsEveryCommand() throws {
        let fixture = try ReliabilityFixture.make()
        try StoreDamage.badCharacterOnLine3.apply(to: fixture.log, fixture: fixture)
        for copy in [fixture.publishedLog, fixture.log + ".bak"] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: copy))
        }
        try expectRefused(fixture, file: fixture.log, damage: .badCharacterOnLine3, backup: nil)
    }

    @Test func damagedIdentityWithoutBackupSaysSo() throws {
        let fixture = try ReliabilityFixture.make()
        try StoreDamage.badCharacterOnLine3.apply(to: fixture.identity, fixture: fixture)
        let before = StoreSnapshot(fixture.home.path)
        for command in Self.commands {
            let run = fixture.home.run(command)
            #expect(run.code == 65, "\(command)")
            #expect(run.stderr.contains(fixture.identity), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("line 3, column 3"), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("There is no backup"), "\(command): \(run.stderr)")
        }
        #expect(StoreSnapshot(fixture.home.path) == before)
    }

    /// With --json the same refusal is a JSON error on stderr, for scripts.
    @Test func damagedStoreErrorIsJSONWithTheJSONFlag() throws {
        let fixture = try ReliabilityFixture.make()
        try FileManager.default.copyItem(atPath: fixture.identity, toPath: fixture.identity + ".bak")
        try StoreDamage.badCharacterOnLine3.apply(to: fixture.identity, fixture: fixture)
        let before = StoreSnapshot(fixture.home.path)
        for command in [["checkin", "status", "--json"], ["checkin", "--json"]] {
            let run = fixture.home.run(command)
            #expect(run.code == 65)
            #expect(run.stdout.isEmpty)
            let error = jsonObject(run.stderr)["error"] as? [String: Any]
            #expect(error?["code"] as? Int == 65)
            let message = error?["message"] as? String ?? ""
            #expect(
                message.contains(fixture.identity) && message.contains("line 3, column 3")
                    && message.contains(fixture.identity + ".bak"), "\(message)")
        }
        #expect(StoreSnapshot(fixture.home.path) == before)
    }

    /// Another device of the same member whose log is damaged stops reads and writes too:
    /// its check-ins count toward the deadline, so ignoring it could report a wrong status.
    /// Another device's log (a half-synced copy, a peer on a newer lifesignal) cannot stop this
    /// device from checking in: it is left out with a warning naming it, and left untouched.
    @Test func damagedLogOfAnotherDeviceIsSkippedWithAWarning() throws {
        let fixture = try ReliabilityFixture.make()
        let other = try fixture.anotherDevicesLog(damaged: .badCharacterOnLine3)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: other))
        for command in Self.commands {
            let run = runBounded(fixture.home, command)
            let label = command.joined(separator: " ")
            #expect(!run.timedOut, "\(label) hung")
            #expect([0, 3, 4].contains(run.code), "\(label): exit \(run.code), stderr: \(run.stderr)")
            #expect(
                run.stderr.contains(
                    "lifesignal: warning: left out another device's records, which cannot be read: \(other): line 3, column"
                ), "\(label): \(run.stderr)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: other)) == damaged, "\(label) changed the other device's file"
            )
        }
    }

    /// A synced log whose clock is at the top of Int64 (every write counts on from the
    /// highest clock in the circle) is left out with a warning; check-ins go on.
    @Test func anotherDevicesLogWithAClockAtTheTopIsSkipped() throws {
        let fixture = try ReliabilityFixture.make()
        let other = try fixture.anotherDevicesLog(damaged: .clockAtInt64Max)
        for command in [["checkin"], ["checkin", "--note", "again"], ["status"]] {
            let run = runBounded(fixture.home, command)
            #expect([0, 3, 4].contains(run.code), "\(command): exit \(run.code), stderr: \(run.stderr)")
            #expect(
                run.stderr.contains("left out another device's records") && run.stderr.contains("clock"),
                "\(command): \(run.stderr)")
            #expect(run.stderr.contains(other), "\(command) does not name the log: \(run.stderr)")
        }
    }

    /// Runs every command against the damaged store and checks code, message and that
    /// nothing at all changed on disk.
    private func expectRefused(
        _ fixture: ReliabilityFixture, file: String, damage: StoreDamage, backup: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = StoreSnapshot(fixture.home.path)
        for command in Self.commands {
            let run = runBounded(fixture.home, command)
            let label = "\(damage) \(command.joined(separator: " "))"
            #expect(!run.timedOut, "\(label) hung", sourceLocation: sourceLocation)
            #expect(run.code == 65, "\(label): exit \(run.code), stderr: \(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stdout.isEmpty, "\(label): stdout \(run.stdout)", sourceLocation: sourceLocation)
            #expect(
                run.stderr.hasPrefix("lifesignal: error: "), "\(label): \(run.stderr)", sourceLocation: sourceLocation)
            #expect(
                run.stderr.contains(file), "\(label) does not name \(file): \(run.stderr)",
                sourceLocation: sourceLocation)
            #expect(
                run.stderr.contains("Nothing was changed"), "\(label): \(run.stderr)", sourceLocation: sourceLocation)
            if let backup, damage.mentionsBackup {
                #expect(
                    run.stderr.contains(backup), "\(label) does not name the backup: \(run.stderr)",
                    sourceLocation: sourceLocation)
            }
            for expected in damage.expectedText {
                #expect(
                    run.stderr.contains(expected), "\(label) lacks \"\(expected)\": \(run.stderr)",
                    sourceLocation: sourceLocation)
            }
            #expect(
                !run.stderr.contains("Fatal error"), "\(label) crashed: \(run.stderr)", sourceLocation: sourceLocation)
            let after = StoreSnapshot(fixture.home.path)
            #expect(
                after == before, "\(label) changed the store: \(before.difference(from: after))",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: - feed.json

    /// The feed is read notification by notification as it is parsed; damage anywhere in it,
    /// including inside one notification, still stops every command that needs it, names the
    /// file and the place, and changes nothing.
    @Test(arguments: [
        (StoreDamage.truncatedHalf, ["line ", ", column "]), (.nulFilled, ["NUL"]),
        (.badCharacterOnLine3, ["line 3, column 3"]),
        (.duplicateKey, ["duplicate key"]), (.newerSchema, ["written by a newer lifesignal"]),
        (.wrongTypeFeedTime, ["notifications[0].at: expected a string"]),
    ])
    func damagedFeedStopsTheCommandsThatReadIt(_ damage: StoreDamage, _ expected: [String]) throws {
        let fixture = try ReliabilityFixture.make()
        // The reminder is due: noticing it writes the feed.
        let now = "2026-03-02T08:40:00Z"
        let list = fixture.home.run(["notify", "list"], now: now)
        try #require(list.code == 0 && list.stdout.contains("Check-in Reminder"), "\(list.stdout) \(list.stderr)")
        let feed = fixture.feed
        try damage.apply(to: feed, fixture: fixture)
        let before = StoreSnapshot(fixture.home.path)
        for command in [["notify", "list"], ["notify", "read", "--all"], ["status"]] {
            let run = fixture.home.run(command, now: now)
            let label = "\(damage) \(command.joined(separator: " "))"
            #expect(run.code == 65, "\(label): exit \(run.code), stderr: \(run.stderr)")
            #expect(run.stderr.contains(feed), "\(label): \(run.stderr)")
            for text in expected { #expect(run.stderr.contains(text), "\(label) lacks \"\(text)\": \(run.stderr)") }
            #expect(!run.stderr.contains("Fatal error"), "\(label) crashed: \(run.stderr)")
            #expect(StoreSnapshot(fixture.home.path) == before, "\(label) changed the store")
        }
    }

    // MARK: - Archive segments

    @Test(arguments: SegmentStoreDamage.allCases)
    func damagedArchiveSegmentStopsHistory(_ damage: SegmentStoreDamage) throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        let segments = try fixture.segments()
        try #require(segments.count == 1)
        let segment = fixture.archiveDirectory + "/" + segments[0]
        let named = try damage.apply(to: segment, fixture: fixture)
        let before = StoreSnapshot(fixture.home.path)

        let history = runBounded(fixture.home, ["checkin", "history", "--limit", "1000"])
        #expect(!history.timedOut)
        #expect(history.code == 65, "\(damage): \(history.code) \(history.stderr)")
        #expect(history.stderr.contains(named), "\(damage): \(history.stderr)")
        #expect(history.stderr.contains("Nothing was changed"), "\(damage): \(history.stderr)")
        for expected in damage.expectedText {
            #expect(history.stderr.contains(expected), "\(damage) lacks \"\(expected)\": \(history.stderr)")
        }
        #expect(StoreSnapshot(fixture.home.path) == before)

        // Status needs only the log's folded state, so it still answers; a check-in still
        // records (the segment is immutable and not needed to append) and leaves it alone.
        let status = runBounded(fixture.home, ["checkin", "status"])
        #expect([0, 3, 4].contains(status.code), "\(damage): \(status.code) \(status.stderr)")
        let checkin = runBounded(fixture.home, ["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(damage): \(checkin.stderr)")
        let after = StoreSnapshot(fixture.home.path)
        #expect(after.entries[named] == before.entries[named], "\(damage): the segment changed")
        #expect(after.entries.keys.filter { $0.contains(".tmp") }.isEmpty)
    }

    /// Segments are read only as far back as a request needs: a short history does not touch
    /// a damaged old segment, a full one does.
    @Test func historyReadsSegmentsOnlyWhenNeeded() throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        let segment = fixture.archiveDirectory + "/" + (try fixture.segments()[0])
        let full = fixture.home.run(["checkin", "history", "--limit", "1000", "--json"])
        #expect(full.code == 0)
        #expect(jsonObject(full.stdout)["total"] as? Int == ReliabilityFixture.checkInsAfterGrowth)
        #expect((jsonObject(full.stdout)["checkIns"] as? [Any])?.count == ReliabilityFixture.checkInsAfterGrowth)
        try Data().write(to: URL(fileURLWithPath: segment))
        #expect(fixture.home.run(["checkin", "history", "--limit", "5"]).code == 0)
        #expect(fixture.home.run(["checkin", "history", "--limit", "1000"]).code == 65)
    }

    /// A crash after a segment was written but before log.json was replaced leaves the
    /// segment past `archivedThrough`; history ignores it and the next save replaces it, so
    /// no check-in is counted twice or lost — also when the next save records more events
    /// (`init` setting two things) and so cuts its segment differently.
    @Test(arguments: [["checkin", "--note", "after"], ["init", "--name", "Renamed", "--interval", "8h"]])
    func segmentLeftByACrashBeforeTheLogWasReplacedIsNotCountedTwice(next: [String]) throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.writeSyntheticLog(checkIns: ReliabilityFixture.syntheticCheckIns)
        let beforeSave = try Data(contentsOf: URL(fileURLWithPath: fixture.log))
        #expect(fixture.home.run(["checkin", "--note", "crashed"]).code == 0)
        #expect(try fixture.segments().count == 1)
        // Put the old log back (both copies): the state right after the segment's rename, before
        // the log's.
        try beforeSave.write(to: URL(fileURLWithPath: fixture.log))
        try beforeSave.write(to: URL(fileURLWithPath: fixture.publishedLog))
        let orphaned = fixture.home.run(["checkin", "history", "--limit", "1000", "--json"])
        #expect(orphaned.code == 0)
        #expect((jsonObject(orphaned.stdout)["checkIns"] as? [Any])?.count == ReliabilityFixture.syntheticCheckIns)
        let run = fixture.home.run(next)
        #expect(run.code == 0, "\(run.stderr)")
        let checkIns = ReliabilityFixture.syntheticCheckIns + (next[0] == "checkin" ? 1 : 0)
        let history = fixture.home.run(["checkin", "history", "--limit", "1000", "--json"])
        let json = jsonObject(history.stdout)
        let notes = (json["checkIns"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        #expect(json["total"] as? Int == checkIns)
        #expect((json["checkIns"] as? [Any])?.count == checkIns)
        #expect(Set(notes).count == notes.count, "a check-in is listed twice")
        #expect(!notes.contains("crashed"))
        let segments = try fixture.segments()
        #expect(segments.count == 1, "\(segments)")
    }

    // MARK: - Truncation sweep

    /// log.json cut at every byte offset short of complete: `checkin status` must say each is
    /// damaged and read the copy this device signed (never a crash, never a silent "no
    /// check-ins yet"), file unchanged. Split in slices so Swift Testing runs them in parallel.
    @Test(arguments: 0..<4)
    func logTruncatedAtEveryOffset(slice: Int) throws {
        let fixture = try ReliabilityFixture.make()
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.log))
        try sweep(
            fixture, file: fixture.log, original: original, slice: slice, of: 4, command: ["checkin", "status"],
            recovered: true)
    }

    @Test func identityTruncatedAtEveryOffset() throws {
        let fixture = try ReliabilityFixture.make()
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.identity))
        try sweep(fixture, file: fixture.identity, original: original, slice: 0, of: 1, command: ["status"])
    }

    private func sweep(
        _ fixture: ReliabilityFixture, file: String, original: Data, slice: Int, of slices: Int, command: [String],
        recovered: Bool = false
    ) throws {
        // Cutting only the final newline leaves a complete document, which is fine to read.
        let complete = try #require(original.lastIndex(of: UInt8(ascii: "}"))) + 1
        var failures: [String] = []
        for length in stride(from: slice, to: complete, by: slices) {
            let truncated = original.prefix(length)
            try truncated.write(to: URL(fileURLWithPath: file))
            let before = StoreSnapshot(fixture.home.path)
            let run = fixture.home.run(command)
            let said = recovered ? (0, "are damaged") : (65, "Nothing was changed")
            if run.code != said.0 || !run.stderr.contains(file) || !run.stderr.contains(said.1) {
                failures.append("length \(length): exit \(run.code), \(run.stderr)")
            }
            if run.code >= 128 || run.code < 0 { failures.append("length \(length): crashed with \(run.code)") }
            // (A read may note the keys it verified, in verified.bin, and nothing else.)
            if StoreSnapshot(fixture.home.path).excluding("verified.bin") != before.excluding("verified.bin") {
                failures.append("length \(length): store changed")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

// MARK: - Damages

/// One way a store file can be broken, applied in place to a real file.
enum StoreDamage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncatedEarly, truncatedHalf, truncatedNearEnd, empty, nulFilled, badCharacterOnLine3, invalidUTF8
    case wrongTypeSeq, wrongTypeCheckIns, wrongTypeMember, duplicateKey, newerSchema
    case directory, symlink, fifo, missingWithBackup
    // Only for log.json (identity.json has no events, state or folder to disagree with);
    // `allCases` below leaves them out.
    case memberMismatch, deviceMismatch, nulTail
    /// Counters the next append would overflow: refused as damage, never a trap.
    case seqAtInt64Max, checkInsAtInt64Max, clockAtInt64Max
    /// feed.json only: a notification's time that is not a time.
    case wrongTypeFeedTime

    static var allCases: [StoreDamage] {
        [
            .truncatedEarly, .truncatedHalf, .truncatedNearEnd, .empty, .nulFilled, .badCharacterOnLine3, .invalidUTF8,
            .wrongTypeSeq, .wrongTypeCheckIns, .wrongTypeMember, .duplicateKey, .newerSchema,
            .directory, .symlink, .fifo, .missingWithBackup,
        ]
    }

    /// The damage to a file's text, which leaves a file in its place.
    static var readable: [StoreDamage] {
        allCases.filter { ![.newerSchema, .directory, .symlink, .fifo].contains($0) }
    }

    var testDescription: String { rawValue }

    /// Text stderr must contain besides the path and "Nothing was changed".
    var expectedText: [String] {
        switch self {
        case .badCharacterOnLine3: return ["line 3, column 3"]
        case .truncatedEarly, .truncatedHalf, .truncatedNearEnd, .empty, .invalidUTF8: return ["line ", ", column "]
        // A signed file's first field is its signature, so the duplicate is a line further down
        // in a log than in the identity file.
        case .duplicateKey: return ["duplicate key", ", column 3"]
        case .newerSchema: return ["written by a newer lifesignal", "schema 99"]
        case .nulFilled: return ["NUL"]
        case .missingWithBackup: return ["missing"]
        case .symlink, .fifo, .directory: return ["cannot read"]
        // (An id changed after signing: damage, read from the signed copy.)
        case .memberMismatch, .deviceMismatch: return ["signature does not match"]
        case .seqAtInt64Max: return ["seq"]
        case .checkInsAtInt64Max: return ["checkIns"]
        case .clockAtInt64Max: return ["clock"]
        case .wrongTypeSeq, .wrongTypeCheckIns, .wrongTypeMember, .nulTail: return []
        case .wrongTypeFeedTime: return ["notifications[0].at"]
        }
    }

    /// A newer file is not damaged, so its message is about upgrading, not restoring.
    var mentionsBackup: Bool { self != .newerSchema }

    func apply(to path: String, fixture: ReliabilityFixture) throws {
        let url = URL(fileURLWithPath: path)
        let original = try Data(contentsOf: url)
        let text = String(decoding: original, as: UTF8.self)
        func write(_ data: Data) throws { try data.write(to: url) }
        func replace(_ target: String, _ replacement: String) throws {
            let range = try #require(text.range(of: target), "\(path) has no \(target)")
            try write(Data(text.replacingCharacters(in: range, with: replacement).utf8))
        }
        func replace(_ target: Regex<Substring>, _ replacement: String) throws {
            let range = try #require(text.firstRange(of: target), "\(path) lacks what \(self) replaces")
            try write(Data(text.replacingCharacters(in: range, with: replacement).utf8))
        }
        switch self {
        case .truncatedEarly: try write(original.prefix(7))
        case .truncatedHalf: try write(original.prefix(original.count / 2))
        case .truncatedNearEnd: try write(original.prefix(original.count - 3))
        case .empty: try write(Data())
        case .nulFilled: try write(Data(count: original.count))
        case .nulTail: try write(original.prefix(original.count / 3) + Data(count: original.count - original.count / 3))
        case .badCharacterOnLine3:
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            try #require(lines.count > 3 && lines[2].drop { $0 == " " }.hasPrefix("\""))
            var edited = lines.map(String.init)
            // A stray x where the third line's key should start: column 3 whether the file
            // indents its lines (identity.json) or not (log.json).
            edited[2] = "  x" + edited[2].drop { $0 == " " }
            try write(Data(edited.joined(separator: "\n").utf8))
        case .invalidUTF8:
            let position = try #require(text.utf8.firstIndex(of: UInt8(ascii: "-")))
            var bytes = original
            bytes[text.utf8.distance(from: text.utf8.startIndex, to: position)] = 0xFF
            try write(bytes)
        case .wrongTypeSeq:
            if text.firstRange(of: #/"seq": ?1,/#) != nil {
                try replace(#/"seq": ?1,/#, "\"seq\": \"one\",")
            } else {
                try replace("\"schemaVersion\": 1", "\"schemaVersion\": \"one\"")
            }
        case .wrongTypeCheckIns:
            if text.firstRange(of: #/"checkIns": ?\d+/#) != nil {
                try replace(#/"checkIns": ?\d+/#, "\"checkIns\": \"x\"")
            } else {
                try replace("\"schemaVersion\": 1", "\"schemaVersion\": [1]")
            }
        case .wrongTypeMember: try replace(#/"member": "[^"]*"/#, "\"member\": 7")
        case .duplicateKey: try replace("\"schemaVersion\": 1,", "\"schemaVersion\": 1,\n  \"schemaVersion\": 1,")
        case .newerSchema: try replace("\"schemaVersion\": 1", "\"schemaVersion\": 99")
        case .wrongTypeFeedTime: try replace(#/"at": "[^"]*"/#, "\"at\": 5")
        case .directory:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .symlink:
            // A perfectly good copy elsewhere: O_NOFOLLOW must still refuse the link.
            let target = fixture.home.path + "/elsewhere-\(ReliabilityPath.last(path))"
            try FileManager.default.moveItem(atPath: path, toPath: target)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        case .fifo:
            try FileManager.default.removeItem(atPath: path)
            try #require(mkfifo(path, 0o600) == 0)
        case .missingWithBackup:
            try #require(FileManager.default.fileExists(atPath: path + ".bak"))
            try FileManager.default.removeItem(atPath: path)
        case .memberMismatch: try replace(fixture.member, UUID().uuidString.lowercased())
        case .seqAtInt64Max:
            // Consistent otherwise: the newest event, lastSeq and the state's stamp agree.
            let last = try #require(text.firstMatch(of: #/"lastSeq": ?(\d+)/#)?.output.1)
            try write(
                Data(
                    text.replacing(Regex<Substring>(verbatim: "\"seq\":\(last),"), with: "\"seq\":\(Int64.max),")
                        .replacing(Regex<Substring>(verbatim: "\"seq\": \(last),"), with: "\"seq\": \(Int64.max),")
                        .replacing(
                            Regex<Substring>(verbatim: "\"lastSeq\": \(last),"), with: "\"lastSeq\": \(Int64.max),"
                        ).utf8))
        case .checkInsAtInt64Max: try replace(#/"checkIns": ?\d+/#, "\"checkIns\": \(Int64.max)")
        case .clockAtInt64Max: try replace(#/"clock": ?\d+,\n/#, "\"clock\": \(Int64.max),\n")
        case .deviceMismatch:
            // The member line comes first; replace the device id on the "device" line only.
            try replace("\"device\": \"\(fixture.device)\"", "\"device\": \"\(UUID().uuidString.lowercased())\"")
        }
    }
}

/// Ways to break an archive segment (a one-line JSON file).
enum SegmentStoreDamage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncated, empty, badCharacter, wrongType, newerSchema, otherDevice, rangeDoesNotMatchName, directory, symlink,
        fifo

    var testDescription: String { rawValue }

    var expectedText: [String] {
        switch self {
        case .badCharacter: return ["line 1, column 2"]
        // A signed segment's first line is its signature: where a cut ends depends on the cut.
        case .truncated, .empty: return ["line ", ", column "]
        case .newerSchema: return ["written by a newer lifesignal"]
        case .directory, .symlink, .fifo: return ["cannot read"]
        case .wrongType, .otherDevice, .rangeDoesNotMatchName: return ["damaged"]
        }
    }

    /// Breaks the segment at `path`; returns the path the message must name (a renamed one
    /// for a range mismatch).
    func apply(to path: String, fixture: ReliabilityFixture) throws -> String {
        let url = URL(fileURLWithPath: path)
        let original = try Data(contentsOf: url)
        let text = String(decoding: original, as: UTF8.self)
        func write(_ string: String) throws { try Data(string.utf8).write(to: url) }
        switch self {
        case .truncated: try original.prefix(original.count / 2).write(to: url)
        case .empty: try Data().write(to: url)
        case .badCharacter: try write("{x" + text.dropFirst())
        case .wrongType:
            try #require(text.contains("\"seq\":"))
            try write(text.replacing(#/"seq":\s*(\d+)/#, maxReplacements: 1) { "\"seq\":\"\($0.output.1)\"" })
        case .newerSchema:
            try write(text.replacing(#/"schemaVersion":\s*1/#, with: "\"schemaVersion\":99", maxReplacements: 1))
        case .otherDevice:
            try write(text.replacingOccurrences(of: fixture.device, with: UUID().uuidString.lowercased()))
        case .rangeDoesNotMatchName:
            // Same content under a name that claims one event fewer.
            let name = ReliabilityPath.last(path)
            let parts = name.dropLast(5).split(separator: "-")
            let last = try #require(Int(parts[1]))
            let padded = String(last - 1)
            let zeros = String(repeating: "0", count: max(0, 12 - padded.count))
            let renamed = ReliabilityPath.parent(path) + "/" + "\(parts[0])-\(zeros)\(padded)-\(parts[2]).json"
            try FileManager.default.moveItem(atPath: path, toPath: renamed)
            return renamed
        case .directory:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .symlink:
            let target = fixture.home.path + "/elsewhere-segment.json"
            try FileManager.default.moveItem(atPath: path, toPath: target)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        case .fifo:
            try FileManager.default.removeItem(atPath: path)
            try #require(mkfifo(path, 0o600) == 0)
        }
        return path
    }
}

// MARK: - Fixture

/// A store written by the real binary: three check-ins at different times, so identity.json,
/// log.json and log.json.bak all exist.
struct ReliabilityFixture {
    let home: TempHome
    let member: String
    let device: String

    var identity: String { home.path + "/identity.json" }
    var memberDirectory: String { home.path + "/circle/members/" + member }
    /// This device's published folder in the circle.
    var deviceDirectory: String { memberDirectory + "/" + device }
    var publishedLog: String { deviceDirectory + "/log.json" }
    /// This device's own records: the private, authoritative copy in the data directory.
    var ownDirectory: String { home.path + "/own" }
    var log: String { ownDirectory + "/log.json" }
    var feed: String { ownDirectory + "/feed.json" }
    var archiveDirectory: String { ownDirectory + "/archive" }

    /// A copy of this device's log as the log of another device of the same member, with
    /// `damage` applied; returns its path.
    func anotherDevicesLog(damaged damage: StoreDamage) throws -> String {
        let otherDevice = UUID().uuidString.lowercased()
        let otherDirectory = memberDirectory + "/" + otherDevice
        try FileManager.default.createDirectory(atPath: otherDirectory, withIntermediateDirectories: false)
        let other = otherDirectory + "/log.json"
        let text = try String(contentsOfFile: log, encoding: .utf8).replacingOccurrences(of: device, with: otherDevice)
        try Data(text.utf8).write(to: URL(fileURLWithPath: other))
        try damage.apply(to: other, fixture: self)
        return other
    }

    /// Check-ins in the synthetic log that `growPastArchive` writes before its one check-in.
    static let syntheticCheckIns = 197
    static let checkInsAfterGrowth = syntheticCheckIns + 1

    static func make() throws -> ReliabilityFixture {
        let home = TempHome()
        for (i, time) in ["2026-02-27T08:00:00Z", "2026-02-28T08:30:00Z", "2026-03-01T08:45:00Z"].enumerated() {
            let run = home.run(["checkin", "--note", "n\(i)"], now: time)
            try #require(run.code == 0, "fixture check-in failed: \(run.stderr)")
        }
        let identity =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json")))
            as? [String: Any]
        let member = try #require(identity?["member"] as? String)
        let device = try #require(identity?["device"] as? String)
        return ReliabilityFixture(home: home, member: member, device: device)
    }

    /// Replaces log.json with a valid log of 3 profile events and `checkIns` check-ins, in
    /// the format the store writes, so a test reaches the archive limit without hundreds of
    /// runs. The events are a minute apart, ending before the fixture's default `now`.
    func writeSyntheticLog(checkIns: Int) throws {
        let formatter = ISO8601DateFormatter()
        let start = Date(timeIntervalSince1970: 1_772_236_800)  // 2026-02-28T00:00:00Z
        func at(_ seq: Int) -> String { formatter.string(from: start.addingTimeInterval(Double(seq) * 60)) }
        var events = [
            #"{"seq": 1, "at": "\#(at(1))", "clock": 1, "type": "nameSet", "name": "Synthetic"}"#,
            #"{"seq": 2, "at": "\#(at(2))", "clock": 2, "type": "intervalSet", "seconds": 86400}"#,
            #"{"seq": 3, "at": "\#(at(3))", "clock": 3, "type": "reminderSet", "seconds": 1800}"#,
        ]
        for seq in 4..<(4 + checkIns) {
            events.append(
                #"{"seq": \#(seq), "at": "\#(at(seq))", "clock": \#(seq), "type": "checkIn", "note": "s\#(seq)"}"#)
        }
        let last = 3 + checkIns
        let log = """
            {
              "schemaVersion": 1,
              "member": "\(member)",
              "device": "\(device)",
              "lastSeq": \(last),
              "archivedThrough": 0,
              "clock": \(last),
              "state": {
                "name": {"value": "Synthetic", "at": "\(at(1))", "clock": 1, "seq": 1},
                "interval": {"seconds": 86400, "at": "\(at(2))", "clock": 2, "seq": 2},
                "reminder": {"seconds": 1800, "at": "\(at(3))", "clock": 3, "seq": 3},
                "lastCheckIn": {"at": "\(at(last))", "clock": \(last), "seq": \(last), "note": "s\(last)"},
                "checkIns": \(checkIns),
                "relations": [],
                "externals": [],
                "pings": []
              },
              "events": [
                \(events.joined(separator: ",\n    "))
              ]
            }

            """
        // Both copies, as the store would have written them (the private one becomes
        // log.json.bak on the next save).
        for path in [self.log, publishedLog] {
            try Data(log.utf8).write(to: URL(fileURLWithPath: path))
            try #require(chmod(path, 0o600) == 0)
        }
    }

    /// A log at the archive limit plus one check-in: one segment and a short tail.
    func growPastArchive() throws {
        try writeSyntheticLog(checkIns: Self.syntheticCheckIns)
        let run = home.run(["checkin", "--note", "grown"])
        try #require(run.code == 0, "\(run.stderr)")
    }

    func segments() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: archiveDirectory).filter { $0.hasSuffix(".json") }.sorted()
    }
}

// MARK: - Snapshots and bounded runs (shared with ConcurrencyTests)

/// Every entry under a directory: kind, mode, inode and, for regular files, the bytes. Two
/// equal snapshots mean nothing was written, renamed, created or removed.
struct StoreSnapshot: Equatable {
    struct Entry: Equatable {
        var kind: String
        var mode: UInt32
        var inode: UInt64
        var contents: Data?
        var linkTarget: String?
    }

    var entries: [String: Entry] = [:]

    /// The same, without the files named `name`.
    func excluding(_ name: String) -> StoreSnapshot {
        var copy = self
        copy.entries = entries.filter { !$0.key.hasSuffix("/" + name) }
        return copy
    }

    init(_ root: String) {
        func walk(_ directory: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            for name in names {
                let path = directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                var entry = Entry(kind: "other", mode: UInt32(info.st_mode) & 0o7777, inode: UInt64(info.st_ino))
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    entry.kind = "file"
                    entry.contents = FileManager.default.contents(atPath: path)
                case S_IFDIR: entry.kind = "directory"
                case S_IFLNK:
                    entry.kind = "symlink"
                    entry.linkTarget = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
                case S_IFIFO: entry.kind = "fifo"
                default: break
                }
                entries[path] = entry
                if entry.kind == "directory" { walk(path) }
            }
        }
        walk(root)
    }

    func difference(from other: StoreSnapshot) -> String {
        let keys = Set(entries.keys).union(other.entries.keys).sorted()
        return keys.filter { entries[$0] != other.entries[$0] }.map { key in
            switch (entries[key], other.entries[key]) {
            case (nil, _): return "+ \(key)"
            case (_, nil): return "- \(key)"
            default: return "~ \(key)"
            }
        }.joined(separator: ", ")
    }
}

enum ReliabilityPath {
    static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
    static func parent(_ path: String) -> String { String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }
}

/// The outcome of a bounded run: like `Run`, plus whether it had to be killed and whether it
/// died of a signal (then `code` is 128 + the signal).
struct BoundedRun {
    var stdout: String
    var stderr: String
    var code: Int32
    var timedOut: Bool
    var signaled: Bool
    var seconds: Double
}

/// A started lifesignal (or other) process whose output goes to files; wait for it later, so
/// that many can be started before any is waited for.
final class SpawnedRun {
    let process = Process()
    private let scratch: URL

    init(_ arguments: [String], environment: [String: String], executable: String = Binary.path) throws {
        scratch = Scratch.root.appendingPathComponent("lifesignal-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        // The end is stamped by Foundation's own thread when the child exits, so a test runner
        // whose threads are all busy elsewhere does not add its own delay to the child's time.
        let ended = ended
        process.terminationHandler = { _ in ended.stamp() }
        started = Date()
        try process.run()
    }

    private var started: Date
    private let ended = EndStamp()

    var pid: Int32 { process.processIdentifier }

    func kill(_ signal: Int32 = SIGKILL) {
        guard process.isRunning else { return }
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, signal)
        #else
            _ = Darwin.kill(process.processIdentifier, signal)
        #endif
    }

    /// Waits (suspending, so a long wait does not hold one of the test runner's few threads)
    /// until the process has ended or `timeout` seconds have passed; then `wait` reports it.
    func settled(timeout: Double) async {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }

    /// Waits up to `timeout` seconds; a process still running then is killed and reported.
    func wait(timeout: Double = 120) -> BoundedRun {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill()
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let seconds = ended.waitForStamp().timeIntervalSince(started)
        let stdout = (try? String(contentsOf: scratch.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: scratch.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: scratch)
        let signaled = process.terminationReason == .uncaughtSignal
        let code = signaled ? 128 + process.terminationStatus : process.terminationStatus
        return BoundedRun(
            stdout: stdout, stderr: stderr, code: code, timedOut: timedOut, signaled: signaled, seconds: seconds)
    }
}

/// When a spawned child ended, as Foundation's termination handler saw it.
private final class EndStamp: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date?

    func stamp() { lock.withLock { date = Date() } }

    /// The stamp, once the handler has run (it may run just after `waitUntilExit` returns);
    /// the present moment if it has not run within a second.
    func waitForStamp() -> Date {
        for _ in 0..<500 {
            if let date = lock.withLock({ date }) { return date }
            usleep(2_000)
        }
        return Date()
    }
}

/// The environment `TempHome.run` uses, for processes started with `SpawnedRun`.
func lifesignalEnvironment(_ home: TempHome, now: String? = "2026-03-01T09:00:00Z", _ extra: [String: String] = [:])
    -> [String: String]
{
    var environment = [
        "LIFESIGNAL_HOME": home.path, "TZ": "UTC", "COLUMNS": "80", "PATH": "/usr/bin:/bin", "HOME": home.path,
    ]
    if let now { environment["LIFESIGNAL_NOW"] = now }
    for (key, value) in extra { environment[key] = value }
    return environment
}

/// Runs lifesignal and kills it after `timeout` seconds (a FIFO must never hang a command).
func runBounded(_ home: TempHome, _ arguments: [String], now: String? = "2026-03-01T09:00:00Z", timeout: Double = 10)
    -> BoundedRun
{
    do {
        return try SpawnedRun(arguments, environment: lifesignalEnvironment(home, now: now)).wait(timeout: timeout)
    } catch {
        return BoundedRun(
            stdout: "", stderr: "could not start lifesignal: \(error)", code: -1, timedOut: false, signaled: false,
            seconds: 0)
    }
}
