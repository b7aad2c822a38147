import Foundation

@testable import LifeSignalCore

/// The system's zone files and `zdump`, the C library's own view of them, which the zone tests
/// compare against. Tests that need either are skipped, with the reason shown, without them.
enum ZoneSupport {
    static let directory = "/usr/share/zoneinfo"
    static let available = FileManager.default.fileExists(atPath: directory + "/Europe/London")
    static let zdump = ["/usr/bin/zdump", "/usr/sbin/zdump", "/bin/zdump"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let missing = "/usr/share/zoneinfo is absent (apt-get install -y tzdata)"
    static let noZdump = "zdump is not installed (it comes with libc-bin)"

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name).resolvingSymlinksInPath()))
    }

    static func rules(_ name: String) throws -> ZoneRules { try ZoneRules(tzif: bytes(name)) }

    /// One line of `zdump -v`: at instant `at`, the zone's offset, abbreviation and DST flag.
    struct Line {
        var zone: String
        var at: Timestamp
        var offset: Int64
        var abbreviation: String
        var isDST: Bool
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `zdump -v -c first,last zones…`: for each transition in [first, last), the second before
    /// it and the second it happens.
    static func zdump(_ zones: [String], years: ClosedRange<Int>) throws -> [Line] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zdump ?? "zdump")
        process.arguments = ["-v", "-c", "\(years.lowerBound),\(years.upperBound + 1)"] + zones
        process.environment = ["TZDIR": directory, "LC_ALL": "C"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").compactMap(parse)
    }

    /// `Europe/London  Sun Mar 29 01:00:00 2026 UT = Sun Mar 29 02:00:00 2026 BST isdst=1 gmtoff=3600`
    static func parse(_ line: Substring) -> Line? {
        let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard f.count == 16, f[6] == "UT", let month = months.firstIndex(of: f[2]),
            let day = Int64(f[3]), let year = Int64(f[5]), f[14].hasPrefix("isdst="), f[15].hasPrefix("gmtoff="),
            let offset = Int64(f[15].dropFirst(7))
        else { return nil }
        let clock = f[4].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 3 else { return nil }
        let days = Civil.daysFromCivil(year: year, month: Int64(month + 1), day: day)
        let at = Timestamp(seconds: days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
        return Line(zone: f[0], at: at, offset: offset, abbreviation: f[13], isDST: f[14] == "isdst=1")
    }

    /// Every zone name in the directory (following `zone1970.tab`'s spirit: real zone files,
    /// not the `posix/` and `right/` copies or the tables).
    static func allZones() throws -> [String] {
        let root = URL(fileURLWithPath: directory)
        let skip: Set<String> = ["posix", "right", "posixrules", "localtime", "Factory"]
        var names: [String] = []
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            let first = String(path.split(separator: "/").first ?? "")
            if skip.contains(first) {
                walker?.skipDescendants()
                continue
            }
            guard !path.contains("."), first.first?.isUppercase ?? false else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                names.append(path)
            }
        }
        return names.sorted()
    }
}

/// A small deterministic random source (SplitMix64), so a failing damaged-file case can be
/// replayed from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
