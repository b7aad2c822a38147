import Foundation
import LifeSignalCore
import Testing

/// Records only their owner could have written: the attacks of the issue — a device made with
/// Ana's public invite code, a hand-made identity naming her, an edit of her log — change nothing
/// that Bea, who watches over her, believes, and both are told; a device Ana enrolls counts, an
/// enrollment code works once, a revoked device's later records do not count, her recovery code
/// makes a device when all are lost, and a circle of an older lifesignal keeps every record.
@Suite struct TrustTests {
    let family = Family()
    static let later = "2026-03-02T10:00:00Z"

    /// Ana checks in at 09:00 (deadline the next day 09:00); Bea watches over her.
    func anaWatchedByBea() {
        family.join("ana", "bea")
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        #expect(family.run("bea", ["status", "--quiet"]).code == 0)
    }

    /// Ana as Bea's `contacts list --json` shows her: her status and last check-in.
    func anaAsBeaSees(_ now: String) -> (kind: String?, lastCheckIn: String?, run: Run) {
        let run = family.run("bea", ["contacts", "list", "--json"], now: now)
        let contacts = jsonObject(run.stdout)["contacts"] as? [[String: Any]] ?? []
        // Ana is Bea's one member contact (named by her id when none of her records count).
        let status = contacts.first { $0["kind"] as? String == "member" }?["status"] as? [String: Any]
        let checkIn = status?["checkIn"] as? [String: Any]
        let last = checkIn?["lastCheckIn"] as? [String: Any]
        return (status?["kind"] as? String, last?["at"] as? String, run)
    }

