import Foundation
import LifeSignalCore
import Testing

// The man page describes what the code does: every LIFESIGNAL_* variable a channel really gets
// is documented (and nothing else is claimed), and every file a real store writes is in FILES.

@Suite struct ManPageContractTests {
    static let page =
        (try? String(
            contentsOf: Binary.packageRoot.appendingPathComponent("man/lifesignal.1"), encoding: .utf8)) ?? ""

    static func section(_ name: String) -> String {
        let parts = page.components(separatedBy: "\n.Sh ")
        return parts.first { $0.hasPrefix(name + "\n") } ?? ""
    }

    @Test func everyVariableAChannelGetsIsDocumented() throws {
        let home = TempHome()
        let out = home.path + "/env.txt"
        home.run(["checkin", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:env > '\(out)'", "--quiet"])
        #expect(home.run(["alert", "activate", "--yes", "--quiet"]).code == 0)
        let env = try String(contentsOfFile: out, encoding: .utf8)
        let set = Set(
            env.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("LIFESIGNAL_"), let equals = line.firstIndex(of: "=") else { return nil }
                return String(line[..<equals])
            })
        let documented = Set(
            Self.section("CHANNELS").split(separator: "\n").compactMap { line -> String? in
                line.hasPrefix(".It Ev LIFESIGNAL_") ? String(line.dropFirst(7)) : nil
            })
        #expect(!set.isEmpty)
        #expect(
            set == documented,
            "set but undocumented: \(set.subtracting(documented)); documented but not set: \(documented.subtracting(set))"
        )
    }

    @Test func everyFileTheStoreWritesIsInFiles() throws {
        let home = TempHome()
        home.run(["checkin", "--quiet"])
        home.run(["contacts", "add", "Sam", "--responder", "--notify", "exec:true", "--quiet"])
        home.run(["notify", "deliver", "--quiet"], now: "2026-03-02T09:30:00Z")
        home.run(["checkin", "--quiet"], now: "2026-03-02T10:00:00Z")
        home.run([
            "checkin", "inbox", "ntfy:https://ntfy.sh/ann-inbox-5k", "--phone",
            "ntfy:https://ntfy.sh/ann-phone-7q4k9m2x",
        ])
        let files = Self.section("FILES")
        let written = FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String } ?? []
        #expect(written.contains("health.json") && written.contains("cache.bin") && written.contains("own/log.json"))
        #expect(written.contains("cache-circle.bin") && written.contains("cache-linked.bin"))
        #expect(written.contains("phone.json"))
        for relative in written {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: home.path + "/" + relative, isDirectory: &isDirectory)
            if isDirectory.boolValue { continue }
            let name = (relative as NSString).lastPathComponent
            let documented =
                name.hasSuffix(".bak")
                ? files.contains("*.bak")
                : relative.contains("/archive/")
                    ? files.contains("archive/")
                    : files.contains(name)
            #expect(documented, "\(relative) is not in the man page's FILES")
            // And in the one list of a data directory's files (the circle is the circle's).
            let listed =
                relative.hasPrefix("circle/")
                || DataFile(rawValue: relative.replacingOccurrences(of: ".bak", with: "")) != nil
                || relative.hasPrefix(DataFile.ownArchive.rawValue + "/")
            #expect(listed, "\(relative) is not in DataFile")
        }
        for file in DataFile.allCases {
            #expect(files.contains((file.rawValue as NSString).lastPathComponent), "\(file.rawValue) is not in FILES")
            if !file.rawValue.contains("/") { #expect(SyncIgnore.patterns.contains(file.rawValue)) }
        }
        #expect(files.contains("may be deleted at any time"))
    }
}
