import Foundation
import Testing

/// This device's own records live in its data directory (`own/`); the circle holds a published
/// copy. Whatever a sync engine or a person does to the circle — roll the copy back, damage it,
/// delete the member's folder, move the circle away — acknowledged check-ins are never lost and
/// nothing quietly starts over: the copy is published again, or the command stops and says why.
@Suite struct OwnRecordsTests {
    func checkIns(_ fixture: ReliabilityFixture, _ count: Int) throws {
        for i in 0..<count {
            let run = fixture.home.run(["checkin", "--note", "c\(i)"], now: "2026-03-01T1\(i):00:00Z")
            try #require(run.code == 0, "\(run.stderr)")
        }
    }

    func historyNotes(_ fixture: ReliabilityFixture) -> [String] {
        let json = jsonObject(fixture.home.run(["checkin", "history", "--limit", "1000", "--json"]).stdout)
        return (json["checkIns"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aPublishedCopyRolledBackThreeCheckInsIsPublishedAgainAndNothingIsLost() throws {
        let fixture = try ReliabilityFixture.make()
        let old = try #require(bytes(fixture.publishedLog))
        try checkIns(fixture, 3)
        try old.write(to: URL(fileURLWithPath: fixture.publishedLog))

        let status = fixture.home.run(["checkin", "status"], now: "2026-03-01T13:30:00Z")
        #expect(status.code == 0, "\(status.stderr)")
        #expect(status.stdout.contains("2026-03-01 12:00"), "the deadline moved back: \(status.stdout)")
        #expect(status.stderr.contains("the circle held an older copy of your records"), "\(status.stderr)")
        #expect(status.stderr.contains("the next write"), "\(status.stderr)")
        #expect(historyNotes(fixture).prefix(3) == ["c2", "c1", "c0"])

        let deliver = fixture.home.run(["notify", "deliver"], now: "2026-03-01T13:31:00Z")
        #expect(deliver.code == 0, "\(deliver.stderr)")
        #expect(deliver.stderr.contains("was published again"), "\(deliver.stderr)")
        #expect(bytes(fixture.publishedLog) == bytes(fixture.log))
        // Said once: the next run finds the copy current.
        #expect(fixture.home.run(["checkin", "status"], now: "2026-03-01T13:32:00Z").stderr == "")
    }

    /// A write that published the log but not the feed (here a folder sits where the circle's
    /// feed.json goes) leaves the circle behind although its log is current: the next write
    /// publishes the feed again, so this member's other devices see what was delivered.
    @Test func aFeedThatMissedTheCircleGoesAgainWithTheNextWrite() throws {
        let fixture = try ReliabilityFixture.make()
        let ownFeed = fixture.home.path + "/own/feed.json"
        let publishedFeed = fixture.deviceDirectory + "/feed.json"
        try? FileManager.default.removeItem(atPath: publishedFeed)
        try FileManager.default.createDirectory(
            atPath: publishedFeed + "/in-the-way", withIntermediateDirectories: true)
        let deliver = fixture.home.run(["notify", "deliver"], now: "2026-03-02T08:20:00Z")
        #expect(deliver.code == 74, "\(deliver.stderr)")
        #expect(deliver.stderr.contains("\(publishedFeed): Is a directory"), "\(deliver.stderr)")
        try FileManager.default.removeItem(atPath: publishedFeed)
        let checkin = fixture.home.run(["checkin"], now: "2026-03-02T08:25:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(bytes(publishedFeed) != nil && bytes(publishedFeed) == bytes(ownFeed), "the circle's feed is behind")
        #expect(!FileManager.default.fileExists(atPath: fixture.home.path + "/own/circle-behind"))
    }

    /// When nothing can be recorded (a folder where the log's backup goes; on a bad day, a full
    /// disk), deliver says what became of what was due: none of it could be sent (its one
    /// channel fails), or nothing was due at all, never "Still, 0 … were sent".
    @Test func nothingRecordedSaysWhatBecameOfWhatWasDue() throws {
        let fixture = try ReliabilityFixture.make()
        let prefs = fixture.home.run(["notify", "prefs", "--channel", "exec:false"], now: "2026-03-01T09:00:00Z")
        #expect(prefs.code == 0, "\(prefs.stderr)")
        let backup = fixture.log + ".bak"
        try? FileManager.default.removeItem(atPath: backup)
        try FileManager.default.createDirectory(atPath: backup + "/x", withIntermediateDirectories: true)
        let idle = fixture.home.run(["notify", "deliver"], now: "2026-03-01T09:05:00Z")
        #expect(idle.code == 74, "\(idle.stderr)")
        #expect(!idle.stderr.contains("Still,") && !idle.stderr.contains("None of"), "\(idle.stderr)")
        let due = fixture.home.run(["notify", "deliver"], now: "2026-03-02T08:20:00Z")
        #expect(due.code == 74, "\(due.stderr)")
        #expect(
            due.stderr.contains("None of the 1 notification that was due could be sent either; they are tried again"),
            "\(due.stderr)")
        #expect(!due.stderr.contains("Still,"), "\(due.stderr)")
    }

    @Test func aDamagedPublishedCopyIsPublishedAgainNotAStop() throws {
        let fixture = try ReliabilityFixture.make()
        try Data("garbage from a peer".utf8).write(to: URL(fileURLWithPath: fixture.publishedLog))
        let status = fixture.home.run(["status"])
        #expect(status.code == 0, "\(status.stderr)")
        #expect(status.stderr.contains("the circle's copy of your records is damaged"), "\(status.stderr)")
        let checkin = fixture.home.run(["checkin", "--note", "after"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("was published again"), "\(checkin.stderr)")
        #expect(bytes(fixture.publishedLog) == bytes(fixture.log))
        #expect(historyNotes(fixture) == ["after", "n2", "n1", "n0"])
    }

    @Test func aDeletedMemberFolderIsPublishedAgainWithItsHistory() throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        try FileManager.default.removeItem(atPath: fixture.memberDirectory)
        let status = fixture.home.run(["checkin", "status"])
        #expect([0, 3].contains(status.code), "\(status.stderr)")
        #expect(!status.stdout.contains("no check-in yet"), "\(status.stdout)")
        #expect(status.stderr.contains("your records were missing from the circle"), "\(status.stderr)")
        #expect(historyNotes(fixture).count == ReliabilityFixture.checkInsAfterGrowth)
        let checkin = fixture.home.run(["checkin"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(bytes(fixture.publishedLog) == bytes(fixture.log))
        let published = try FileManager.default.contentsOfDirectory(atPath: fixture.deviceDirectory + "/archive")
        #expect(published.sorted() == (try fixture.segments()), "the archive was not published again")
    }

    @Test func aMissingCircleFolderStopsAndIsNeverRecreated() throws {
        let home = TempHome()
        let circle = home.path + "/sync/family-circle"
        #expect(home.run(["init", "--name", "Ana", "--circle", circle]).code == 0)
        #expect(home.run(["checkin"]).code == 0)
        try FileManager.default.moveItem(atPath: circle, toPath: home.path + "/sync/moved")
        for command in [["status"], ["checkin"], ["notify", "deliver"]] {
            let run = home.run(command, now: "2026-03-01T10:00:00Z")
            #expect(run.code == 66, "\(command): \(run.code) \(run.stderr)")
            #expect(run.stderr.contains("the circle folder \(circle) is missing"), "\(run.stderr)")
            #expect(run.stderr.contains("lifesignal init --circle"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: circle), "the circle was recreated")
    }

    @Test func aFlippedDigitInTheIdentityIsRefusedNotANewProfile() throws {
        let fixture = try ReliabilityFixture.make()
        let text = try String(contentsOfFile: fixture.identity, encoding: .utf8)
        let last = fixture.member.last == "0" ? "1" : "0"
        let flipped = String(fixture.member.dropLast()) + last
        try Data(text.replacingOccurrences(of: fixture.member, with: flipped).utf8).write(
            to: URL(fileURLWithPath: fixture.identity))
        let before = StoreSnapshot(fixture.home.path)
        for command in [["status"], ["checkin"], ["notify", "deliver"]] {
            let run = fixture.home.run(command, now: "2026-03-01T10:00:00Z")
            #expect(run.code == 65, "\(command): \(run.code) \(run.stderr)")
            #expect(run.stderr.contains("\(fixture.identity) names member \(flipped)"), "\(run.stderr)")
            #expect(run.stderr.contains("Nothing was changed"), "\(run.stderr)")
        }
        #expect(StoreSnapshot(fixture.home.path) == before)
    }

    /// This machine's own copy put back from an older backup while the circle holds the newer
    /// one (or a second data directory writing as this device, or a peer who changed the
    /// circle's copy): the own copy is the authority. A read says so; a write records the
    /// check-in, publishes the own copy again and says what it replaced.
    @Test func anOwnCopyBehindThePublishedOneIsPublishedAgainLoudly() throws {
        let fixture = try ReliabilityFixture.make()
        let old = try #require(bytes(fixture.log))
        try checkIns(fixture, 2)
        try old.write(to: URL(fileURLWithPath: fixture.log))
        let status = fixture.home.run(["status"], now: "2026-03-01T12:00:00Z")
        #expect(
            status.stderr.contains("is not this machine's: it is ahead of this machine's own copy"), "\(status.stderr)")
        #expect(status.stderr.contains("the next write"), "\(status.stderr)")
        let checkin = fixture.home.run(["checkin", "--note", "after the restore"], now: "2026-03-01T12:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("this machine's own copy was published again"), "\(checkin.stderr)")
        #expect(bytes(fixture.log) == bytes(fixture.publishedLog))
        #expect(historyNotes(fixture).first == "after the restore")
    }

    /// A data directory written by a lifesignal that kept no private copy adopts its published
    /// records, archive included, on the next write.
    @Test func aDirectoryWithoutAPrivateCopyAdoptsItsPublishedRecords() throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        try FileManager.default.removeItem(atPath: fixture.ownDirectory)
        #expect(historyNotes(fixture).count == ReliabilityFixture.checkInsAfterGrowth)
        let checkin = fixture.home.run(["checkin", "--note", "adopted"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        // Nothing about the adoption; only the doubts about who watches (no cron ran in the fixture).
        #expect(checkin.stderr.hasPrefix(noRespondersWarning), "\(checkin.stderr)")
        #expect(!checkin.stderr.contains("circle"), "\(checkin.stderr)")
        #expect(bytes(fixture.log) == bytes(fixture.publishedLog))
        #expect(!(try fixture.segments()).isEmpty)
        #expect(historyNotes(fixture).count == ReliabilityFixture.checkInsAfterGrowth + 1)
    }

    /// A segment lost from this machine's archive is read from the circle's copy: history stays
    /// whole. Lost from both, history says which events are missing instead of quietly ending.
    @Test func aLostArchiveSegmentIsReadFromTheCircleOrSaid() throws {
        let fixture = try ReliabilityFixture.make()
        try fixture.growPastArchive()
        let segment = try #require(try fixture.segments().first)
        try FileManager.default.removeItem(atPath: fixture.archiveDirectory + "/" + segment)
        #expect(historyNotes(fixture).count == ReliabilityFixture.checkInsAfterGrowth)
        try FileManager.default.removeItem(atPath: fixture.deviceDirectory + "/archive/" + segment)
        let history = fixture.home.run(["checkin", "history", "--limit", "1000"])
        #expect(history.code == 0, "\(history.stderr)")
        #expect(history.stderr.contains("events 1–"), "\(history.stderr)")
        #expect(history.stderr.contains("are in no archive file"), "\(history.stderr)")
        let json = fixture.home.run(["checkin", "history", "--json"])
        #expect(json.stderr.contains(#""code":"history-incomplete""#), "\(json.stderr)")
    }

    /// A crash while a write puts the new text over the backup's own file leaves the backup
    /// torn and the log whole: the next write makes the backup the previous log again, and a
    /// torn backup is never named as the copy to restore a damaged log from.
    @Test func aBackupTornByACrashIsMendedByTheNextWriteAndNeverOffered() throws {
        let fixture = try ReliabilityFixture.make()
        let backup = fixture.log + ".bak"
        func tear() throws {
            var text = try #require(bytes(backup))
            text.replaceSubrange(text.count / 2..<text.count, with: Data(count: text.count - text.count / 2))
            try text.write(to: URL(fileURLWithPath: backup))
        }
        try tear()
        let before = try #require(bytes(fixture.log))
        let checkin = fixture.home.run(["checkin", "--note", "after"], now: "2026-03-01T10:00:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        #expect(bytes(backup) == before)
        #expect(historyNotes(fixture) == ["after", "n2", "n1", "n0"])

        // A damaged log is read from the copy this device signed that still verifies: the
        // circle's, never the torn backup.
        try tear()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: fixture.log))
        let status = fixture.home.run(["status"])
        #expect(status.code == 0, "\(status.stderr)")
        #expect(
            status.stderr.contains("are damaged") && status.stderr.contains(fixture.publishedLog), "\(status.stderr)")
        #expect(!status.stderr.contains(backup), "\(status.stderr)")
        // With no copy that verifies, it stops, naming the file.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: fixture.publishedLog))
        let stopped = fixture.home.run(["status"])
        #expect(stopped.code == 65, "\(stopped.stderr)")
        #expect(stopped.stderr.contains(fixture.log), "\(stopped.stderr)")
    }

    /// An alert whose log is recorded but whose feed cannot be written (here its backup's name
    /// is taken by a folder; on a bad day, a full disk) is not reported as "nothing was
    /// recorded": it is kept, delivered at once all the same, and the run says what is missing.
    @Test func anAlertRecordedWhoseFeedCannotBeWrittenIsStillDelivered() throws {
        let fixture = try ReliabilityFixture.make()
        let sam = fixture.home.path + "/sam.log"
        let add = ["contacts", "add", "Sam", "--responder", "--notify", "exec:cat >> '\(sam)'", "--quiet"]
        #expect(fixture.home.run(add, now: "2026-03-01T09:00:00Z").code == 0)
        #expect(fixture.home.run(["notify", "deliver"], now: "2026-03-01T09:01:00Z").code == 0)
        #expect(fixture.home.run(["notify", "read", "--all"], now: "2026-03-01T09:02:00Z").code == 0)
        try? FileManager.default.removeItem(atPath: fixture.feed + ".bak")
        try FileManager.default.createDirectory(atPath: fixture.feed + ".bak/x", withIntermediateDirectories: true)

        let alert = fixture.home.run(
            ["alert", "activate", "--message", "fell on the ice", "--yes"], now: "2026-03-01T09:03:00Z")
        #expect(alert.code == 74, "\(alert.stderr)")
        #expect(alert.stdout.contains("Emergency alert activated"), "\(alert.stdout)")
        #expect(alert.stderr.contains("it was recorded on this machine, but its notifications could not be written"))
        #expect(!alert.stderr.contains("nothing was recorded"), "\(alert.stderr)")
        #expect(((try? String(contentsOfFile: sam, encoding: .utf8)) ?? "").contains("fell on the ice"))
        #expect(((try? String(contentsOfFile: fixture.log, encoding: .utf8)) ?? "").contains("fell on the ice"))
    }

    /// This machine's feed missing while its backup is there is damage, never an empty feed
    /// (which the next write would publish over the circle's copy).
    @Test func aMissingFeedWithItsBackupIsDamageNotAnEmptyFeed() throws {
        let fixture = try ReliabilityFixture.make()
        // Two writes of the feed: the second keeps the first as feed.json.bak.
        #expect(fixture.home.run(["notify", "deliver"], now: "2026-03-02T08:20:00Z").code == 0)
        #expect(fixture.home.run(["notify", "read", "--all"], now: "2026-03-02T08:21:00Z").code == 0)
        #expect(FileManager.default.fileExists(atPath: fixture.feed + ".bak"))
        let published = try #require(bytes(fixture.deviceDirectory + "/feed.json"))
        try FileManager.default.removeItem(atPath: fixture.feed)
        for command in [["notify", "list"], ["notify", "deliver"]] {
            let run = fixture.home.run(command, now: "2026-03-02T08:22:00Z")
            #expect(run.code == 65, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("\(fixture.feed) is damaged: it is missing although its backup exists"))
        }
        #expect(bytes(fixture.deviceDirectory + "/feed.json") == published, "the circle's copy was written over")
    }
}
