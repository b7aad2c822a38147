import Foundation
import TestSupport
import Testing

// Believable alarms: a watcher relays a dependent's miss to her sister as confirmed only when
// it can show its copy of the circle is current after the deadline; without that it tells its
// own user, holds, and after the hold relays marked unconfirmed — never silence, never a false
// certainty. Real git with a bare remote, a real Syncthing pair, a real HTTP listener.

@Suite(.integration) struct BelievableAlarmTests {
    static let env = ["PATH": DeliveryTests.path()]

    /// The relays the sister received at `path`: each document as JSON.
    static func received(_ recorder: HTTPRecorder, _ path: String = "/sis") -> [[String: Any]] {
        recorder.requests().filter { $0.path == path }.compactMap { $0.json }
    }

    /// Alice, Bob (who watches over her) and Carl in one folder; Alice's sister is reached by a
    /// webhook. Bob's device is told the folder is copied by a tool it cannot ask, so only
    /// records confirm (as in an rsync'd folder).
    static func family(_ recorder: HTTPRecorder) -> Household {
        let h = Household()
        h.join(["Alice", "Bob", "Carl"], now: "2026-03-01T09:00:00Z")
        #expect(
            h.run("bob", ["contacts", "add", h.code("alice"), "--dependent", "--quiet"], now: "2026-03-01T09:00:00Z")
                .code == 0)
        #expect(
            h.run(
                "alice", ["contacts", "add", "Sis", "--responder", "--notify", recorder.url("/sis"), "--quiet"],
                now: "2026-03-01T09:00:00Z", environment: env
            ).code == 0)
        #expect(h.run("alice", ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        let engine = h.run("bob", ["circle", "engine", "other"], now: "2026-03-01T09:00:00Z")
        #expect(engine.code == 0, "\(engine.stderr)")
        return h
    }

    /// Carl's cron ran after Alice's deadline and its record reached Bob's copy. That confirms
    /// nothing on its own: Carl (or whoever can write the folder) could have put Alice's older
    /// log back and kept his own cron going. Bob holds, and after the hold tells the sister once,
    /// marked unconfirmed.
    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func aThirdMembersRecordAfterTheDeadlineConfirmsNothing() throws {
        let recorder = try HTTPRecorder()
        let h = Self.family(recorder)
        #expect(h.run("carl", ["notify", "deliver"], now: "2026-03-02T09:05:00Z", environment: Self.env).code == 0)
        for now in ["2026-03-02T09:10:00Z", "2026-03-02T09:16:00Z", "2026-03-02T10:05:00Z"] {
            let run = h.run("bob", ["notify", "deliver"], now: now, environment: Self.env)
            #expect(run.code == 0, "\(run.stderr)")
        }
        #expect(Self.received(recorder).isEmpty, "held: \(Self.received(recorder).map { $0["title"] ?? "" })")
        #expect(h.run("bob", ["notify", "deliver"], now: "2026-03-02T11:05:00Z", environment: Self.env).code == 0)
        let relays = Self.received(recorder)
        #expect(relays.count == 1, "exactly once: \(relays.map { $0["title"] ?? "" })")
        let miss = try #require(relays.first)
        #expect(miss["type"] as? String == "receive_non_responsive_dependent_alert")
        #expect(miss["confirmed"] as? Bool == false, "\(miss)")
        #expect(miss["lastHeardFrom"] as? String == "2026-03-01T09:00:00+00:00", "\(miss)")
        #expect(miss["relayedBy"] as? String == "Bob")
    }

    /// Nothing newer than the deadline ever reaches Bob's copy: he is told at once and his
    /// status says someone needs attention; the sister hears nothing during the hold, then
    /// exactly one relay, marked unconfirmed in its title, its text and its document.
    @Test(.enabled(if: HTTPRecorder.isAvailable && DeliveryTools.curl != nil, DeliveryTools.missing("python3 or curl")))
    func aCopyThatStaysStaleRelaysOnceAfterTheHoldUnconfirmed() throws {
        let recorder = try HTTPRecorder()
        let h = Self.family(recorder)
        let bobs = h.run(
            "bob", ["notify", "prefs", "--channel", recorder.url("/bob"), "--quiet"], now: "2026-03-01T09:00:00Z",
            environment: Self.env)
        #expect(bobs.code == 0, "\(bobs.stderr)")
        let status = h.run("bob", ["status"], now: "2026-03-02T09:30:00Z")
        #expect(status.code == 6, "\(status.stderr)")
        #expect(
            status.stderr.contains("cannot tell whether Alice missed the check-in due 2026-03-02 09:00 UTC"),
            "\(status.stderr)")
        #expect(status.stderr.contains("lifesignal cannot ask the tool that copies this folder"))
        #expect(
            status.stderr.contains("Alice's responders are told at 2026-03-02 11:00 UTC anyway, marked unconfirmed"))
        let json = h.run("bob", ["contacts", "list", "--json"], now: "2026-03-02T09:30:00Z")
        #expect(json.stderr.contains(#""code":"cannot-confirm-miss""#), "\(json.stderr)")
        let circle = h.run("bob", ["circle", "status"], now: "2026-03-02T09:30:00Z")
        #expect(circle.code == 6, "\(circle.stdout)\(circle.stderr)")
        #expect(circle.stdout.contains("Alice: last heard 2026-03-01 09:00 UTC (1d ago)"), "\(circle.stdout)")
        for now in ["2026-03-02T09:10:00Z", "2026-03-02T10:00:00Z", "2026-03-02T10:59:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        #expect(Self.received(recorder).isEmpty, "held while unconfirmed")
        // Bob himself is told at once, and told that his copy could not confirm it.
        let own = try #require(
            Self.received(recorder, "/bob").first { $0["type"] as? String == "receive_non_responsive_dependent_alert" })
        #expect(own["confirmed"] as? Bool == false, "\(own)")
        #expect(own["title"] as? String == "Alice may have missed the 09:00 check-in (unconfirmed)")
        #expect(
            (own["text"] as? String)?.hasPrefix(
                "Unconfirmed: this computer could not confirm that its copy of Alice's records is up to date") == true,
            "\(own)")
        for now in ["2026-03-02T11:00:00Z", "2026-03-02T11:30:00Z", "2026-03-02T11:55:00Z"] {
            #expect(h.run("bob", ["notify", "deliver"], now: now, environment: Self.env).code == 0)
        }
        let relays = Self.received(recorder)
        #expect(relays.count == 1, "exactly one relay after the hold")
        let miss = try #require(relays.first)
        #expect(miss["confirmed"] as? Bool == false)
        #expect(miss["title"] as? String == "Alice may have missed the 09:00 check-in (unconfirmed)")
        #expect(miss["copyCurrentAt"] is NSNull)
        let text = miss["text"] as? String ?? ""
        #expect(
            text.hasPrefix(
                "Unconfirmed: Bob's computer could not confirm that its copy of Alice's records is up to date"),
            "\(text)")
        #expect(text.contains("- Try to reach Alice first: this alarm is not confirmed."))
    }
}

