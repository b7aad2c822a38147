import Foundation
import Testing

// `init --circle DIR` on an existing profile moves this device's records into DIR, keeping
// history; a kill at any moment leaves a state every command accepts; a DIR that cannot take
// them, or that holds this device's records written elsewhere, is refused with nothing changed.

@Suite struct CircleMoveTests {
    /// A profile with three check-ins in its private circle.
    static func profile() -> TempHome {
        let home = TempHome()
        for day in ["01", "02", "03"] {
            home.run(["checkin", "--note", "day \(day)", "--quiet"], now: "2026-03-\(day)T09:00:00Z")
        }
        return home
    }

    static func history(_ home: TempHome) -> [String] {
        let json = jsonObject(home.run(["checkin", "history", "--json"], now: "2026-03-03T10:00:00Z").stdout)
        return (json["checkIns"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
    }

    @Test func aProfileMovesIntoASharedFolderWithItsHistory() throws {
        let home = Self.profile()
        let shared = home.path + "/Sync/family-circle"
        let before =
            jsonObject(home.run(["status", "--json"], now: "2026-03-03T10:00:00Z").stdout)["checkIn"] as? [String: Any]
        let moved = home.run(["init", "--circle", shared], now: "2026-03-03T10:00:00Z")
        #expect(moved.code == 0, "\(moved.stderr)")
        #expect(
            moved.stdout.contains(
                "Moved your records from \(home.path)/circle to \(shared); your history came with them."))
        // The folder did not exist: made, and said, so a mistyped path does not go unnoticed.
        #expect(moved.stdout.contains("Created the circle folder \(shared), readable by this account only."))
        #expect(Self.history(home) == ["day 03", "day 02", "day 01"])
        let after = jsonObject(home.run(["status", "--json"], now: "2026-03-03T10:00:00Z").stdout)
        #expect(after["circle"] as? String == shared)
        #expect((after["checkIn"] as? [String: Any])?["deadline"] as? String == before?["deadline"] as? String)
        // The old private folder is no longer used: this device's records are gone from it.
        #expect(!FileManager.default.fileExists(atPath: home.path + "/circle/members"))
        // A check-in now lands in the shared folder.
        #expect(home.run(["checkin", "--quiet"], now: "2026-03-03T11:00:00Z").code == 0)
        let logs =
            FileManager.default.enumerator(atPath: shared)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix("log.json")
            } ?? []
        #expect(logs.count == 1)
        // Running it again changes nothing.
        #expect(home.run(["init", "--circle", shared]).stdout.hasPrefix("lifesignal is already set up here"))
    }

    /// A kill after the records were published into DIR but before identity.json named it:
    /// every command still works on the old circle, and running init again completes the move.
    @Test func killedBeforeTheCommitPointTheOldCircleStandsAndARetryFinishes() throws {
        let home = Self.profile()
        let shared = home.path + "/shared"
        let identity = try Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json"))
        #expect(home.run(["init", "--circle", shared, "--quiet"]).code == 0)
        // Put back the identity as it was before the commit point: DIR holds a published copy.
        try identity.write(to: URL(fileURLWithPath: home.path + "/identity.json"))
        try FileManager.default.createDirectory(atPath: home.path + "/circle", withIntermediateDirectories: true)
        let status = home.run(["status", "--json"], now: "2026-03-03T10:00:00Z")
        #expect(status.code == 0, "\(status.stderr)")
        #expect(Self.history(home) == ["day 03", "day 02", "day 01"], "the private copy is complete")
        let retry = home.run(["init", "--circle", shared], now: "2026-03-03T10:00:00Z")
        #expect(retry.code == 0, "\(retry.stderr)")
        #expect(Self.history(home) == ["day 03", "day 02", "day 01"])
        #expect(jsonObject(home.run(["status", "--json"]).stdout)["circle"] as? String == shared)
    }

    @Test func aFolderThatCannotTakeTheRecordsIsRefusedWithNothingChanged() throws {
        let home = Self.profile()
        let file = home.path + "/a-file"
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let identity = try Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json"))
        let refused = home.run(["init", "--circle", file + "/circle"])
        #expect(refused.code == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains(file), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json")) == identity)
        #expect(Self.history(home) == ["day 03", "day 02", "day 01"])
    }

    @Test func aFolderHoldingThisDeviceWrittenElsewhereIsRefused() throws {
        let home = Self.profile()
        let shared = home.path + "/shared"
        // A copy of this data directory moved there first and checked in on its own.
        let twin = home.path + "-twin"
        try FileManager.default.copyItem(atPath: home.path, toPath: twin)
        defer { try? FileManager.default.removeItem(atPath: twin) }
        func twinRun(_ arguments: [String]) -> Run {
            lifesignal(
                arguments,
                environment: [
                    "LIFESIGNAL_HOME": twin, "LIFESIGNAL_NOW": "2026-03-03T12:00:00Z", "TZ": "UTC",
                    "PATH": "/usr/bin:/bin",
                ])
        }
        #expect(twinRun(["init", "--circle", shared, "--quiet"]).code == 0)
        #expect(twinRun(["checkin", "--note", "twin", "--quiet"]).code == 0)
        let identity = try Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json"))
        let refused = home.run(["init", "--circle", shared])
        #expect(refused.code == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.lowercased().contains("another data directory writes as this same device"),
            "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path + "/identity.json")) == identity)
    }
}
