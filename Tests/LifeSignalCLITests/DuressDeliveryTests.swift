import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the programs the duress delivery tests run are installed.
enum DuressTools {
    static let present = CronMailTests.hasMail && HTTPRecorder.isAvailable && DeliveryTools.curl != nil
    static let missing: Comment =
        "needs curl, python3, msmtp-mta (msmtp as /usr/sbin/sendmail) and python3-aiosmtpd; .ci/run installs them"
}

/// The silent alarm through real channels: Alice's sister Sam gets it at an HTTP endpoint
/// (curl against the recorder) and Ana, a member who watches over Alice and whom Alice
/// confirmed, by e-mail through her own channel (msmtp as /usr/sbin/sendmail against the
/// aiosmtpd server). The check-in is the real binary, so its background run is real too.
@Suite(.integration, .enabled(if: DuressTools.present, DuressTools.missing))
struct DuressDeliveryTests {
    static let word = "blue heron"

    /// 2026-03-01 at 14:MM UTC.
    static func at(_ minute: Int) -> String { "2026-03-01T14:\(minute < 10 ? "0" : "")\(minute):00Z" }

    /// The mail about Alice's duress check-in (Ana's own lifesignal mails her other news).
    static func alarms(_ smtp: SMTPServer) -> [ReceivedMail] {
        smtp.messages().filter { $0.to == ["ana@example.org"] && $0.header("Subject")?.contains("duress") == true }
    }

    /// Alice and Ana in one circle; Ana watches over Alice and Alice confirmed her; Sam is
    /// Alice's sister, an external responder at `samURL`; Alice's duress word is set.
    struct Circle {
        let root = TempHome()
        var circle: String { root.path + "/circle" }
        func data(_ person: String) -> String { root.path + "/" + person }

        init(smtpPort: Int, samURL: String) throws {
            let config = """
                defaults
                auth off
                tls off
                account default
                host 127.0.0.1
                port \(smtpPort)
                from alice@example.org

                """
            try Data(config.utf8).write(to: URL(fileURLWithPath: root.path + "/.msmtprc"))
            #expect(chmod(root.path + "/.msmtprc", 0o600) == 0)
            for person in ["alice", "ana"] {
                #expect(run(person, ["init", "--name", person.capitalized, "--circle", circle, "--quiet"]).code == 0)
            }
            #expect(run("ana", ["notify", "prefs", "--channel", "mailto:ana@example.org", "--quiet"]).code == 0)
            let code = run("ana", ["contacts", "code"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(run("alice", ["contacts", "add", code, "--responder", "--quiet"]).code == 0)
            #expect(run("alice", ["contacts", "add", "Sam", "--responder", "--notify", samURL, "--quiet"]).code == 0)
            let set = run("alice", ["checkin", "duress", "set"], stdin: word + "\n")
            #expect(set.stdout.contains("tells: Ana, Sam."), "\(set.stdout) \(set.stderr)")
            #expect(run("alice", ["checkin", "--note", "off to the market"], now: "2026-03-01T08:00:00Z").code == 0)
        }

        /// cron's environment, as the real binary gets it.
        @discardableResult
        func run(_ person: String, _ arguments: [String], now: String = "2026-03-01T07:00:00Z", stdin: String? = nil)
            -> Run
        {
            spawn(
                arguments,
                environment: [
                    "HOME": root.path, "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "LIFESIGNAL_HOME": data(person),
                    "LIFESIGNAL_NOW": now, "TZ": "UTC", "LIFESIGNAL_TEST_DURESS_ROUNDS": "200",
                ], stdin: stdin)
        }

        /// Waits until no lifesignal run for `person` is left (the background one a check-in
        /// started ends on its own).
        func waitForBackgroundRuns(_ person: String, timeout: TimeInterval = 30) {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let busy = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.contains { entry in
                    guard Int32(entry) != nil,
                        let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
                    else { return false }
                    return String(decoding: cmdline, as: UTF8.self).contains(data(person) + "\u{0}notify")
                }
                if busy != true { return }
                usleep(50_000)
            }
            Issue.record("a background run of lifesignal for \(person) did not end in \(timeout)s")
        }
    }

