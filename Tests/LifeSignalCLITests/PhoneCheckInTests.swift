import Foundation
import TestSupport
import Testing

// "I'm OK" from the phone, through ntfy: the reminder carries the button; doing what the ntfy
// app does on a tap, with the member's machines dark, gives a check-in through a watcher's
// `notify deliver` and no alarm; a forged token and the same tap replayed a day later give
// nothing. Real curl for every request, against NtfyServer (ntfy's formats, on loopback).

@Suite(.integration) struct PhoneCheckInTests {
    static let env = ["PATH": DeliveryTests.path()]

    /// Alice and Bob as in SafetyNetTests (Bob watches Alice, her sister is reached by a
    /// webhook); Alice's own notifications go to an ntfy topic, and her inbox is another.
    static func household(_ recorder: HTTPRecorder, _ ntfy: NtfyServer, marker: String) -> Household {
        let h = SafetyNetTests.aliceAndBob(recorder, marker: marker)
        let prefs = h.run(
            "alice", ["notify", "prefs", "--channel", "ntfy:" + ntfy.url("alice-notes")], now: "2026-03-01T09:00:00Z")
        #expect(prefs.code == 0, "\(prefs.stderr)")
        let inbox = h.run(
            "alice",
            [
                "checkin", "inbox", "ntfy:" + ntfy.url("alice-inbox-7f3k9q2m"), "--phone",
                "ntfy:" + ntfy.url("alice-phone-2m8qk4"),
            ], now: "2026-03-01T09:00:00Z")
        #expect(inbox.code == 0, "\(inbox.stderr)")
        #expect(inbox.stdout.contains("Inbox set: ntfy:"), "\(inbox.stdout)")
        // Bob's cron runs now and then; it learns the inboxes to read.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-01T12:00:00Z", environment: env).code == 0)
        return h
    }

    static func okButton(_ message: [String: Any]?) -> [String: Any]? {
        (message?["actions"] as? [[String: Any]])?.first { $0["label"] as? String == "I'm OK" }
    }

    /// Alice's check-in as Bob's `contacts list --json` shows it.
    static func aliceCheckIn(_ list: [String: Any]) -> [String: Any]? {
        let alice = (list["contacts"] as? [[String: Any]])?.first { $0["name"] as? String == "Alice" }
        return (alice?["status"] as? [String: Any])?["checkIn"] as? [String: Any]
    }