    /// Bea still sees Ana as she was (last check-in 09:00, overdue the next day), exits 6 and is
    /// told that records in Ana's folder are ignored; Ana is told a device claims to be her.
    func nothingBelievedAndBothTold(forged device: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-01T09:00:00Z", "\(seen.run.stdout)", sourceLocation: sourceLocation)
        #expect(seen.kind == "nonResponsive", "\(seen.run.stdout)", sourceLocation: sourceLocation)
        let (ana, _) = family.identity("ana")
        let path = "\(family.circle)/members/\(ana)/\(device)/log.json"
        let bea = family.run("bea", ["status"], now: Self.later)
        #expect(bea.code == 6, "\(bea.stderr)", sourceLocation: sourceLocation)
        #expect(
            bea.stderr.contains("records in Ana's folder are not signed by any device of Ana's (\(path)"),
            "\(bea.stderr)", sourceLocation: sourceLocation)
        let json = family.run("bea", ["status", "--json"], now: Self.later)
        #expect(json.stderr.contains(#""code":"records-not-signed""#), "\(json.stderr)", sourceLocation: sourceLocation)
        let mine = family.run("ana", ["status"], now: "2026-03-01T10:00:00Z")
        #expect(mine.code == 6, "\(mine.stderr)", sourceLocation: sourceLocation)
        #expect(
            mine.stderr.contains("a device that is not yours claims to be you: \(path)"), "\(mine.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            jsonObject(family.run("ana", ["checkin", "status", "--json"], now: "2026-03-01T10:00:00Z").stdout)[
                "deadline"] as? String == "2026-03-02T09:00:00Z", sourceLocation: sourceLocation)
    }

    @Test func aHandMadeIdentityNamingAnaCountsForNothing() throws {
        anaWatchedByBea()
        let (ana, _) = family.identity("ana")
        let forged = "0f0f0f0f-0000-4000-8000-00000000f011"
        try FileManager.default.createDirectory(atPath: family.home("mal"), withIntermediateDirectories: true)
        let identity =
            #"{"schemaVersion": 1, "member": "\#(ana)", "device": "\#(forged)", "circle": "\#(family.circle)"}"#
        try Data(identity.utf8).write(to: URL(fileURLWithPath: family.home("mal") + "/identity.json"))
        let checkin = family.run("mal", ["checkin", "--note", "all fine"], now: "2026-03-02T08:50:00Z")
        #expect(checkin.code == 0, "\(checkin.stderr)")
        nothingBelievedAndBothTold(forged: forged)
        let doctor = family.run("ana", ["doctor", "--json"], now: "2026-03-01T10:00:00Z")
        #expect(doctor.code == 7)
        let checks = jsonObject(doctor.stdout)["checks"] as? [[String: Any]] ?? []
        #expect(checks.contains { $0["check"] as? String == "devices" && $0["code"] as? String == "device-not-yours" })
    }

    @Test func anEditedLogIsNotBelievedAndWhatWasVerifiedStands() throws {
        anaWatchedByBea()
        let (_, device) = family.identity("ana")
        let path = family.deviceFolder("ana") + "/log.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("2026-03-01T09:00:00Z"))
        text = text.replacingOccurrences(of: "2026-03-01T09:00:00Z", with: "2026-03-02T09:30:00Z")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // Bea read Ana's log before: what was verified then stands.
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-01T09:00:00Z", "\(seen.run.stdout)")
        #expect(seen.kind == "nonResponsive")
        let bea = family.run("bea", ["status"], now: Self.later)
        #expect(bea.code == 6)
        #expect(bea.stderr.contains("records in Ana's folder are not signed by any device of Ana's (\(path)"))
        #expect(bea.stderr.contains("what was verified of it before stands"), "\(bea.stderr)")
        // A reader that never verified Ana's log believes nothing of it, and says so.
        try FileManager.default.removeItem(atPath: family.home("bea") + "/cache.bin")
        let fresh = anaAsBeaSees(Self.later)
        #expect(fresh.kind == "unreadable", "\(fresh.run.stdout)")
        #expect(family.run("bea", ["status"], now: Self.later).code == 6)
        // Ana's own next write puts her signed copy back.
        let mine = family.run("ana", ["checkin", "status"], now: "2026-03-01T10:00:00Z")
        #expect(mine.stdout.contains("2026-03-02 09:00 UTC"), "\(mine.stdout)")
        _ = device
    }

    /// The git host puts Ana's older (validly signed) log back: Bea keeps what she verified.
    @Test func aRolledBackLogDoesNotUndoWhatWasVerified() throws {
        anaWatchedByBea()
        let path = family.deviceFolder("ana") + "/log.json"
        let older = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        #expect(anaAsBeaSees("2026-03-02T08:10:00Z").lastCheckIn == "2026-03-02T08:00:00Z")
        try older.write(to: URL(fileURLWithPath: path))
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-02T08:00:00Z", "\(seen.run.stdout)")
        let bea = family.run("bea", ["status"], now: Self.later)
        #expect(bea.code == 6)
        #expect(
            bea.stderr.contains("an older copy of Ana's records was put back in the circle (\(path)"), "\(bea.stderr)")
        let json = family.run("bea", ["status", "--json"], now: Self.later)
        #expect(json.stderr.contains(#""code":"records-rolled-back""#))
    }

    /// Ana's server, enrolled by her laptop, counts; the same code a second time does not.
    @Test func anEnrolledDeviceCountsAndACodeWorksOnce() throws {
        anaWatchedByBea()
        let code = jsonObject(family.run("ana", ["circle", "enroll", "--json"]).stdout)["code"] as? String ?? ""
        #expect(code.hasPrefix("lifesignal://enroll/"))
        #expect(family.run("server", ["init", "--circle", family.circle, "--member", code]).code == 0)
        let waiting = family.run("ana", ["status"], now: "2026-03-01T09:10:00Z")
        #expect(waiting.stderr.contains("asks to be enrolled with the code this device made"), "\(waiting.stderr)")
        #expect(waiting.code == 0)
        // Ana's cron job accepts it.
        #expect(family.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-01T09:20:00Z").code == 0)
        #expect(family.run("other", ["init", "--circle", family.circle, "--member", code]).code == 0)
        #expect(family.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-01T09:30:00Z").code == 0)
        #expect(family.run("server", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        #expect(family.run("other", ["checkin", "--quiet"], now: "2026-03-02T09:30:00Z").code == 0)
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-02T08:00:00Z", "\(seen.run.stdout)")
        #expect(seen.kind == "countdown", "\(seen.run.stdout)")
        let (_, other) = family.identity("other")
        let mine = family.run("ana", ["status"], now: "2026-03-02T09:40:00Z")
        #expect(mine.stderr.contains("a device that is not yours claims to be you:"), "\(mine.stderr)")
        #expect(mine.stderr.contains(other))
        let devices = jsonObject(family.run("ana", ["circle", "devices", "--json"]).stdout)
        let listed = (devices["members"] as? [[String: Any]])?.first?["devices"] as? [[String: Any]] ?? []
        #expect(listed.filter { $0["counts"] as? Bool == true }.count == 2)
        #expect(listed.first { $0["id"] as? String == other }?["standing"] as? String == "not-enrolled")
        // The new device vouched back for the one that enrolled it: that is not how Ana's first
        // device came, and the list does not say it was "enrolled by" its own enrollee.
        let (_, first) = family.identity("ana")
        #expect(listed.first { $0["id"] as? String == first }?["enrolledBy"] is NSNull, "\(devices)")
        let (_, server) = family.identity("server")
        #expect(listed.first { $0["id"] as? String == server }?["enrolledBy"] as? String == first)
        let listing = family.run("ana", ["circle", "devices"]).stdout
        #expect(listing.contains("(this device)  key ") && listing.contains("first device"), "\(listing)")
        #expect(family.run("bea", ["circle", "devices"]).stdout.contains("enrolled by"))
    }

    /// Two devices use one code before it is accepted: someone else saw it, so neither counts.
    @Test func aCodeUsedByTwoDevicesEnrollsNeither() throws {
        anaWatchedByBea()
        let code = jsonObject(family.run("ana", ["circle", "enroll", "--json"]).stdout)["code"] as? String ?? ""
        for device in ["server", "other"] {
            #expect(family.run(device, ["init", "--circle", family.circle, "--member", code]).code == 0)
        }
        let deliver = family.run("ana", ["notify", "deliver"], now: "2026-03-01T09:20:00Z")
        #expect(deliver.stderr.contains("was used by more than one device"), "\(deliver.stderr)")
        #expect(family.run("server", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        #expect(anaAsBeaSees(Self.later).lastCheckIn == "2026-03-01T09:00:00Z")
    }

    @Test func aRevokedDevicesLaterRecordsDoNotCount() throws {
        anaWatchedByBea()
        let code = jsonObject(family.run("ana", ["circle", "enroll", "--json"]).stdout)["code"] as? String ?? ""
        #expect(family.run("server", ["init", "--circle", family.circle, "--member", code]).code == 0)
        #expect(family.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-01T09:20:00Z").code == 0)
        #expect(family.run("server", ["checkin", "--quiet"], now: "2026-03-01T12:00:00Z").code == 0)
        #expect(anaAsBeaSees("2026-03-01T12:30:00Z").lastCheckIn == "2026-03-01T12:00:00Z")
        let (_, server) = family.identity("server")
        let refused = family.run("ana", ["circle", "revoke", family.identity("ana").device])
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("this device cannot revoke itself"))
        let revoked = family.run("ana", ["circle", "revoke", String(server.prefix(8))], now: "2026-03-01T13:00:00Z")
        #expect(revoked.code == 0, "\(revoked.stderr)")
        // Silent since: what it wrote before still counts.
        #expect(anaAsBeaSees("2026-03-01T13:30:00Z").lastCheckIn == "2026-03-01T12:00:00Z")
        // It writes again (stolen, say): nothing of it counts any more.
        #expect(family.run("server", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-01T09:00:00Z", "\(seen.run.stdout)")
        #expect(seen.kind == "nonResponsive")
        let bea = family.run("bea", ["status"], now: Self.later)
        #expect(bea.code == 6)
        #expect(bea.stderr.contains("revoked by device"), "\(bea.stderr)")
        let told = family.run("server", ["status"], now: Self.later)
        #expect(told.stderr.contains("this device was revoked by your device"), "\(told.stderr)")
        // Nor on the device that revoked it, which sees what Bea sees (its cache kept the trust
        // from before the revoke, and counted the revoked device's new check-in).
        let own = jsonObject(family.run("ana", ["checkin", "status", "--json"], now: Self.later).stdout)
        #expect((own["lastCheckIn"] as? [String: Any])?["at"] as? String == seen.lastCheckIn, "\(own)")
    }

    @Test func theRecoveryCodeMakesADeviceWhenAllAreLost() throws {
        family.join("bea")
        let setUp = family.run("ana", ["init", "--name", "Ana", "--circle", family.circle, "--json"])
        let recovery = jsonObject(setUp.stdout)["recoveryCode"] as? String ?? ""
        #expect(recovery.hasPrefix("lifesignal://recover/"))
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        #expect(family.run("bea", ["status", "--quiet"]).code == 0)
        // Ana's laptop is gone; her new one is set up with the code she wrote down.
        try FileManager.default.removeItem(atPath: family.home("ana"))
        let new = family.run("ana", ["init", "--circle", family.circle, "--member", recovery])
        #expect(new.code == 0, "\(new.stderr)")
        #expect(new.stdout.contains("This device speaks for Ana now."))
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-02T08:00:00Z").code == 0)
        let seen = anaAsBeaSees(Self.later)
        #expect(seen.lastCheckIn == "2026-03-02T08:00:00Z", "\(seen.run.stdout)")
        #expect(family.run("bea", ["status"], now: Self.later).code == 0)
        // A code no device of Ana's names is refused.
        let wrong = recovery.dropLast(4) + "0000"
        let refused = family.run("eve", ["init", "--circle", family.circle, "--member", String(wrong)])
        #expect(refused.code == 65)
        #expect(refused.stderr.contains("this recovery code is not the one Ana's devices name"))
    }

    /// Ana and Bea on an older lifesignal, linked; then each upgrades. Nothing is lost, the
    /// older version is said while it lasts, and once Ana signs, an unsigned file in her folder
    /// counts for nothing.
    @Test func anUpgradedCircleKeepsEveryRecord() throws {
        anaWatchedByBea()
        for hour in 10...12 {
            #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-01T\(hour):00:00Z").code == 0)
        }
        try Legacy.downgrade(home: family.home("ana"), folder: family.deviceFolder("ana"))
        try Legacy.downgrade(home: family.home("bea"), folder: family.deviceFolder("bea"))
        let unsigned = try String(contentsOfFile: family.deviceFolder("ana") + "/log.json", encoding: .utf8)
        // Bea upgrades first: Ana is believed as before, and said to run an older version.
        let bea = family.run("bea", ["status"], now: "2026-03-01T13:00:00Z")
        #expect(bea.code == 0, "\(bea.stderr)")
        #expect(bea.stderr.contains("Ana's device \(family.identity("ana").device) runs an older lifesignal"))
        #expect(anaAsBeaSees("2026-03-01T13:00:00Z").lastCheckIn == "2026-03-01T12:00:00Z")
        // Ana upgrades: her history is whole and now signed.
        let history = jsonObject(
            family.run("ana", ["checkin", "history", "--json"], now: "2026-03-01T13:00:00Z").stdout)
        #expect(history["total"] as? Int == 4)
        #expect(family.run("ana", ["checkin", "--quiet"], now: "2026-03-01T14:00:00Z").code == 0)
        #expect(
            jsonObject(family.run("ana", ["checkin", "history", "--json"], now: "2026-03-01T14:00:00Z").stdout)["total"]
                as? Int == 5)
        let signed = try String(contentsOfFile: family.deviceFolder("ana") + "/log.json", encoding: .utf8)
        #expect(signed.hasPrefix("{\n\"signature\": \""))
        // Bea's next write takes Ana's key on first sight, once, and says so.
        let write = family.run("bea", ["checkin"], now: "2026-03-01T14:10:00Z")
        #expect(write.stderr.contains("took the device keys of Ana on first sight"), "\(write.stderr)")
        #expect(!family.run("bea", ["checkin"], now: "2026-03-01T14:20:00Z").stderr.contains("first sight"))
        let now = family.run("bea", ["status"], now: "2026-03-01T14:30:00Z")
        #expect(now.code == 0)
        #expect(!now.stderr.contains("older lifesignal"), "\(now.stderr)")
        #expect(anaAsBeaSees("2026-03-01T14:30:00Z").lastCheckIn == "2026-03-01T14:00:00Z")
        // The old unsigned file put back in Ana's folder (a rollback) counts for nothing now.
        try unsigned.write(toFile: family.deviceFolder("ana") + "/log.json", atomically: true, encoding: .utf8)
        let rolled = family.run("bea", ["status"], now: "2026-03-01T14:40:00Z")
        #expect(rolled.code == 6)
        #expect(rolled.stderr.contains("records in Ana's folder are not signed by any device of Ana's"))
    }
}

