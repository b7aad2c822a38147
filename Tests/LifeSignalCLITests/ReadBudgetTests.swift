import Foundation
import Testing

/// Whoever can write the circle folder can fill it with members and logs of their own making,
/// large ones: one run reads at most 8 MiB of a log of another device and 128 MiB of others in
/// all, those linked with the reader first. What is left out is said, and Ana, whom Bea watches
/// over, is read whatever sorts before her.
@Suite struct ReadBudgetTests {
    let family = Family()

    /// A log of `size` bytes ("{" and zeros, written sparse: what a crafted file costs its
    /// maker) of a member of the attacker's making whose id sorts first.
    func fakeLog(_ n: Int, size: UInt64) throws {
        let member = String(format: "00000000-0000-4000-8000-%012d", n)
        let folder = "\(family.circle)/members/\(member)/\(member)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/log.json", contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/log.json"))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    func anaWatchedByBea() {
        family.join("ana", "bea")
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
    }

    func anasCheckInAsBeaSees() -> Bool {
        family.run("bea", ["contacts", "list", "--json"], now: "2026-03-01T10:00:00Z").stdout.contains(
            "\"at\": \"2026-03-01T09:00:00Z\"")
    }

    @Test func aRunReadsAtMostItsBudgetOfOthersLinkedFirst() throws {
        anaWatchedByBea()
        // 168 MiB: over the budget by more than the one log each of the two reading threads may
        // start before it sees the budget spent.
        for n in 0..<24 { try fakeLog(n, size: 7 << 20) }
        for arguments in [["status"], ["notify", "deliver"]] {
            let run = family.run("bea", arguments, now: "2026-03-01T10:00:00Z")
            let lines = run.stderr.split(separator: "\n")
            #expect(
                lines.first?.contains("not read, nor any log after it: this run had read 128 MiB") ?? false,
                "\(arguments): \(run.stderr)")
            #expect(lines.count < 10, "\(arguments): \(lines.count) lines")
        }
        #expect(anasCheckInAsBeaSees())
        #expect(family.run("bea", ["checkin", "--quiet"], now: "2026-03-01T10:05:00Z").code == 0)
    }
}