    @Test func theSisterAndAConfirmedWatcherEachGetTheAlarmOnce() throws {
        let smtp = try SMTPServer()
        defer { smtp.stop() }
        let recorder = try HTTPRecorder()
        defer { recorder.stop() }
        let family = try Circle(smtpPort: smtp.port, samURL: recorder.url("/sam"))
        let started = Date()
        let checkIn = family.run("alice", ["checkin", "--note", "Blue Heron"], now: "2026-03-01T14:02:00Z")
        let took = Date().timeIntervalSince(started)
        #expect(checkIn.code == 0)
        #expect(
            checkIn.stdout
                == "Checked in at 2026-03-01 14:02 UTC.\nNext deadline 2026-03-02 14:02 UTC (in 1d); reminder at 2026-03-02 13:32 UTC.\n"
        )
        #expect(took < 5, "the check-in waits for no channel (\(took)s)")
        // Sent in the background, within seconds, with no cron run.
        let requests = recorder.waitForRequests(1)
        let mail = smtp.waitForMessages(1)
        family.waitForBackgroundRuns("alice")
        for minute in [5, 10, 15] {
            let deliver = family.run("alice", ["notify", "deliver"], now: Self.at(minute + 2))
            #expect(deliver.code == 0 && deliver.stdout.isEmpty && deliver.stderr.isEmpty, "\(deliver)")
            family.run("ana", ["notify", "deliver"], now: Self.at(minute + 2))
        }
        let sam = recorder.requests().filter { $0.path == "/sam" }
        #expect(sam.count == 1, "\(sam.map(\.bodyText))")
        let body = sam.first?.json ?? [:]
        #expect(body["title"] as? String == "Alice checked in under duress: they may be in danger")
        #expect(
            (body["text"] as? String)?.hasPrefix(
                "Alice checked in with their duress word at 14:02 UTC from their device") == true, "\(body)")
        #expect((body["text"] as? String)?.contains("note “off to the market”") == true)
        let toAna = Self.alarms(smtp)
        #expect(toAna.count == 1, "\(smtp.messages().map { $0.header("Subject") })")
        #expect(toAna.first?.header("Subject") == "Alice checked in under duress: they may be in danger")
        #expect(requests.count >= 1 && mail.count >= 1)
        for text in sam.map(\.bodyText) + toAna.map({ String(decoding: $0.raw, as: UTF8.self) }) {
            #expect(!text.lowercased().contains("blue heron"), "the word is never sent")
        }
        // Nothing of it in the circle, which Ana reads.
        let files = FileManager.default.enumerator(atPath: family.circle)?.compactMap { $0 as? String } ?? []
        for relative in files {
            let bytes = FileManager.default.contents(atPath: family.circle + "/" + relative) ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).lowercased().contains("duress"), "\(relative)")
        }
    }

    @Test func withTheChannelDownCronsRunsDeliverItOnceWhenItRecovers() throws {
        let smtp = try SMTPServer()
        defer { smtp.stop() }
        let recorder = try HTTPRecorder()
        defer { recorder.stop() }
        // The first three requests get 503: the background attempt and two cron runs.
        let path = "/sam/flaky/3"
        let family = try Circle(smtpPort: smtp.port, samURL: recorder.url(path))
        #expect(family.run("alice", ["checkin", "--note", Self.word], now: "2026-03-01T14:02:00Z").code == 0)
        _ = recorder.waitForRequests(1)
        family.waitForBackgroundRuns("alice")
        var statuses: [Int] = []
        for minute in stride(from: 5, through: 30, by: 5) {
            let before = recorder.requests().count
            let deliver = family.run("alice", ["notify", "deliver"], now: Self.at(minute + 2))
            // cron mails nothing about it, failing or not.
            #expect(deliver.code == 0 && deliver.stdout.isEmpty && deliver.stderr.isEmpty, "\(deliver)")
            statuses.append(recorder.requests().count - before)
        }
        let sam = recorder.requests().filter { $0.path == path }
        #expect(sam.count == 4, "one attempt in the background, then one per run until one got through")
        #expect(statuses == [1, 1, 1, 0, 0, 0], "\(statuses)")
        #expect(Self.alarms(smtp).count == 1)
        let status = family.run("alice", ["checkin", "duress", "status", "--yes", "--json"])
        let sends = jsonObject(status.stdout)["sends"] as? [[String: Any]] ?? []
        #expect(sends.count == 2 && sends.allSatisfy { $0["sent"] is String }, "\(status.stdout)")
        #expect(sends.first { $0["name"] as? String == "Sam" }?["tries"] as? Int == 3)
    }
}
