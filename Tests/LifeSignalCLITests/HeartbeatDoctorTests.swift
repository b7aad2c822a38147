import Foundation
import TestSupport
import Testing

// The remote fail-safe (heartbeat URLs requested by curl from a real local listener), the
// "nobody is watching" warnings of `status --json`, and `doctor`, each in the situation that
// causes it.

@Suite(.integration) struct HeartbeatDoctorTests {
    static let env = ["PATH": DeliveryTests.path()]

    func codes(_ run: Run) -> [String] {
        (jsonObject(run.stdout)["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// The failing checks of `doctor --json`, as their codes.
    func failing(_ run: Run) -> [String] {
        (jsonObject(run.stdout)["checks"] as? [[String: Any]] ?? []).filter { $0["ok"] as? Bool == false }
            .compactMap { $0["code"] as? String }
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func heartbeatsAreRequestedOncePerCheckInAndOncePerDeliverRun() throws {
        let recorder = try HTTPRecorder()
        let home = TempHome()
        home.run(["checkin", "--quiet"], environment: Self.env)
        home.addResponder()
        #expect(home.run(["notify", "heartbeat", "add", recorder.url("/checkin")]).code == 0)
        let added = home.run(["notify", "heartbeat", "add", recorder.url("/deliver"), "--on", "deliver"])
        #expect(added.stdout == "\(recorder.url("/deliver")) will be requested after every 'notify deliver' run.\n")
        for now in ["2026-03-01T10:00:00Z", "2026-03-01T11:00:00Z"] {
            let run = home.run(["checkin"], now: now, environment: Self.env)
            #expect(run.code == 0 && run.stderr == "", "\(run.stderr)")
        }
        for now in ["2026-03-01T11:05:00Z", "2026-03-01T11:10:00Z", "2026-03-01T11:15:00Z"] {
            #expect(home.run(["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        // Ending an alert is a check-in too: its heartbeat is requested.
        #expect(
            home.run(["alert", "activate", "--yes", "--quiet"], now: "2026-03-01T11:20:00Z", environment: Self.env).code
                == 0)
        #expect(
            home.run(["alert", "deactivate", "--yes", "--quiet"], now: "2026-03-01T11:25:00Z", environment: Self.env)
                .code == 0)
        let paths = recorder.requests().map(\.path)
        #expect(paths.filter { $0 == "/checkin" }.count == 3)
        #expect(paths.filter { $0 == "/deliver" }.count == 5, "the alert commands deliver at once, a run each")
        #expect(recorder.requests().allSatisfy { $0.method == "GET" })
        let list = jsonObject(home.run(["notify", "heartbeat", "list", "--json"]).stdout)
        let entries = try #require(list["heartbeats"] as? [[String: Any]])
        #expect(entries.map { $0["on"] as? String } == ["checkin", "deliver"])
        #expect(entries.allSatisfy { $0["failingSince"] is NSNull && $0["lastSuccess"] is String })
        // Removed: no more requests.
        #expect(home.run(["notify", "heartbeat", "remove", recorder.url("/checkin")]).code == 0)
        home.run(["checkin", "--quiet"], now: "2026-03-01T12:00:00Z", environment: Self.env)
        #expect(recorder.requests().filter { $0.path == "/checkin" }.count == 3)
        let unknown = home.run(["notify", "heartbeat", "remove", "https://example.org/x"])
        #expect(unknown.code == 65)
        #expect(unknown.stderr.contains("is not one of your heartbeat URLs"))
        #expect(home.run(["notify", "heartbeat", "add", "exec:true"]).code == 64)
    }

    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func aDeadHeartbeatNeitherFailsNorHoldsUpTheCheckInAndIsNamed() throws {
        let recorder = try HTTPRecorder()
        let home = TempHome()
        home.run(["checkin", "--quiet"], environment: Self.env)
        home.addResponder()
        home.run(["notify", "deliver", "--quiet"], environment: Self.env)
        // The service hangs for 30 s: the check-in is recorded and returns after the 5 s timeout.
        #expect(home.run(["notify", "heartbeat", "add", recorder.url("/slow")]).code == 0)
        let started = Date()
        let checkin = home.run(["checkin"], now: "2026-03-01T10:00:00Z", environment: Self.env)
        let seconds = Date().timeIntervalSince(started)
        #expect(checkin.code == 0)
        #expect(seconds < 9, "the check-in took \(seconds)s")
        #expect(checkin.stdout.hasPrefix("Checked in at 2026-03-01 10:00 UTC."))
        #expect(checkin.stderr.contains("warning: the heartbeat \(recorder.url("/slow")) has been failing since"))
        #expect(codes(home.run(["status", "--json"], now: "2026-03-01T10:01:00Z")) == ["heartbeat-failing"])
        let doctor = home.run(["doctor"], now: "2026-03-01T10:01:00Z", environment: Self.env)
        #expect(doctor.code == 7)
        #expect(doctor.stdout.contains("FAIL  heartbeat (checkin) \(recorder.url("/slow")): failing since"))
        #expect(failing(home.run(["doctor", "--json"], now: "2026-03-01T10:01:00Z")) == ["heartbeat-failing"])
    }

    @Test func statusWarnsWhenNobodyCanBeReachedAndNothingIsDelivered() {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        // Bea watches over Ana, but no machine of Bea's runs deliver: Ana's miss reaches nobody.
        #expect(h.run("bea", ["contacts", "add", h.code("ana"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("ana", ["contacts", "confirm", "Bea", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("ana", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        let status = h.run("ana", ["status", "--json"], now: "2026-03-01T10:00:00Z")
        #expect(codes(status) == ["responders-unreachable"])
        // A day and a half on, Ana's own cron has not run either.
        #expect(
            codes(h.run("ana", ["status", "--json"], now: "2026-03-02T21:00:00Z")) == [
                "responders-unreachable", "no-delivery-runs",
            ])
        // Bea's cron runs once: reachable; Ana's runs: nothing to say.
        #expect(h.run("bea", ["notify", "deliver", "--quiet"], now: "2026-03-02T21:00:00Z").code == 0)
        #expect(h.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-02T21:00:00Z").code == 0)
        #expect(codes(h.run("ana", ["status", "--json"], now: "2026-03-02T21:05:00Z")) == [])
        let plain = h.run("ana", ["status"], now: "2026-03-02T21:05:00Z")
        #expect(plain.stderr == "")
    }

    @Test func aChannelFailingForOverAnHourIsAWarningAndADoctorFinding() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:exit 3", "--quiet"])
        #expect(home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T09:05:00Z").code == 75)
        #expect(codes(home.run(["status", "--json"], now: "2026-03-02T09:30:00Z")) == [])
        // Under the hour, doctor tells the failures as such, and when they will count.
        let early = home.run(["doctor"], now: "2026-03-02T09:30:00Z")
        #expect(
            early.stdout.contains(
                "ok    channel of Sam exec:exit 3: sends have failed since 2026-03-02 09:05 UTC (25m ago): sh exited with status 3; each run tries again, and after 1h of failures this check fails\n"
            ), "\(early.stdout)")
        #expect(home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T10:10:00Z").code == 75)
        let status = home.run(["status", "--json"], now: "2026-03-02T10:10:00Z")
        #expect(codes(status) == ["channel-failing"])
        let plain = home.run(["status"], now: "2026-03-02T10:10:00Z")
        #expect(
            plain.stderr
                == "lifesignal: warning: delivery through exec:exit 3 has been failing since 2026-03-02 09:05 UTC (sh exited with status 3); 1 notification waits for it. Check it with 'lifesignal notify test'.\n"
        )
        let doctor = home.run(["doctor", "--json"], now: "2026-03-02T10:10:00Z")
        #expect(doctor.code == 7)
        #expect(failing(doctor) == ["channel-failing"])
    }

    @Test func doctorNamesEachBrokenLinkWithItsFix() throws {
        // A fresh profile: no responders, deliver never run (a day later), and a dependent
        // whose alerts would reach nobody since there is no channel of my own.
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("ana", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        let doctor = h.run("ana", ["doctor"], now: "2026-03-02T12:00:00Z")
        #expect(doctor.code == 7)
        #expect(
            doctor.stdout.hasPrefix(
                "ok    data directory \(h.root.path)/ana, chosen by LIFESIGNAL_HOME=\(h.root.path)/ana\n"))
        #expect(
            doctor.stdout.contains(
                "FAIL  nobody watches over you: you have no responders\n      fix: lifesignal contacts add"))
        #expect(doctor.stdout.contains("FAIL  you watch over Bea but have no channel"))
        #expect(
            doctor.stdout.contains(
                "FAIL  'notify deliver' has not run on this machine yet\n      fix: add '*/5 * * * * lifesignal notify deliver' to your crontab"
            ))
        #expect(doctor.stdout.contains("ok    member Bea: last change seen 2026-03-01 09:00 UTC"))
        #expect(
            failing(h.run("ana", ["doctor", "--json"], now: "2026-03-02T12:00:00Z")) == [
                "no-responders", "no-channels", "no-delivery-runs",
            ])
        // Fixed: all is well, exit 0.
        h.run(
            "ana", ["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"],
            now: "2026-03-02T12:00:00Z")
        h.run("ana", ["notify", "prefs", "--channel", "exec:true", "--quiet"], now: "2026-03-02T12:00:00Z")
        h.run("ana", ["notify", "deliver", "--quiet"], now: "2026-03-02T12:00:00Z")
        let healthy = h.run("ana", ["doctor"], now: "2026-03-02T12:01:00Z")
        #expect(healthy.code == 0, "\(healthy.stdout)")
        #expect(!healthy.stdout.contains("FAIL"))

        // The circle folder is gone (a sync folder renamed): a finding with the way out.
        try FileManager.default.moveItem(atPath: h.circle, toPath: h.circle + "-renamed")
        let missing = h.run("ana", ["doctor"], now: "2026-03-02T12:02:00Z")
        #expect(missing.code == 7)
        #expect(missing.stdout.contains("FAIL  "), "\(missing.stdout)")
        #expect(missing.stdout.contains(h.circle), "\(missing.stdout)")
        try FileManager.default.moveItem(atPath: h.circle + "-renamed", toPath: h.circle)
        #expect(h.run("ana", ["doctor"], now: "2026-03-02T12:02:00Z").code == 0)

        // The identity cannot be read: a finding, not a crash.
        let identity = h.root.path + "/ana/identity.json"
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: identity))
        let broken = h.run("ana", ["doctor"], now: "2026-03-02T12:02:00Z")
        #expect(broken.code == 7)
        #expect(broken.stdout.contains("FAIL  \(identity) is damaged"), "\(broken.stdout)")
        #expect(failing(h.run("ana", ["doctor", "--json"], now: "2026-03-02T12:02:00Z")) == ["unreadable"])
    }

    @Test func anExternalReachedOnlyByThisMachineIsSaidWhenAdded() {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        let added = home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true"])
        #expect(added.code == 0)
        #expect(added.stderr.contains("Sam can be told only by this device"))
        let network = home.run(["contacts", "add", "Kim", "--responder", "--notify", "mailto:kim@example.org"])
        #expect(network.stderr == "")
    }

    @Test func aMemberWhoseRecordsStoppedChangingIsFlagged() {
        let h = Household()
        h.join(["Ana", "Bea"], now: "2026-03-01T09:00:00Z")
        #expect(h.run("ana", ["contacts", "add", h.code("bea"), "--dependent"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(h.run("bea", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(!codes(h.run("ana", ["status", "--json"], now: "2026-03-02T10:00:00Z")).contains("stale-records"))
        let late = h.run("ana", ["status", "--json"], now: "2026-03-03T10:00:00Z")
        #expect(codes(late).contains("stale-records"))
        let plain = h.run("ana", ["status"], now: "2026-03-03T10:00:00Z")
        #expect(plain.stderr.contains("Bea's records here last changed 2026-03-01 09:00 UTC: is the sync running?"))
        #expect(failing(h.run("ana", ["doctor", "--json"], now: "2026-03-03T10:00:00Z")).contains("stale-records"))
    }

    /// Three hours of a broken channel under a five-minute cron: one "failing" line, one
    /// "works again" line, and `status` naming the channel meanwhile.
    @Test func aFailingChannelUnderCronSaysSoOnceAndOnceWhenItRecovers() throws {
        let home = TempHome()
        let broken = home.path + "/broken"
        _ = FileManager.default.createFile(atPath: broken, contents: nil)
        home.run(["checkin", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:test ! -e '\(broken)'", "--quiet"])
        var mailed: [String] = []
        var warned = false
        for step in 0..<36 {
            let minutes = 5 + step * 5
            let now =
                "2026-03-02T\(String(format: "%02d", 9 + minutes / 60)):\(String(format: "%02d", minutes % 60)):00Z"
            let run = home.run(["notify", "deliver"], now: now)
            mailed += run.stderr.split(separator: "\n").map(String.init)
            if step == 20 { warned = codes(home.run(["status", "--json"], now: now)).contains("channel-failing") }
        }
        #expect(mailed.count == 1, "\(mailed)")
        // Fixed; the channel's next try (after the 4h pause) gets everything through.
        try FileManager.default.removeItem(atPath: broken)
        mailed += home.run(["notify", "deliver"], now: "2026-03-02T14:35:00Z").stderr.split(separator: "\n").map(
            String.init)
        #expect(mailed.count == 2, "\(mailed)")
        #expect(mailed.first?.hasPrefix("lifesignal: delivery through exec:test ! -e") == true)
        #expect(mailed.first?.contains("is failing") == true)
        #expect(mailed.last?.contains("works again (failing since 2026-03-02 09:05 UTC): 1 sent.") == true)
        #expect(warned, "status names the failing channel meanwhile")
    }
}
