import Foundation
import LifeSignalCLI
import Testing

@testable import LifeSignalCore

#if canImport(Glibc)
    import Glibc
#endif

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
        // The way out is for this cause, not for a broken disk.
        #expect(run.stderr.contains("'ulimit -n'"), "\(run.stderr)")
        #expect(!run.stderr.contains("once the disk is fixed"), "\(run.stderr)")
    }

    /// When the process could not read its own arguments (the runtime reads them from /proc,
    /// which fails when no file descriptor is free, as under 'ulimit -n 3' with the static
    /// build), nothing is done and it says so — never the help and exit 0.
    @Test func argumentsThatCouldNotBeReadAreAnErrorNotTheHelp() {
        let home = TempHome()
        var context = InProcess.context(["checkin"], environment: ["LIFESIGNAL_HOME": home.path, "TZ": "UTC"])
        context.context.argumentsUnreadable = true
        context.context.arguments = []
        let code = LifeSignal.run(context.context)
        #expect(code == 74)
        #expect(context.capture.stdout.isEmpty, "\(context.capture.stdout)")
        #expect(context.capture.stderr.contains("could not read this program's own arguments"))
        #expect(!home.exists("identity.json"))
    }

    /// Output closed under us (`lifesignal … | head -1`): quiet, and 74 as the exit codes say.
    @Test func aClosedPipeEndsQuietlyWith74() {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"]).code == 0)
        var run = InProcess.context(["checkin", "history"], environment: ["LIFESIGNAL_HOME": home.path, "TZ": "UTC"])
        let capture = run.capture
        run.context.write = { stream, text in
            if stream == .standardOutput { return "EPIPE" }
            capture.stderr += text
            return nil
        }
        #expect(LifeSignal.run(run.context) == 74)
        #expect(capture.stderr.isEmpty, "\(capture.stderr)")
    }

    /// A data directory this account may not write: `doctor` fails the checkup and says whose
    /// it is, and a check-in says it is a permission problem — not "once the disk is fixed".
    @Test(.enabled(if: SharedCircleTests.canSwitchUser, "needs root, runuser and the nobody account"))
    func aReadOnlyDataDirectoryFailsTheCheckupAndSaysWhose() throws {
        let root = TempHome()
        let home = root.path + "/data"
        #expect(
            lifesignal(
                ["checkin", "--quiet"], environment: ["LIFESIGNAL_HOME": home, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            )
            .code == 0)
        // Readable by everyone, writable by its owner (root) only.
        #expect(chmod(root.path, 0o755) == 0)
        for item in [home] + (FileManager.default.subpaths(atPath: home) ?? []).map({ home + "/" + $0 }) {
            var info = stat()
            guard lstat(item, &info) == 0 else { continue }
            _ = chmod(item, (info.st_mode & S_IFMT) == S_IFDIR ? 0o755 : 0o644)
        }
        func asNobody(_ arguments: [String]) -> Run {
            lifesignal(
                ["-u", "nobody", "--", "/usr/bin/env", "-i", "LIFESIGNAL_HOME=\(home)", "PATH=/usr/bin:/bin", "TZ=UTC"]
                    + [Binary.path] + arguments, environment: ["PATH": "/usr/bin:/bin"], executable: "/usr/sbin/runuser"
            )
        }
        let doctor = asNobody(["doctor"])
        #expect(doctor.code == 7, "\(doctor.stdout)\(doctor.stderr)")
        #expect(doctor.stdout.contains("FAIL  a check-in here would fail"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("This is a permission problem"), "\(doctor.stdout)")
        let checkin = asNobody(["checkin"])
        #expect(checkin.code == 74 || checkin.code == 73, "\(checkin.stderr)")
        #expect(checkin.stderr.contains("This is a permission problem, not a broken disk"), "\(checkin.stderr)")
        #expect(checkin.stderr.contains("belongs to user 0"), "\(checkin.stderr)")
        #expect(!checkin.stderr.contains("once the disk is fixed"), "\(checkin.stderr)")
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
                homeFlag: nil, environment: ["LIFESIGNAL_HOME": "/tmp/a\u{0}b"], platform: .linux, accountHome: { nil },
                workingDirectory: nil)
        }
    }

    /// A data directory copied to a second place (a restored backup, a cloned VM) writes as
    /// the same device: each finds the other's record in its place and says so loudly on every
    /// write, naming the way out. Its own check-in still counts: no file in the circle (which
    /// anyone who can write the folder can change) can stop a device from checking in.
    @Test func twoDataDirectoriesWithOneIdentityAreToldLoudly() throws {
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
        // The original finds the copy's record where its own should be: it says so, and
        // publishes its own copy again.
        let told = run(a, ["checkin", "--json"], now: "2026-03-01T11:00:00Z")
        #expect(told.code == 0, "\(told.stderr)")
        #expect(told.stderr.contains(#""code":"published-records-not-ours""#), "\(told.stderr)")
        #expect(told.stderr.contains("is not this machine's"), "\(told.stderr)")
        #expect(told.stderr.contains("Another data directory writes as this device"), "\(told.stderr)")
        #expect(told.stderr.contains("give it a device of its own"), "\(told.stderr)")
        let logs = try FileManager.default.subpathsOfDirectory(atPath: circle).filter { $0.hasSuffix("/log.json") }
        #expect(logs.count == 1)
        let published = try Data(contentsOf: URL(fileURLWithPath: circle + "/" + (logs.first ?? "")))
        #expect(published == (try Data(contentsOf: URL(fileURLWithPath: a + "/own/log.json"))))
        // And the copy, on its next write, says the same.
        let copy = run(b, ["checkin"], now: "2026-03-01T12:00:00Z")
        #expect(copy.code == 0 && copy.stderr.contains("is not this machine's"), "\(copy.stderr)")
    }
}

extension BadDayTests {
    /// device.key lost (a partial restore of the data directory): every check-in and delivery
    /// run fails, so `status` must not say all is well and `doctor` must fail, each naming the
    /// file and the way out.
    @Test func aLostDeviceKeyIsSaidByStatusAndDoctorNotOnlyByTheNextWrite() throws {
        let home = TempHome()
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-01T09:00:00Z").code == 0)
        try FileManager.default.removeItem(atPath: home.path + "/device.key")
        let write = home.run(["notify", "deliver"], now: "2026-03-01T10:00:00Z")
        #expect(write.code == 65, "\(write.stderr)")
        let status = home.run(["status"], now: "2026-03-01T10:00:00Z")
        #expect(status.code == 65, "\(status.stderr)")
        #expect(
            status.stderr.contains(
                "signing key \(home.path)/device.key is missing, although this device's records are signed: every check-in and 'notify deliver' here fails"
            ), "\(status.stderr)")
        #expect(status.stderr.contains("Restore device.key from a backup of this data directory"))
        let json = jsonObject(home.run(["status", "--json"], now: "2026-03-01T10:00:00Z").stdout)
        let codes = (json["warnings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
        #expect(codes.contains("device-key-unusable"), "\(codes)")
        let doctor = home.run(["doctor"], now: "2026-03-01T10:00:00Z")
        #expect(doctor.code == 7)
        #expect(
            doctor.stdout.contains("FAIL  a check-in here would fail: this device's signing key"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("fix: restore device.key"))
        #expect(!doctor.stdout.contains("signs from its next write"), "\(doctor.stdout)")
    }
}
