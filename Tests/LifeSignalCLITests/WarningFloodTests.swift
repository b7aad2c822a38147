import Foundation
import Testing

/// Whoever can write the circle folder can fill a member's folder with device folders of their
/// own making. Each is said, but not one line apiece: a few are named, the rest counted in one
/// line, so a cron run's mail stays a page however many there are.
@Suite struct WarningFloodTests {
    let family = Family()

    @Test func manyFakeDevicesInALinkedFolderAreSummarized() throws {
        family.join("ana", "bea")
        #expect(family.run("bea", ["contacts", "add", family.code("ana"), "--dependent", "--quiet"]).code == 0)
        #expect(family.run("ana", ["checkin", "--quiet"]).code == 0)
        let (ana, _) = family.identity("ana")
        var log = try Legacy.read(family.deviceFolder("ana") + "/log.json")
        for n in 0..<120 {
            let device = String(format: "0f0f0f0f-0000-4000-8000-%012d", n)
            log["device"] = device
            let folder = "\(family.circle)/members/\(ana)/\(device)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Legacy.write(log, to: folder + "/log.json")
        }
        for arguments in [["status"], ["notify", "deliver"]] {
            let run = family.run("bea", arguments, now: "2026-03-01T10:00:00Z")
            let lines = run.stderr.split(separator: "\n")
            let named = lines.filter { $0.contains("records in Ana's folder are not signed by any device of Ana's") }
            #expect(named.count == 5, "\(arguments): \(named.count) named")
            #expect(
                lines.contains { $0.contains("and 115 more logs in Ana's folder count for nothing") },
                "\(arguments): \(run.stderr.prefix(2_000))")
            #expect(lines.count < 12, "\(arguments): \(lines.count) lines")
        }
        // Ana's own devices hear of them the same way.
        let mine = family.run("ana", ["status"], now: "2026-03-01T10:00:00Z").stderr.split(separator: "\n")
        #expect(mine.filter { $0.contains("a device that is not yours claims to be you") }.count == 5)
        #expect(mine.contains { $0.contains("and 115 more logs in your folder count for nothing") }, "\(mine)")
        family.cachedReadsMatchFullReads("bea", now: "2026-03-01T10:00:00Z")
        // Ana still counts for Bea.
        let json = family.run("bea", ["contacts", "list", "--json"], now: "2026-03-01T10:00:00Z")
        #expect(json.stdout.contains("\"at\": \"2026-03-01T09:00:00Z\""), "\(json.stdout.prefix(1_000))")
    }
}
