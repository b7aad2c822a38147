import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// Zone files from disk: names checked before any path is built, symlinked names followed,
/// `TZDIR` honoured, and "local" found from `TZ` or `/etc/localtime` the way the C library does.
@Suite(
    .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/London"), "no /usr/share/zoneinfo"))
final class ZoneFilesTests {
    let directory: String

    init() throws {
        directory =
            Scratch.root.appendingPathComponent("lifesignal-zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Each test's folder goes with it: a test run leaves nothing in the temporary directory.
    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test func theFolderOfATestGoesWithIt() throws {
        var other: ZoneFilesTests? = try ZoneFilesTests()
        let folder = try #require(other?.directory)
        #expect(FileManager.default.fileExists(atPath: folder))
        other = nil
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    static let system = "/usr/share/zoneinfo"

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path).resolvingSymlinksInPath()))
    }

    @Test func loadsZonesByName() throws {
        let london = try ZoneFiles.load("Europe/London")
        #expect(london == (try ZoneRules(tzif: Self.bytes(Self.system + "/Europe/London"))))
        #expect(london.footerText == "GMT0BST,M3.5.0/1,M10.5.0")
        // Link names (symlinks on most systems) read the zone they point at.
        #expect(try ZoneFiles.load("US/Eastern") == ZoneFiles.load("America/New_York"))
        #expect(try ZoneFiles.load("Etc/GMT+5").offset(at: Timestamp(seconds: 0)) == (-18_000, "-05", false))
    }

    @Test(arguments: [
        "", "/etc/passwd", "../etc/passwd", "Europe/../../etc/passwd", "Europe/London/", "Europe//London", "zone.tab",
        "Europe/London\0", "Europe/London ", "Éurope/London", "a;rm -rf", String(repeating: "A", count: 256),
    ])
    func refusesNamesThatAreNotZoneNames(name: String) {
        #expect(throws: ZoneLoadError.invalidName(name)) { try ZoneFiles.load(name) }
    }

    @Test func reportsMissingUnreadableAndDamagedZones() throws {
        #expect(throws: ZoneLoadError.unknownZone(name: "Nowhere/Land", path: Self.system + "/Nowhere/Land")) {
            try ZoneFiles.load("Nowhere/Land")
        }
        #expect {
            try ZoneFiles.load("Europe")
        } throws: { error in
            if case .unreadable(let path, _) = error as? ZoneLoadError { return path == Self.system + "/Europe" }
            return false
        }
        try Data("not a zone".utf8).write(to: URL(fileURLWithPath: directory + "/Bad"))
        #expect(
            throws: ZoneLoadError.damaged(
                path: directory + "/Bad", problem: ZoneDataError("not a TZif file", at: .byte(0)))
        ) {
            try ZoneFiles.load("Bad", directory: directory)
        }
    }

    @Test func honoursTZDIR() throws {
        #expect(ZoneFiles.directory(tzdir: nil) == "/usr/share/zoneinfo")
        #expect(ZoneFiles.directory(tzdir: "") == "/usr/share/zoneinfo")
        #expect(ZoneFiles.directory(tzdir: directory) == directory)
        try FileManager.default.createDirectory(atPath: directory + "/Test", withIntermediateDirectories: true)
        try Data(Self.bytes(Self.system + "/Asia/Kolkata")).write(to: URL(fileURLWithPath: directory + "/Test/Zone"))
        let zone = try ZoneFiles.load("Test/Zone", directory: ZoneFiles.directory(tzdir: directory))
        #expect(zone.offset(at: Timestamp(seconds: 0)).abbreviation == "IST")
        #expect(throws: ZoneLoadError.self) { try ZoneFiles.load("Europe/London", directory: directory) }
    }

    @Test func localZoneFromTZ() throws {
        for tz in [
            "Europe/London", ":Europe/London", Self.system + "/Europe/London", ":" + Self.system + "/Europe/London",
        ] {
            let zone = try ZoneFiles.local(tz: tz)
            #expect(zone.name == "Europe/London", "TZ=\(tz)")
            #expect(zone.rules == (try ZoneFiles.load("Europe/London")))
        }
        let posix = try ZoneFiles.local(tz: "<+0330>-3:30")
        #expect(posix.name == nil && posix.rules.offset(at: Timestamp(seconds: 0)) == (12_600, "+0330", false))
        #expect(try ZoneFiles.local(tz: "") == NamedZone(name: "UTC", rules: .utc))
        // A file name is preferred to the POSIX string of the same spelling.
        #expect(try ZoneFiles.local(tz: "EST5EDT").name == "EST5EDT")
        let nowhere = ZoneLoadError.unknownZone(name: "Nowhere/Land", path: Self.system + "/Nowhere/Land")
        #expect(throws: nowhere) { try ZoneFiles.local(tz: "Nowhere/Land") }
        #expect(throws: nowhere) { try ZoneFiles.local(tz: ":Nowhere/Land") }
        #expect(throws: ZoneLoadError.invalidName("EST5EDT,M3.2.0,M11.1.0")) {
            try ZoneFiles.local(tz: ":EST5EDT,M3.2.0,M11.1.0")
        }
        #expect(
            throws: ZoneLoadError.badTZ(
                value: "not a zone!", problem: ZoneDataError("expected an hour", at: .tzString(3)))
        ) { try ZoneFiles.local(tz: "not a zone!") }
        #expect(throws: ZoneLoadError.unknownZone(name: "/nonexistent/zone", path: "/nonexistent/zone")) {
            try ZoneFiles.local(tz: "/nonexistent/zone")
        }
    }

    @Test func localZoneFromLocaltime() throws {
        let link = directory + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.system + "/US/Eastern")
        let zone = try ZoneFiles.local(tz: nil, localtime: link)
        #expect(zone.name == "US/Eastern")
        #expect(zone.rules == (try ZoneFiles.load("America/New_York")))
        // A relative link, as some systems make.
        let relative = directory + "/relative"
        try FileManager.default.createSymbolicLink(
            atPath: relative, withDestinationPath: "../../../../../../../../usr/share/zoneinfo/Asia/Kolkata")
        if FileManager.default.fileExists(atPath: URL(fileURLWithPath: relative).resolvingSymlinksInPath().path) {
            #expect(try ZoneFiles.local(tz: nil, localtime: relative).name == "Asia/Kolkata")
        }
        // A copy rather than a link: the rules, but no name.
        let copy = directory + "/copy"
        try Data(Self.bytes(Self.system + "/Europe/London")).write(to: URL(fileURLWithPath: copy))
        let copied = try ZoneFiles.local(tz: nil, localtime: copy)
        #expect(copied.name == nil)
        #expect(copied.rules == (try ZoneFiles.load("Europe/London")))
        // No /etc/localtime at all: UTC, as the C library assumes.
        #expect(try ZoneFiles.local(tz: nil, localtime: directory + "/missing") == NamedZone(name: "UTC", rules: .utc))
    }

    @Test func zoneNamesFromLinkTargets() {
        #expect(ZoneFiles.zoneName(inPath: "/usr/share/zoneinfo/Europe/London") == "Europe/London")
        #expect(ZoneFiles.zoneName(inPath: "../usr/share/zoneinfo/posix/Asia/Tokyo") == "Asia/Tokyo")
        #expect(ZoneFiles.zoneName(inPath: "/var/db/timezone/zoneinfo/UTC") == "UTC")
        #expect(ZoneFiles.zoneName(inPath: "/etc/zones/Europe/London") == nil)
        #expect(ZoneFiles.zoneName(inPath: "/usr/share/zoneinfo/") == nil)
    }
}
