import Foundation
import Testing

@testable import LifeSignalCore

// Bad days, honest words: a machine in trouble is an I/O error (74), never a "damaged" file;
// valid JSON that lifesignal does not read is said to be that, not syntax damage; a path with
// a NUL character is refused rather than silently cut short.

@Suite struct BadDayTests {
    @Test func tooManyOpenFilesIsAnIOErrorNotDamage() throws {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        // A real EMFILE: the process may hold only four descriptors.
        let run = lifesignal(
            ["-c", "ulimit -n 4; exec '\(Binary.path)' checkin"],
            environment: ["LIFESIGNAL_HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"],
            executable: "/bin/sh")
        #expect(run.code == 74, "\(run.stderr)")
        #expect(run.stderr.contains("Too many open files"), "\(run.stderr)")
        #expect(!run.stderr.contains("damaged"), "\(run.stderr)")
    }

    @Test(arguments: [
        (String(repeating: "[", count: 70) + String(repeating: "]", count: 70), "nesting deeper than 64 levels"),
        ("1e400", "the number 1e400 is out of range"), ("12345678901234567890", "is beyond 2^63"),
    ])
    func validButUnsupportedJSONIsSaidToBeThat(value: String, what: String) throws {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        let path = home.path + "/identity.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"schemaVersion\"", with: "\"extra\": \(value), \"schemaVersion\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = home.run(["status"])
        #expect(run.code == 65)
        #expect(run.stderr.contains("valid JSON, but not what lifesignal reads: "), "\(run.stderr)")
        #expect(run.stderr.contains(what), "\(run.stderr)")
        #expect(run.stderr.contains(path))
    }

    @Test func aCirclePathWithANulCharacterIsRefused() throws {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        let path = home.path + "/identity.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var changed = object
        changed["circle"] = "/tmp/a\u{0}b"
        text = String(decoding: try JSONSerialization.data(withJSONObject: changed), as: UTF8.self)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = home.run(["status"])
        #expect(run.code == 65)
        #expect(run.stderr.contains("without NUL characters"), "\(run.stderr)")
        // From the environment, where no C string can carry one, the check still stands.
        #expect(throws: DataLocation.Problem.nulInPath("LIFESIGNAL_HOME")) {
            try DataLocation.resolve(
                homeFlag: nil, environment: ["LIFESIGNAL_HOME": "/tmp/a\u{0}b"], platform: .linux, accountHome: nil,
                workingDirectory: nil)
        }
    }

    /// A data directory copied to a second place (a restored backup, a cloned VM) writes as
    /// the same device: the first of them to find the other's record in its place stops with
    /// 65 instead of writing over it.
    @Test func twoDataDirectoriesWithOneIdentityAreRefused() throws {
        let root = TempHome()
        let (a, b) = (root.path + "/a", root.path + "/b")
        let circle = root.path + "/circle"
        func run(_ home: String, _ arguments: [String], now: String) -> Run {
            lifesignal(
                arguments,
                environment: ["LIFESIGNAL_HOME": home, "LIFESIGNAL_NOW": now, "TZ": "UTC", "PATH": "/usr/bin:/bin"])
        }
        #expect(
            run(a, ["init", "--name", "Ana", "--circle", circle, "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        #expect(run(a, ["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        try FileManager.default.copyItem(atPath: a, toPath: b)
        #expect(run(b, ["checkin", "--note", "from the copy", "--quiet"], now: "2026-03-01T10:00:00Z").code == 0)
        // The original finds the copy's record where its own should be: it stops, loudly.
        let stopped = run(a, ["checkin"], now: "2026-03-01T11:00:00Z")
        #expect(stopped.code == 65, "\(stopped.stderr)")
        #expect(stopped.stderr.lowercased().contains("another data directory writes as this same device"))
        #expect(stopped.stderr.contains("Nothing was changed"))
    }
}