/// The scenario of the report, over git: Bob's remote becomes unreachable (his laptop is
/// offline) while Alice checks in on time on her own machine. Bob's device must not tell her
/// sister anything; it tells Bob; and once his sync works again, still nothing goes out.
@Suite(
    .integration,
    .enabled(if: GitCircle.git != nil && HTTPRecorder.isAvailable, DeliveryTools.missing("git or python3")))
struct BelievableGitAlarmTests {
    @Test func aWatcherWhoseRemoteIsDownTellsTheSisterNothing() throws {
        let recorder = try HTTPRecorder()
        let circle = GitCircle()
        let a = circle.clone("a")
        // Bob reaches the remote through a path that can go away, as a network would.
        let link = circle.root.path + "/bobs-way-to-the-remote.git"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: circle.remote)
        GitCircle.run(["clone", "-q", link, circle.root.path + "/b"])
        let b = circle.root.path + "/b"
        let t0 = "2026-03-01T09:00:00Z"
        let env = ["PATH": DeliveryTests.path()]
        #expect(circle.run("alice", ["init", "--name", "Alice", "--circle", a, "--quiet"], now: t0).code == 0)
        #expect(circle.run("alice", ["checkin", "--quiet"], now: t0).code == 0)
        _ = env
        #expect(
            circle.run(
                "alice", ["contacts", "add", "Sis", "--responder", "--notify", recorder.url("/sis"), "--quiet"], now: t0
            )
            .code == 0)
        #expect(circle.run("alice", ["circle", "sync"], now: t0).code == 0)
        #expect(circle.run("bob", ["init", "--name", "Bob", "--circle", b, "--quiet"], now: t0).code == 0)
        #expect(circle.run("bob", ["circle", "sync"], now: t0).code == 0)
        let code = circle.run("alice", ["contacts", "code"], now: t0).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(circle.run("bob", ["contacts", "add", code, "--dependent", "--quiet"], now: t0).code == 0)
        #expect(circle.run("bob", ["circle", "sync"], now: t0).code == 0)
        #expect(circle.run("alice", ["circle", "sync"], now: t0).code == 0)

        // The next morning Alice checks in on time and syncs; Bob's way to the remote is gone.
        #expect(circle.run("alice", ["checkin", "--quiet"], now: "2026-03-02T08:30:00Z").code == 0)
        #expect(circle.run("alice", ["circle", "sync"], now: "2026-03-02T08:31:00Z").code == 0)
        try FileManager.default.removeItem(atPath: link)
        #expect(circle.run("bob", ["circle", "sync"], now: "2026-03-02T08:40:00Z").code != 0)
        for now in ["2026-03-02T09:20:00Z", "2026-03-02T09:40:00Z"] {
            let deliver = circle.run("bob", ["notify", "deliver"], now: now)
            #expect(deliver.code == 0, "\(deliver.stderr)")
        }
        #expect(BelievableAlarmTests.received(recorder).isEmpty, "no alarm while Bob's copy cannot be confirmed")
        let status = circle.run("bob", ["status"], now: "2026-03-02T09:40:00Z")
        #expect(status.code == 6, "\(status.stderr)")
        #expect(status.stderr.contains("cannot tell whether Alice missed"), "\(status.stderr)")
        #expect(status.stderr.contains("git fetch fails since 2026-03-02 08:40 UTC"), "\(status.stderr)")
        let doctor = circle.run("bob", ["doctor"], now: "2026-03-02T09:40:00Z")
        #expect(doctor.stdout.contains("FAIL  circle sync: git"), "\(doctor.stdout)")

        // Bob's laptop is back online: his sync brings Alice's check-in; nothing goes out.
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: circle.remote)
        #expect(circle.run("bob", ["circle", "sync"], now: "2026-03-02T10:00:00Z").code == 0)
        #expect(circle.run("bob", ["notify", "deliver"], now: "2026-03-02T10:05:00Z").code == 0)
        #expect(circle.run("bob", ["status", "--quiet"], now: "2026-03-02T10:05:00Z").code == 0)
        #expect(BelievableAlarmTests.received(recorder).isEmpty, "Alice was on time: her sister hears nothing")
    }
}