/// Logs as an older lifesignal wrote them: not signed, no keys.
enum Legacy {
    static func read(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// `log` without anything of signing, in lifesignal's layout, at `path`.
    static func write(_ log: [String: Any], to path: String) throws {
        var log = log
        for key in ["signature", "key", "tail"] { log.removeValue(forKey: key) }
        var state = log["state"] as? [String: Any] ?? [:]
        for key in ["devices", "recovery", "pins"] { state.removeValue(forKey: key) }
        log["state"] = state
        let trust: Set<String> = ["deviceEnrolled", "deviceRevoked", "recoveryKeySet", "keyPinned"]
        let events = (log["events"] as? [[String: Any]] ?? []).filter { !trust.contains($0["type"] as? String ?? "") }
        log["events"] = events
        if let last = events.last?["seq"] as? Int { log["lastSeq"] = last }
        func text(_ value: Any) throws -> String {
            String(
                decoding: try JSONSerialization.data(
                    withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes, .sortedKeys]),
                as: UTF8.self)
        }
        var file = "{\n"
        for (name, value) in log.filter({ $0.key != "state" && $0.key != "events" }).sorted(by: { $0.key < $1.key }) {
            file += "\(try text(name)): \(try text(value)),\n"
        }
        file += "\"state\": " + (try text(state)) + ",\n\"events\": ["
        for (i, event) in events.enumerated() { file += (i == 0 ? "\n  " : ",\n  ") + (try text(event)) }
        file += events.isEmpty ? "]\n}\n" : "\n]\n}\n"
        try Data(file.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Moves the last check-in of `log` (and its recent check-ins) to `time`.
    static func moveCheckIns(in log: inout [String: Any], to time: String, from device: String) {
        var state = log["state"] as? [String: Any] ?? [:]
        if var last = state["lastCheckIn"] as? [String: Any] {
            last["at"] = time
            state["lastCheckIn"] = last
        }
        state["recentCheckIns"] = (state["recentCheckIns"] as? [[String: Any]] ?? []).map { entry in
            var entry = entry
            entry["at"] = time
            return entry
        }
        log["state"] = state
    }

    /// A data directory and its circle folder as an older lifesignal left them: no key, no
    /// signature on the log, feed or archive, no record of keys.
    static func downgrade(home: String, folder: String) throws {
        try? FileManager.default.removeItem(atPath: home + "/device.key")
        for file in ["cache.bin", "verified.bin"] { try? FileManager.default.removeItem(atPath: home + "/" + file) }
        for path in [home + "/own/log.json", folder + "/log.json"] { try write(read(path), to: path) }
        for path in [home + "/own/feed.json", folder + "/feed.json"] where FileManager.default.fileExists(atPath: path)
        {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if let comma = text.range(of: "\",") {
                try ("{" + text[comma.upperBound...]).write(toFile: path, atomically: true, encoding: .utf8)
            }
        }
    }
}
