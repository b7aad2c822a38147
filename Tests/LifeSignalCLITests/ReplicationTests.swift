import Foundation
import Testing

/// Two machines whose circles are two separate folders, kept in step only by copying files
/// (as Syncthing, Dropbox or `rsync --update` would), behave as one circle: whatever is done on
/// either side appears on the other after a copy, nothing is lost and nothing conflicts,
/// whichever order the copies happen in.
@Suite struct ReplicationTests {
    let root = TempHome()

    /// Ana's laptop ("m1") and Bea's laptop ("m2").
    func run(_ machine: String, _ arguments: [String], now: String) -> Run {
        lifesignal(
            arguments,
            environment: [
                "LIFESIGNAL_HOME": "\(root.path)/\(machine)/data", "LIFESIGNAL_NOW": now, "TZ": "UTC",
                "PATH": "/usr/bin:/bin",
            ])
    }

    func circle(_ machine: String) -> String { "\(root.path)/\(machine)/circle" }

    /// Copies every file of one circle folder to the other where it is missing or newer there,
    /// keeping modification times — the rule every sync tool follows.
    func sync(from source: String, to destination: String) {
        let copy = lifesignal(
            ["-r", "-u", "-p", circle(source) + "/.", circle(destination)], environment: ["PATH": "/usr/bin:/bin"],
            executable: "/bin/cp")
        #expect(copy.code == 0, "cp failed: \(copy.stderr)")
    }

    func code(_ machine: String) -> String {
        run(machine, ["contacts", "code"], now: "2026-03-01T09:00:00Z").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// What each side can see, as JSON, for comparing the two machines.
    func view(_ machine: String, now: String) -> [String: String] {
        [
            "contacts": run(machine, ["contacts", "list", "--json"], now: now).stdout,
            "pings": run(machine, ["ping", "list", "--history", "--json"], now: now).stdout,
        ]
    }

    func setUp() {
        #expect(run("m1", ["init", "--name", "Ana", "--circle", circle("m1")], now: "2026-03-01T08:00:00Z").code == 0)
        #expect(run("m2", ["init", "--name", "Bea", "--circle", circle("m2")], now: "2026-03-01T08:00:00Z").code == 0)
        // Before any copy, neither machine knows the other's code.
        let unknown = run("m2", ["contacts", "add", code("m1"), "--responder"], now: "2026-03-01T08:30:00Z")
        #expect(unknown.code == 65)
        sync(from: "m1", to: "m2")
        sync(from: "m2", to: "m1")
        // Bea asks Ana to watch over her (Ana becomes Bea's responder; Bea, Ana's dependent).
        #expect(run("m2", ["contacts", "add", code("m1"), "--responder"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(
            run("m1", ["contacts", "list"], now: "2026-03-01T09:01:00Z").stdout.hasPrefix("No contacts yet."),
            "not copied yet")
        sync(from: "m2", to: "m1")
        #expect(run("m1", ["contacts", "list"], now: "2026-03-01T09:01:00Z").stdout.contains("Bea   Dependent"))
        sync(from: "m1", to: "m2")
    }

    /// Both sides change things before the next copy.
    func concurrentEdits() {
        #expect(run("m1", ["ping", "send", "Bea"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(run("m1", ["checkin", "--note", "on m1"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(
            run(
                "m1", ["contacts", "add", "Sam", "--responder", "--email", "sam@example.org"],
                now: "2026-03-01T10:00:00Z"
            ).code == 0)
        #expect(run("m2", ["checkin", "--note", "on m2"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(run("m2", ["contacts", "edit", "Ana", "--dependent"], now: "2026-03-01T10:00:00Z").code == 0)
        #expect(run("m2", ["checkin", "interval", "16h"], now: "2026-03-01T10:00:00Z").code == 0)
    }

    @Test func bothOrdersGiveTheSameCircle() {
        // Run the same story twice in two roots, copying in opposite orders; the views match.
        var views: [[String: String]] = []
        for m1First in [true, false] {
            let scenario = ReplicationTests()
            scenario.setUp()
            scenario.concurrentEdits()
            if m1First {
                scenario.sync(from: "m1", to: "m2")
                scenario.sync(from: "m2", to: "m1")
            } else {
                scenario.sync(from: "m2", to: "m1")
                scenario.sync(from: "m1", to: "m2")
            }
            let now = "2026-03-01T11:00:00Z"
            // Ids differ between the two runs; compare the shape of what each side sees.
            func normalized(_ text: String) -> String {
                text.replacingOccurrences(
                    of: #""[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}""#, with: "\"ID\"",
                    options: .regularExpression)
            }
            views.append(
                scenario.view("m1", now: now).mapValues(normalized).merging(
                    scenario.view("m2", now: now).mapValues(normalized).reduce(into: [:]) {
                        $0["m2-" + $1.key] = $1.value
                    }
                ) { a, _ in a })
        }
        #expect(views.count == 2)
        #expect(views.first == views.last)
    }

}
