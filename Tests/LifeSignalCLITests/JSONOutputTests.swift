import Foundation
import Testing

// `--json` output field by field: stable camelCase names, RFC 3339 UTC times with Z,
// durations in seconds, null for what is absent, and errors as JSON on stderr.

/// `2026-03-01T09:00:00Z`: seconds, no fraction, always Z.
private func isUTC(_ value: Any?) -> Bool {
    guard let text = value as? String else { return false }
    return text.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil
}

/// A lifesignal id: a lowercase UUID.
private func isID(_ value: Any?) -> Bool {
    guard let text = value as? String else { return false }
    return text.range(
        of: #"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#, options: .regularExpression) != nil
}

private func keys(_ object: Any?) -> Set<String> { Set((object as? [String: Any])?.keys.map { $0 } ?? []) }
private func isNull(_ value: Any?) -> Bool { value is NSNull }

private let checkInKeys: Set<String> = [
    "state", "lastCheckIn", "deadline", "secondsLeft", "reminderAt", "intervalSeconds", "reminderSeconds",
    "repeatSeconds", "vouch", "vouchedInARow", "clockBehind", "futureCheckIn", "schedule", "pause", "trip", "next",
    "daily",
]

@Suite struct JSONOutputTests {
    @Test func initCreatedAndAgain() {
        let home = TempHome()
        let run = home.run(["init", "--json", "--name", "Ann", "--interval", "8h", "--reminder", "1h"])
        #expect(run.code == 0)
        #expect(run.stderr == "")
        let json = jsonObject(run.stdout)
        #expect(
            keys(json) == [
                "created", "member", "device", "dataDirectory", "circle", "intervalSeconds", "reminderSeconds",
                "movedFrom", "recoveryCode", "joinedWith",
            ])
        #expect(json["created"] as? Bool == true)
        let member = json["member"] as? [String: Any]
        #expect(keys(member) == ["id", "name"])
        #expect(isID(member?["id"]))
        #expect(member?["name"] as? String == "Ann")
        #expect(isID(json["device"]))
        #expect(json["dataDirectory"] as? String == home.path)
        #expect(json["circle"] as? String == home.path + "/circle")
        #expect(json["intervalSeconds"] as? Int == 28_800)
        #expect(json["reminderSeconds"] as? Int == 3600)

        let again = jsonObject(home.run(["init", "--json", "--reminder", "off"]).stdout)
        #expect(again["created"] as? Bool == false)
        #expect((again["member"] as? [String: Any])?["id"] as? String == member?["id"] as? String)
        #expect(again["device"] as? String == json["device"] as? String)
        #expect(isNull(again["reminderSeconds"]))
    }

    @Test func checkinAndItsNoteOnStderrIsSuppressed() {
        let home = TempHome()
        // An offset in LIFESIGNAL_NOW comes out in UTC.
        let run = home.run(["checkin", "--json", "--note", "trail"], now: "2026-03-01T11:00:00+02:00")
        #expect(run.code == 0)
        // stderr stays clean for a JSON consumer: no first-run note.
        #expect(run.stderr == "")
        let json = jsonObject(run.stdout)
        #expect(keys(json) == ["checkedIn", "checkIn", "warnings", "dryRun"])
        #expect(json["dryRun"] as? Bool == false)
        #expect((json["warnings"] as? [[String: Any]])?.map { $0["code"] as? String } == ["no-responders"])
        let checkedIn = json["checkedIn"] as? [String: Any]
        #expect(keys(checkedIn) == ["at", "note", "device", "seq"])
        #expect(checkedIn?["at"] as? String == "2026-03-01T09:00:00Z")
        #expect(checkedIn?["note"] as? String == "trail")
        #expect(isID(checkedIn?["device"]))
        #expect((checkedIn?["seq"] as? Int).map { $0 > 0 } == true)
        let checkIn = json["checkIn"] as? [String: Any]
        #expect(keys(checkIn) == checkInKeys)
        #expect(checkIn?["state"] as? String == "ok")
        #expect(checkIn?["deadline"] as? String == "2026-03-02T09:00:00Z")
        #expect(checkIn?["secondsLeft"] as? Int == 86_400)
        #expect(checkIn?["reminderAt"] as? String == "2026-03-02T08:30:00Z")
        #expect(checkIn?["intervalSeconds"] as? Int == 86_400)
        #expect(checkIn?["reminderSeconds"] as? Int == 1800)
        #expect(checkIn?["clockBehind"] as? Bool == false)
        let last = checkIn?["lastCheckIn"] as? [String: Any]
        #expect(keys(last) == ["at", "note", "device", "fromPhone"])
        #expect(last?["at"] as? String == "2026-03-01T09:00:00Z")
        #expect(last?["device"] as? String == checkedIn?["device"] as? String)

        // The sequence grows; a check-in without a note has note null.
        let second = jsonObject(home.run(["checkin", "--json"], now: "2026-03-01T10:00:00Z").stdout)
        let secondCheckedIn = second["checkedIn"] as? [String: Any]
        #expect(isNull(secondCheckedIn?["note"]))
        #expect((secondCheckedIn?["seq"] as? Int ?? 0) > (checkedIn?["seq"] as? Int ?? 0))
    }

    @Test func checkinStatusInEveryState() {
        let home = TempHome()
        home.run(["init", "--json"])
        let none = jsonObject(home.run(["checkin", "status", "--json"]).stdout)
        #expect(keys(none) == checkInKeys)
        #expect(none["state"] as? String == "noCheckIn")
        for key in ["lastCheckIn", "deadline", "secondsLeft", "reminderAt"] { #expect(isNull(none[key]), "\(key)") }
        #expect(none["intervalSeconds"] as? Int == 86_400)
        #expect(none["reminderSeconds"] as? Int == 1800)
        #expect(none["clockBehind"] as? Bool == false)

        home.run(["checkin", "--json"])
        let states: [(String, String, Int32, Int)] = [
            ("2026-03-01T09:00:00Z", "ok", 0, 86_400),
            ("2026-03-02T08:30:00Z", "dueSoon", 3, 1800),
            ("2026-03-02T09:00:00Z", "dueSoon", 3, 0),
            ("2026-03-02T09:00:01Z", "overdue", 4, -1),
            ("2026-03-03T10:00:00Z", "overdue", 4, -90_000),
        ]
        for (now, state, code, left) in states {
            let run = home.run(["checkin", "status", "--json"], now: now)
            #expect(run.code == code, "\(now)")
            #expect(run.stderr == "")
            let json = jsonObject(run.stdout)
            #expect(json["state"] as? String == state, "\(now)")
            #expect(json["secondsLeft"] as? Int == left, "\(now)")
            #expect(json["deadline"] as? String == "2026-03-02T09:00:00Z")
            #expect(isUTC(json["reminderAt"]))
            #expect(isUTC((json["lastCheckIn"] as? [String: Any])?["at"]))
        }
    }

    @Test func history() {
        let home = TempHome()
        home.run(["checkin", "--note", "one"], now: "2026-03-01T09:00:00Z")
        home.run(["checkin"], now: "2026-03-01T12:00:00Z")
        home.run(["checkin", "--note", "three"], now: "2026-03-01T15:00:00Z")
        let run = home.run(["checkin", "history", "--json", "--limit", "2"], now: "2026-03-01T16:00:00Z")
        #expect(run.code == 0)
        #expect(run.stderr == "")
        let json = jsonObject(run.stdout)
        #expect(keys(json) == ["checkIns", "total"])
        #expect(json["total"] as? Int == 3)
        let list = json["checkIns"] as? [[String: Any]] ?? []
        #expect(list.count == 2)
        #expect(list.map { $0["at"] as? String } == ["2026-03-01T15:00:00Z", "2026-03-01T12:00:00Z"])
        #expect(list.first?["note"] as? String == "three")
        #expect(isNull(list.last?["note"]))
        for item in list {
            #expect(keys(item) == ["at", "note", "device"])
            #expect(isID(item["device"]))
        }
        let empty = jsonObject(home.run(["checkin", "history", "--json", "--since", "2026-03-02T00:00:00Z"]).stdout)
        #expect((empty["checkIns"] as? [Any])?.isEmpty == true)
        #expect(empty["total"] as? Int == 3)
        // No human "No check-ins" line mixed into JSON.
        #expect(home.run(["checkin", "history", "--json", "--since", "1s"]).stdout.hasPrefix("{"))
    }

    @Test func intervalAndReminderShowAndSet() {
        let home = TempHome()
        home.run(["checkin"])
        for arguments in [["checkin", "interval", "--json"], ["checkin", "reminder", "--json"]] {
            let json = jsonObject(home.run(arguments).stdout)
            #expect(keys(json) == checkInKeys, "\(arguments)")
            #expect(json["intervalSeconds"] as? Int == 86_400)
        }
        let interval = home.run(["checkin", "interval", "8h", "--json"], now: "2026-03-01T10:00:00Z")
        #expect(interval.code == 0)
        #expect(interval.stderr == "")
        let i = jsonObject(interval.stdout)
        #expect(keys(i) == checkInKeys)
        #expect(i["intervalSeconds"] as? Int == 28_800)
        #expect(i["deadline"] as? String == "2026-03-01T17:00:00Z")
        #expect(i["secondsLeft"] as? Int == 25_200)
        let overdue = jsonObject(
            home.run(["checkin", "interval", "45m", "--json"], now: "2026-03-01T10:00:00Z").stdout)
        #expect(overdue["state"] as? String == "overdue")
        #expect(overdue["secondsLeft"] as? Int == -900)

        let reminder = jsonObject(
            home.run(["checkin", "reminder", "10m", "--json"], now: "2026-03-01T09:00:00Z").stdout)
        #expect(reminder["reminderSeconds"] as? Int == 600)
        #expect(reminder["reminderAt"] as? String == "2026-03-01T09:35:00Z")
        let off = jsonObject(home.run(["checkin", "reminder", "off", "--json"]).stdout)
        #expect(isNull(off["reminderSeconds"]))
        #expect(isNull(off["reminderAt"]))
    }

    @Test func status() {
        let home = TempHome()
        home.run(["init", "--name", "Ann"])
        home.run(["checkin"])
        let run = home.run(["status", "--json"], now: "2026-03-01T11:00:00Z")
        #expect(run.code == 0)
        #expect(run.stderr == "")
        let json = jsonObject(run.stdout)
        #expect(
            keys(json) == [
                "now", "member", "dataDirectory", "circle", "checkIn", "alert", "unreadNotifications", "pingsToAnswer",
                "needsAttention", "warnings",
            ])
        // A stable code and a message for each doubt; none here but that nobody watches.
        let warnings = json["warnings"] as? [[String: Any]]
        #expect(warnings?.map { $0["code"] as? String } == ["no-responders"])
        #expect(warnings?.first?["message"] as? String == String(noRespondersWarning.dropFirst(21).dropLast()))
        #expect(json["pingsToAnswer"] as? [Any] != nil)
        #expect(json["needsAttention"] as? [Any] != nil)
        #expect(json["now"] as? String == "2026-03-01T11:00:00Z")
        let member = json["member"] as? [String: Any]
        #expect(keys(member) == ["id", "name", "device"])
        #expect(isID(member?["id"]))
        #expect(member?["name"] as? String == "Ann")
        #expect(isID(member?["device"]))
        #expect(json["dataDirectory"] as? String == home.path)
        #expect(json["circle"] as? String == home.path + "/circle")
        let checkIn = json["checkIn"] as? [String: Any]
        #expect(keys(checkIn) == checkInKeys)
        #expect(checkIn?["secondsLeft"] as? Int == 79_200)
        #expect(checkIn?["state"] as? String == "ok")
    }

    @Test func outputIsOneDocumentPerRun() {
        let home = TempHome()
        home.run(["checkin"])
        for arguments in [["status"], ["checkin", "status"], ["checkin", "history"], ["checkin"], ["init"]] {
            let run = home.run(arguments + ["--json"])
            #expect(run.stdout.hasPrefix("{") && run.stdout.hasSuffix("}\n"), "\(arguments)")
            #expect((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) != nil, "\(arguments)")
        }
        // --quiet wins: nothing at all.
        #expect(home.run(["status", "--json", "--quiet"]).stdout == "")
    }

    /// `{"error":{"code":…,"message":…}}` on stderr, nothing on stdout.
    func expectJSONError(_ run: Run, code: Int32, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.code == code, sourceLocation: sourceLocation)
        #expect(run.stdout == "", sourceLocation: sourceLocation)
        let json = jsonObject(run.stderr, sourceLocation: sourceLocation)
        #expect(keys(json) == ["error"], sourceLocation: sourceLocation)
        let error = json["error"] as? [String: Any]
        #expect(keys(error) == ["code", "message"], sourceLocation: sourceLocation)
        #expect(error?["code"] as? Int == Int(code), sourceLocation: sourceLocation)
        #expect(error?["message"] as? String == message, sourceLocation: sourceLocation)
    }

    @Test func errorsAsJSONOnStderr() {
        let home = TempHome()
        expectJSONError(
            home.run(["--json", "chekin"]), code: 64, message: "Unknown command 'chekin'. Did you mean 'checkin'?")
        expectJSONError(
            home.run(["checkin", "--nte", "x", "--json"]), code: 64,
            message: "Unknown option '--nte'. Did you mean '--note'?")
        expectJSONError(
            home.run(["checkin", "interval", "3x", "--json"]), code: 64,
            message:
                "The value '3x' is invalid for '<duration>': 'x' is not a unit: use d, h, m or s; give a duration such as 45m, 8h or 1d12h."
        )
        expectJSONError(
            home.run(["status", "--json"]), code: 66,
            message:
                "no lifesignal profile in \(home.path) yet (chosen by LIFESIGNAL_HOME=\(home.path)). Nothing was created. Run 'lifesignal checkin' to record your first check-in, or 'lifesignal init' to set up first. If your profile is elsewhere, this environment does not point to it: cron sets only HOME, so put LIFESIGNAL_HOME=/path/to/your/data in the crontab, or pass --home"
        )
        home.run(["checkin"])
        expectJSONError(
            home.run(["checkin", "interval", "5m", "--json"]), code: 65,
            message: "an interval of 5m is outside the accepted range 10m–30d; choose e.g. 8h, 16h, 24h or 48h")
        expectJSONError(
            home.run(["status", "--json"], environment: ["LIFESIGNAL_NOW": "soon"]), code: 78,
            message:
                "LIFESIGNAL_NOW is not an RFC 3339 time: \"soon\"; use a form such as 2026-01-31T09:00:00Z, or unset it to use the clock"
        )
        // Even with --quiet, the error is reported.
        expectJSONError(
            home.run(["--json", "-q", "chekin"]), code: 64, message: "Unknown command 'chekin'. Did you mean 'checkin'?"
        )
    }

    @Test func helpStaysTextAndTheVersionIsJSON() {
        let home = TempHome()
        #expect(home.run(["--version", "--json"]).stdout == "{\n  \"version\": \"0.1.0\"\n}\n")
        #expect(jsonObject(home.run(["--version", "--json"]).stdout)["version"] as? String == "0.1.0")
        #expect(home.run(["status", "--help", "--json"]).stdout == home.run(["status", "--help"]).stdout)
    }
}