    static var available: Bool { HTTPRecorder.isAvailable && DeliveryTools.curl != nil }

    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func aTapOnTheRemindersButtonChecksInWhileHerMachinesAreDark() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        // Her reminder (30m before 09:00) goes to her phone's topic with the button, which posts
        // to her inbox; the topic of her channels, which the circle folder names, gets no button.
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T08:35:00Z", environment: Self.env).code == 0)
        let plain = try #require(ntfy.published("alice-notes").last)
        #expect(
            (plain["title"] as? String)?.hasPrefix("Check in by") == true && Self.okButton(plain) == nil, "\(plain)")
        let reminder = try #require(ntfy.published("alice-phone-2m8qk4").last)
        #expect((reminder["title"] as? String)?.hasPrefix("Check in by") == true, "\(reminder)")
        let button = try #require(Self.okButton(reminder), "\(reminder)")
        #expect(button["action"] as? String == "http")
        #expect(button["url"] as? String == ntfy.url("alice-inbox-7f3k9q2m"))
        #expect(button["method"] as? String == "POST")
        #expect(button["clear"] as? String == "true")
        #expect((button["body"] as? String)?.hasPrefix("lifesignal-ok ") == true)
        let doctor = jsonObject(h.run("alice", ["doctor", "--json"], now: "2026-03-02T08:36:00Z").stdout)
        let found = (doctor["checks"] as? [[String: Any]])?.first { $0["check"] as? String == "inbox" }
        #expect(found?["ok"] as? Bool == true, "\(doctor)")
        // Nothing in the circle folder names her phone's topic: nobody who reads it can take a token.
        let files = FileManager.default.enumerator(atPath: h.circle)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let text = (try? String(contentsOfFile: h.circle + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("alice-phone-2m8qk4"), "\(file)")
        }
        // Her laptop closes. At 08:50 she taps the button on her phone.
        ntfy.setClock("2026-03-02T08:50:00Z")
        #expect(NtfyServer.tap(button) == 0)
        // Bob's cron reads her inbox: one request, and her check-in is recorded, from the phone.
        let run = h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:20:00Z", environment: Self.env)
        #expect(run.code == 0, "\(run.stderr)")
        let runs = ntfy.polls("alice-inbox-7f3k9q2m").filter { !$0.hasSuffix("since=latest") }  // not doctor's
        #expect(
            runs.count == 3,
            "one poll per delivery run (his first, the day before; hers at 08:35; his at 09:20): \(runs)")
        let seen = jsonObject(h.run("bob", ["contacts", "list", "--json"], now: "2026-03-02T09:20:00Z").stdout)
        let checkIn = Self.aliceCheckIn(seen)
        #expect((checkIn?["lastCheckIn"] as? [String: Any])?["at"] as? String == "2026-03-02T08:50:00Z", "\(seen)")
        #expect((checkIn?["lastCheckIn"] as? [String: Any])?["fromPhone"] as? Bool == true, "\(seen)")
        #expect(checkIn?["deadline"] as? String == "2026-03-03T08:50:00Z")
        let shown = h.run("bob", ["contacts", "show", "Alice"], now: "2026-03-02T09:20:00Z").stdout
        #expect(shown.contains("2026-03-02 08:50 UTC (30m ago), from the phone"), "\(shown)")
        for now in ["2026-03-02T10:00:00Z", "2026-03-02T12:00:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        #expect(SafetyNetTests.types(recorder, "/sis").isEmpty, "no alarm: she checked in from her phone")
        // The next poll asks for what came after the last message seen.
        let last = try #require(ntfy.polls("alice-inbox-7f3k9q2m").last)
        #expect(last.contains("poll=1&since=") && !last.hasSuffix("since=all"), "\(last)")
    }

    /// When nothing can be recorded (here her log's backup name is taken by a folder; on a bad
    /// day, a full disk), the reminder still goes to her phone, but without an "I'm OK" button:
    /// its token could not be committed to, so a tap on it would be ignored.
    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func nothingRecordedMeansNoButtonThatWouldBeIgnored() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        let backup = h.root.path + "/alice/own/log.json.bak"
        try? FileManager.default.removeItem(atPath: backup)
        try FileManager.default.createDirectory(atPath: backup + "/x", withIntermediateDirectories: true)
        let run = h.run("alice", ["notify", "deliver"], now: "2026-03-02T08:35:00Z", environment: Self.env)
        #expect(run.code == 74, "\(run.stderr)")
        #expect(run.stderr.contains("Still, "), "\(run.stderr)")
        let reminder = try #require(ntfy.published("alice-phone-2m8qk4").last)
        #expect((reminder["title"] as? String)?.hasPrefix("Check in by") == true, "\(reminder)")
        #expect(Self.okButton(reminder) == nil, "a button whose token was never recorded: \(reminder)")
    }

    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func aForgedTokenAndAReplayChangeNothing() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T08:35:00Z", environment: Self.env).code == 0)
        let button = try #require(Self.okButton(ntfy.published("alice-phone-2m8qk4").last))
        ntfy.setClock("2026-03-02T08:50:00Z")
        #expect(NtfyServer.tap(button) == 0)
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:00:00Z", environment: Self.env).code == 0)
        // Someone who knows the inbox posts a token of their own making, and replays the tap a
        // day later, when Alice is silent again.
        ntfy.setClock("2026-03-03T08:40:00Z")
        var forged = button
        forged["body"] = "lifesignal-ok " + String(repeating: "ab", count: 16)
        #expect(NtfyServer.tap(forged) == 0)
        #expect(NtfyServer.tap(button) == 0)
        let run = h.run("bob", ["notify", "deliver"], now: "2026-03-03T09:05:00Z", environment: Self.env)
        #expect(run.code == 0)
        #expect(run.stderr.contains("its token is not one that a device of Alice's handed out"), "\(run.stderr)")
        #expect(run.stderr.contains("its token was used already, at 2026-03-02 08:50 UTC"), "\(run.stderr)")
        let seen = jsonObject(h.run("bob", ["contacts", "list", "--json"], now: "2026-03-03T09:05:00Z").stdout)
        let checkIn = Self.aliceCheckIn(seen)
        #expect((checkIn?["lastCheckIn"] as? [String: Any])?["at"] as? String == "2026-03-02T08:50:00Z", "\(seen)")
        #expect(checkIn?["state"] as? String == "overdue")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-03T09:10:00Z", environment: Self.env).code == 0)
        #expect(SafetyNetTests.types(recorder, "/sis") == ["receive_non_responsive_dependent_alert"])
    }

    /// Mal, another member, copies Alice's real tap into his own signed log with another time:
    /// a later one before Bob read her inbox (the real tap would look used, and the forged time
    /// would check a silent Alice in days later), an earlier one after (her check-in would move
    /// back). Neither changes anything: a tap's time is the one the inbox stamped, as Bob's own
    /// device read it.
    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func aTapRetimedByAnotherMemberChangesNothing() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        h.join(["Mal"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T08:35:00Z", environment: Self.env).code == 0)
        let button = try #require(Self.okButton(ntfy.published("alice-phone-2m8qk4").last))
        let token = String((button["body"] as? String ?? "").dropFirst("lifesignal-ok ".count))
        ntfy.setClock("2026-03-02T08:50:00Z")
        #expect(NtfyServer.tap(button) == 0)
        try Self.malRecordsATap(h, of: "alice", token: token, at: "2026-03-05T08:00:00Z")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:20:00Z", environment: Self.env).code == 0)
        func lastCheckIn(_ now: String) -> String? {
            let seen = jsonObject(h.run("bob", ["contacts", "list", "--json"], now: now).stdout)
            return (Self.aliceCheckIn(seen)?["lastCheckIn"] as? [String: Any])?["at"] as? String
        }
        #expect(lastCheckIn("2026-03-02T09:20:00Z") == "2026-03-02T08:50:00Z")
        try Self.malRecordsATap(h, of: "alice", token: token, at: "2026-03-02T08:40:00Z")
        #expect(lastCheckIn("2026-03-02T09:30:00Z") == "2026-03-02T08:50:00Z")
        for now in ["2026-03-02T10:00:00Z", "2026-03-02T12:00:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        #expect(SafetyNetTests.types(recorder, "/sis").isEmpty, "no alarm: she checked in from her phone")
    }

    /// Mal's own log, signed by his device, saying his device read `token` from `person`'s inbox
    /// stamped `at`.
    static func malRecordsATap(_ h: Household, of person: String, token: String, at: String) throws {
        let target = try #require(
            (try? JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: h.root.path + "/\(person)/identity.json"))))
                as? [String: Any])
        let mal = try #require(
            (try? JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: h.root.path + "/mal/identity.json")))) as? [String: Any])
        let path = "\(h.circle)/members/\(mal["member"] as? String ?? "")/\(mal["device"] as? String ?? "")/log.json"
        var log = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var state = log["state"] as? [String: Any] ?? [:]
        let seconds = ISO8601DateFormatter().date(from: at).map { Int($0.timeIntervalSince1970) } ?? 0
        state["tapsForOthers"] = [
            [
                "member": target["member"] as? String ?? "", "token": token, "tappedAt": seconds, "at": at,
                "clock": 999, "seq": log["lastSeq"] as? Int ?? 1,
            ]
        ]
        log["state"] = state
        try SignedLogWriter.write(log, to: path, key: SignedLogWriter.key(in: h.root.path + "/mal"))
    }

    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func withoutAnInboxNoRequestAndNoButton() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = SafetyNetTests.aliceAndBob(recorder, marker: root.path + "/unused")
        #expect(
            h.run(
                "alice", ["notify", "prefs", "--channel", "ntfy:" + ntfy.url("alice-notes")],
                now: "2026-03-01T09:00:00Z"
            )
            .code == 0)
        for now in ["2026-03-02T08:35:00Z", "2026-03-02T08:40:00Z"] {
            #expect(h.run("alice", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        #expect(ntfy.requests().allSatisfy { $0["method"] as? String != "GET" }, "no inbox: nothing is read")
        let reminder = try #require(ntfy.published("alice-notes").last)
        #expect(Self.okButton(reminder) == nil)
        let shown = h.run("alice", ["checkin", "inbox", "--json"], now: "2026-03-02T08:40:00Z")
        #expect(jsonObject(shown.stdout)["inbox"] is NSNull)
        // An inbox that does not answer is a failed doctor check that names the way out.
        #expect(
            h.run("alice", ["checkin", "inbox", "ntfy:http://127.0.0.1:9/none"], now: "2026-03-02T08:40:00Z").code == 0)
        let doctor = jsonObject(h.run("alice", ["doctor", "--json"], now: "2026-03-02T08:40:00Z").stdout)
        let found = (doctor["checks"] as? [[String: Any]])?.first { $0["check"] as? String == "inbox" }
        #expect(found?["ok"] as? Bool == false, "\(doctor)")
        #expect((found?["fix"] as? String)?.contains("lifesignal checkin inbox ntfy:URL") == true)
        // A phone topic is kept in phone.json; a damaged one is a failed doctor check, never a
        // quiet "no buttons"; 'off' removes the inbox and this device's phone topic.
        let topics = [
            "checkin", "inbox", "ntfy:" + ntfy.url("alice-inbox-9z"), "--phone", "ntfy:" + ntfy.url("alice-phone-9z"),
        ]
        #expect(h.run("alice", topics, now: "2026-03-02T08:40:00Z").code == 0)
        let phoneFile = h.root.path + "/alice/phone.json"
        #expect(FileManager.default.fileExists(atPath: phoneFile))
        try "{ not json".write(toFile: phoneFile, atomically: true, encoding: .utf8)
        let damaged = jsonObject(h.run("alice", ["doctor", "--json"], now: "2026-03-02T08:40:00Z").stdout)
        let check = (damaged["checks"] as? [[String: Any]])?.first { $0["check"] as? String == "inbox" }
        #expect(check?["ok"] as? Bool == false, "\(damaged)")
        #expect((check?["message"] as? String)?.contains("phone topic cannot be read") == true, "\(check ?? [:])")
        let off = h.run("alice", ["checkin", "inbox", "off", "--json"], now: "2026-03-02T08:40:00Z")
        #expect(off.code == 0, "\(off.stderr)")
        #expect(jsonObject(off.stdout)["inbox"] is NSNull && jsonObject(off.stdout)["phone"] is NSNull)
        #expect(!FileManager.default.fileExists(atPath: phoneFile))
        let bad = h.run("alice", ["checkin", "inbox", "https://ntfy.sh/"], now: "2026-03-02T08:40:00Z")
        #expect(bad.code != 0)
        #expect(bad.stderr.contains("cannot be your inbox"), "\(bad.stderr)")
    }

    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func theSistersImOnItHoldsTheRepeatsAndTheNextTierForTwoHours() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        // Her sister reads alarms in the ntfy app: the circle knows her channel (sis-alarms),
        // Alice's laptop alone knows her button topic; Sam, tier 2, gets a webhook.
        let privateTopic = "sis-private-4k7q9w2z"
        let sis = h.run(
            "alice",
            [
                "contacts", "edit", "Sis", "--notify", "ntfy:" + ntfy.url("sis-alarms"), "--button-topic",
                "ntfy:" + ntfy.url(privateTopic),
            ], now: "2026-03-01T09:00:00Z", environment: Self.env)
        #expect(sis.code == 0, "\(sis.stderr)")
        #expect(sis.stdout.contains("each with an \"I'm on it\" button"), "\(sis.stdout)")
        let shown = jsonObject(
            h.run("alice", ["contacts", "show", "Sis", "--json"], now: "2026-03-01T09:00:00Z").stdout)
        #expect((shown["contact"] as? [String: Any])?["buttonTopic"] as? String == "ntfy:" + ntfy.url(privateTopic))
        let human = h.run("alice", ["contacts", "show", "Sis"], now: "2026-03-01T09:00:00Z").stdout
        #expect(
            human.contains("Button topic    ntfy:\(ntfy.url(privateTopic)) (this device only, with \"I'm on it\")"),
            "\(human)")
        let sam = h.run(
            "alice", ["contacts", "add", "Sam", "--responder", "--notify", recorder.url("/sam")],
            now: "2026-03-01T09:00:00Z", environment: Self.env)
        #expect(sam.code == 0, "\(sam.stderr)")
        #expect(h.run("alice", ["contacts", "edit", "Sam", "--tier", "2"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-01T12:05:00Z", environment: Self.env).code == 0)
        // Alice's deadline (09:00) passes; her laptop is on, and tells her sister on her channel,
        // and on the private topic with the button. Bob's device, which relays for her, sends
        // nothing more.
        for who in ["alice", "bob"] {
            let run = h.run(who, ["notify", "deliver"], now: "2026-03-02T09:15:00Z", environment: Self.env)
            #expect(run.code == 0, "\(run.stderr)")
        }
        let plain = try #require(ntfy.published("sis-alarms").last)
        #expect((plain["title"] as? String)?.hasPrefix("Alice missed") == true && plain["actions"] == nil, "\(plain)")
        #expect(ntfy.published("sis-alarms").count == 1)
        let alarm = try #require(ntfy.published(privateTopic).last)
        #expect((alarm["title"] as? String)?.hasPrefix("Are you on it? Alice missed") == true, "\(alarm)")
        let button = try #require(
            (alarm["actions"] as? [[String: Any]])?.first { $0["label"] as? String == "I'm on it" }, "\(alarm)")
        #expect(button["url"] as? String == ntfy.url("alice-inbox-7f3k9q2m"))
        #expect((button["body"] as? String)?.hasPrefix("lifesignal-ack ") == true)
        // Her sister taps it at 09:30; Alice's laptop goes dark; Bob's next runs read her inbox.
        ntfy.setClock("2026-03-02T09:30:00Z")
        #expect(NtfyServer.tap(button) == 0)
        for now in ["2026-03-02T09:40:00Z", "2026-03-02T10:20:00Z", "2026-03-02T11:25:00Z"] {
            let run = h.run("bob", ["notify", "deliver"], now: now, environment: Self.env)
            #expect(run.code == 0, "\(run.stderr)")
        }
        #expect(
            SafetyNetTests.types(recorder, "/sam").filter { $0.contains("non_responsive") }.isEmpty,
            "tier 2 never woken")
        for topic in [privateTopic, "sis-alarms"] {
            let told = ntfy.published(topic).filter { ($0["title"] as? String)?.contains("missed") == true }
            #expect(told.count == 1, "no repeat on \(topic)")
        }
        // Alice's machine wakes, and its cron reads her inbox itself (Bob's record of the tap is
        // his alone: a member's copy of a tap could carry another time): she and Bob hear her
        // sister is on it.
        #expect(h.run("alice", ["notify", "deliver"], now: "2026-03-02T11:40:00Z", environment: Self.env).code == 0)
        let feed = notifications(h.run("alice", ["notify", "list", "--json"], now: "2026-03-02T11:40:00Z"))
        #expect(feed.contains { ($0["message"] as? String)?.hasPrefix("Sis is on it") == true }, "\(feed)")
        // The same tap replayed changes nothing more, and is said.
        ntfy.setClock("2026-03-02T12:00:00Z")
        #expect(NtfyServer.tap(button) == 0)
        let again = h.run("bob", ["notify", "deliver"], now: "2026-03-02T12:10:00Z", environment: Self.env)
        #expect(again.stderr.contains("its token was used already, at 2026-03-02 09:30 UTC"), "\(again.stderr)")
        // Two hours after her "I'm on it", with Alice still silent, the alarm goes on: tier 2.
        #expect(SafetyNetTests.types(recorder, "/sam").filter { $0.contains("non_responsive") }.count == 1)
    }

    /// What a watcher relays to the sister goes to the channel the circle knows for her, which
    /// anyone in the circle can read: it carries no button, so nobody can say she is on it.
    /// A button topic is refused when anyone in the circle could read it or guess it.
    @Test(.enabled(if: available, DeliveryTools.missing("python3 or curl")))
    func aWatchersRelayCarriesNoButtonAndAReadableTopicIsRefused() throws {
        let recorder = try HTTPRecorder()
        let ntfy = try NtfyServer()
        let root = TempHome()
        let h = Self.household(recorder, ntfy, marker: root.path + "/unused")
        let privateTopic = "ntfy:" + ntfy.url("sis-private-4k7q9w2z")
        let sis = h.run(
            "alice",
            ["contacts", "edit", "Sis", "--notify", "ntfy:" + ntfy.url("sis-alarms"), "--button-topic", privateTopic],
            now: "2026-03-01T09:00:00Z", environment: Self.env)
        #expect(sis.code == 0, "\(sis.stderr)")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-01T12:05:00Z", environment: Self.env).code == 0)
        // Alice's machines are dark past her deadline: Bob's device tells her sister.
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T09:15:00Z", environment: Self.env).code == 0)
        let alarm = try #require(ntfy.published("sis-alarms").last)
        #expect((alarm["title"] as? String)?.hasPrefix("Alice missed") == true, "\(alarm)")
        #expect(alarm["actions"] == nil, "\(alarm)")
        #expect(ntfy.published("sis-private-4k7q9w2z").isEmpty)
        // A member is no external contact; a topic must be an ntfy URL with a name nobody
        // guesses, and in no channel or inbox of the circle; 'off' removes it.
        let now = "2026-03-02T10:00:00Z"
        let member = h.run("alice", ["contacts", "edit", "Bob", "--button-topic", privateTopic], now: now)
        #expect(member.code == 64 && member.stderr.contains("are for external contacts"), "\(member.stderr)")
        let refusals = [
            ("https://ntfy.sh/", "ends in one topic name"), ("ntfy:" + ntfy.url("sis"), "could be guessed"),
            ("ntfy:" + ntfy.url("sis-alarms"), "already a channel or an inbox in your circle folder"),
            ("ntfy:" + ntfy.url("alice-inbox-7f3k9q2m"), "already a channel or an inbox in your circle folder"),
        ]
        for (topic, problem) in refusals {
            let bad = h.run("alice", ["contacts", "edit", "Sis", "--button-topic", topic], now: now)
            #expect(bad.code != 0 && bad.stderr.contains("cannot be a button topic"), "\(bad.stderr)")
            #expect(bad.stderr.contains(problem), "\(topic): \(bad.stderr)")
        }
        let inbox = "ntfy:" + ntfy.url("alice-inbox-7f3k9q2m")
        let phone = h.run(
            "alice", ["checkin", "inbox", inbox, "--phone", "ntfy:" + ntfy.url("sis-alarms")], now: now)
        #expect(phone.code != 0 && phone.stderr.contains("cannot be your phone topic"), "\(phone.stderr)")
        let off = h.run("alice", ["contacts", "edit", "Sis", "--button-topic", "off"], now: now)
        #expect(off.code == 0 && off.stdout.contains("no button topic on this device"), "\(off.stdout)")
        let shown = jsonObject(h.run("alice", ["contacts", "show", "Sis", "--json"], now: now).stdout)
        #expect((shown["contact"] as? [String: Any])?["buttonTopic"] == nil, "\(shown)")
    }
}
