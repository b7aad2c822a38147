import Foundation
import Testing

/// A responder's view of someone they watch over who may be in trouble: in an alert, past their
/// deadline, or unknown because their records cannot be read here. They are listed first, and
/// `status` exits 6 for them, so `lifesignal status || page-me` works for responders too.
@Suite struct DependentAttentionTests {
    /// Ana watches over Bea; both checked in at 09:00; Ana has a channel that logs.
    func household() -> Household {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T08:00:00Z")
        h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T08:00:00Z")
        h.run("ana", ["notify", "prefs", "--channel", h.logChannel("ana.log")], now: "2026-03-01T08:00:00Z")
        h.run("ana", ["contacts", "add", "Sam", "--responder", "--notify", "exec:true"], now: "2026-03-01T08:00:00Z")
        for person in ["ana", "bea"] { h.run(person, ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z") }
        return h
    }

    func beasLog(_ h: Household) throws -> String {
        let members = h.circle + "/members"
        for member in try FileManager.default.contentsOfDirectory(atPath: members) {
            for device in try FileManager.default.contentsOfDirectory(atPath: members + "/" + member) {
                let log = "\(members)/\(member)/\(device)/log.json"
                if (try? String(contentsOfFile: log, encoding: .utf8))?.contains("\"Bea\"") == true { return log }
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test func aDependentInAnAlertOrOverdueMakesStatusExitSix() {
        let h = household()
        #expect(h.run("ana", ["status"], now: "2026-03-01T12:00:00Z").code == 0)
        h.run("bea", ["alert", "activate", "--yes", "--quiet"], now: "2026-03-01T12:00:00Z")
        let alert = h.run("ana", ["status"], now: "2026-03-01T12:05:00Z")
        #expect(alert.code == 6, "\(alert.stderr)")
        #expect(alert.stdout.contains("Needs attention\n  Bea           Sent out an alert 5m ago"), "\(alert.stdout)")
        // Ending the alert checks Bea in (due again 2026-03-02 12:10).
        h.run("bea", ["alert", "deactivate", "--yes", "--quiet"], now: "2026-03-01T12:10:00Z")
        // Ana checks in the next morning; Bea does not: Bea is overdue, Ana is on time.
        h.run("ana", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z")
        let overdue = h.run("ana", ["status"], now: "2026-03-02T13:10:00Z")
        #expect(overdue.code == 6)
        #expect(overdue.stdout.contains("Bea           Non-responsive 1h ago"), "\(overdue.stdout)")
    }

    /// A dependent whose folder vanished from the circle: unreadable since a time this reader
    /// cannot know, said so, never "for 20606d" counted from 1970 (#43 item 2).
    @Test func aVanishedDependentIsUnreadableSinceAnUnknownTime() throws {
        let h = household()
        let folder = ((try beasLog(h)) as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
        let list = h.run("ana", ["contacts", "list"], now: "2026-03-01T12:00:00Z")
        // (Her name was in her records: she is shown by id.)
        let line = list.stdout.split(separator: "\n").first { $0.contains("Dependent") } ?? ""
        #expect(line.contains("Records unreadable (since an unknown time)"), "\(list.stdout)")
        #expect(!list.stdout.contains("unreadable for"), "no age counted from 1970: \(list.stdout)")
        let json = jsonObject(h.run("ana", ["contacts", "list", "--json"], now: "2026-03-01T12:00:00Z").stdout)
        let bea = (json["contacts"] as? [[String: Any]])?.first { $0["kind"] as? String == "member" }
        let status = bea?["status"] as? [String: Any]
        #expect(
            status?["kind"] as? String == "unreadable" && status?["since"] is NSNull, "\(String(describing: status))")
    }

    @Test func aDependentWhoseRecordsCannotBeReadNeedsAttention() throws {
        let h = household()
        let log = try beasLog(h)
        try Data("{ half a log".utf8).write(to: URL(fileURLWithPath: log))
        let status = h.run("ana", ["status"], now: "2026-03-01T12:00:00Z")
        #expect(status.code == 6, "\(status.stderr)")
        #expect(status.stdout.contains("Needs attention\n"), "\(status.stdout)")
        #expect(status.stdout.contains("Records unreadable"), "\(status.stdout)")
        #expect(status.stderr.contains(log), "the warning names the file: \(status.stderr)")
        let json = jsonObject(h.run("ana", ["status", "--json"], now: "2026-03-01T12:00:00Z").stdout)
        let attention = json["needsAttention"] as? [[String: Any]] ?? []
        #expect(attention.map { ($0["status"] as? [String: Any])?["kind"] as? String } == ["unreadable"])
        let list = h.run("ana", ["contacts", "list"], now: "2026-03-01T12:00:00Z")
        #expect(list.stdout.split(separator: "\n").dropFirst().first?.contains("Records unreadable") == true)

        // Told once by deliver, again on a later day while it lasts.
        for now in ["2026-03-01T12:00:00Z", "2026-03-01T12:05:00Z", "2026-03-02T12:00:00Z"] {
            #expect(h.run("ana", ["notify", "deliver"], now: now).code == 0)
        }
        #expect(h.types("ana.log").filter { $0 == "receive_dependent_records_unreadable" }.count == 2)

        // Bea's next write puts her good records back (her own copy is intact): Ana is calm.
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-02T12:00:00Z").code == 0)
        #expect(h.run("ana", ["checkin", "--quiet"], now: "2026-03-02T12:00:00Z").code == 0)
        #expect(h.run("ana", ["status"], now: "2026-03-02T12:01:00Z").code == 0)
    }

    /// Bea, overdue, answers Ana's ping: an answer to one ping is no check-in, and the miss goes
    /// on. The command says so, with the way out (campaign-c C2).
    @Test func answeringOnePingWhileOverdueSaysTheMissGoesOn() {
        let h = household()
        #expect(h.run("ana", ["ping", "send", "Bea"], now: "2026-03-02T09:20:00Z").code == 0)
        let answered = h.run("bea", ["ping", "respond", "Ana"], now: "2026-03-02T09:40:00Z")
        #expect(answered.code == 0, "\(answered.stderr)")
        #expect(
            answered.stdout.hasSuffix(
                "You are overdue since 2026-03-02 09:00 UTC (40m ago): answering a ping is not a check-in, so your responders go on being told you missed it. Check in with 'lifesignal checkin'.\n"
            ), "\(answered.stdout)")
        #expect(h.run("bea", ["checkin", "status"], now: "2026-03-02T09:40:00Z").code == 4)
    }
}
