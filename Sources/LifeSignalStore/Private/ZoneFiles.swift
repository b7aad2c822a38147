import LifeSignalCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a time zone could not be loaded, as data for the CLI to word.
public enum ZoneLoadError: Error, Hashable, Sendable {
    /// Not a zone name lifesignal will look up: empty, absolute, with `..`, or odd characters.
    case invalidName(String)
    /// No file of that name in the zone directory.
    case unknownZone(name: String, path: String)
    /// The file exists but cannot be read (a directory, no permission, too large).
    case unreadable(path: String, reason: String)
    /// The file was read but is no valid zone file.
    case damaged(path: String, problem: ZoneDataError)
    /// `TZ` holds neither a zone name nor a valid POSIX TZ string.
    case badTZ(value: String, problem: ZoneDataError)
}

/// A zone and, when it is known, the name it goes by (`Europe/London`).
public struct NamedZone: Hashable, Sendable {
    public var name: String?
    public var rules: ZoneRules

    public init(name: String?, rules: ZoneRules) {
        self.name = name
        self.rules = rules
    }
}

/// The system's compiled time zone files (`/usr/share/zoneinfo`): reading a zone by name, and
/// finding out which zone "local" is. Environment variables are passed in by the caller, so
/// this stays testable and Core never reads the environment.
public enum ZoneFiles {
    public static let defaultDirectory = "/usr/share/zoneinfo"
    /// Real zone files are a few kilobytes; anything much larger is not one.
    static let sizeLimit = 256 << 10

    /// The zone directory to use: `TZDIR` when set and not empty, else the default.
    public static func directory(tzdir: String?) -> String {
        guard let tzdir, !tzdir.isEmpty else { return defaultDirectory }
        return tzdir
    }

    /// Is `name` acceptable as a zone name: letters, digits, `_`, `+`, `-` and `/`, not
    /// starting with `/`, no empty part? With no `.` allowed, `..` cannot climb out of the
    /// directory, and `zone.tab`-like files are not zones anyway.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/"), !name.hasSuffix("/"), !name.includes("//")
        else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
        }
    }

    /// Reads and parses the zone `name` (e.g. `Europe/London`) from `directory`.
    public static func load(_ name: String, directory: String = defaultDirectory) throws(ZoneLoadError) -> ZoneRules {
        guard isValidName(name) else { throw .invalidName(name) }
        let path = Paths.join(directory, name)
        guard let rules = try read(path) else { throw .unknownZone(name: name, path: path) }
        return rules
    }

    /// The zone "local" means when the user names none, as the C library decides it: `TZ`
    /// when set — `:Name` or `Name` for a zone file, an absolute path for any file, or else a
    /// POSIX TZ string such as `EST5EDT,M3.2.0,M11.1.0`; an empty `TZ` is UTC. Without `TZ`,
    /// `/etc/localtime`, named by the zone its symlink points at; UTC when it is missing.
    public static func local(
        tz: String?, directory: String = defaultDirectory, localtime: String = "/etc/localtime"
    ) throws(ZoneLoadError) -> NamedZone {
        guard let tz else {
            guard let rules = try read(localtime) else { return NamedZone(name: "UTC", rules: .utc) }
            return NamedZone(name: linkedZoneName(localtime), rules: rules)
        }
        if tz.isEmpty { return NamedZone(name: "UTC", rules: .utc) }
        // `:` marks a file name for certain; without it, a name that is no file may be a rule.
        let fileOnly = tz.hasPrefix(":")
        let name = fileOnly ? String(tz.dropFirst()) : tz
        if name.hasPrefix("/") {
            guard let rules = try read(name) else { throw .unknownZone(name: name, path: name) }
            return NamedZone(name: linkedZoneName(name) ?? zoneName(inPath: name), rules: rules)
        }
        let path = Paths.join(directory, name)
        if isValidName(name), let rules = try read(path) { return NamedZone(name: name, rules: rules) }
        if fileOnly { throw isValidName(name) ? .unknownZone(name: name, path: path) : .invalidName(name) }
        do {
            return NamedZone(name: nil, rules: try ZoneRules(posixTZ: name))
        } catch {
            // `Europe/Lodnon` was meant as a name, and is best reported as one.
            throw isValidName(name) ? .unknownZone(name: name, path: path) : .badTZ(value: tz, problem: error)
        }
    }

    /// The rules in the file at `path` (symlinks followed), nil when there is none.
    static func read(_ path: String) throws(ZoneLoadError) -> ZoneRules? {
        // Posix.read refuses symlinks, and most zone names are symlinks to others.
        let target = resolved(path) ?? path
        let result: Posix.ReadResult
        do {
            result = try Posix.read(target, limit: sizeLimit)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard case .contents(let bytes) = result else { return nil }
        do {
            return try ZoneRules(tzif: bytes)
        } catch {
            throw .damaged(path: path, problem: error)
        }
    }

    /// The zone a symlink such as `/etc/localtime -> /usr/share/zoneinfo/Europe/London` points
    /// at, read from its first link: the name the administrator chose, even when that file is
    /// itself a link to another name.
    static func linkedZoneName(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return readlink(path, base, buffer.count)
        }
        guard count > 0, count < buffer.count else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return zoneName(inPath: target)
    }

    /// `Europe/London` from `…/zoneinfo/Europe/London` (also `…/zoneinfo/posix/…`).
    static func zoneName(inPath path: String) -> String? {
        let parts = path.split(separator: "/")
        guard var start = parts.lastIndex(of: "zoneinfo").map({ $0 + 1 }) else { return nil }
        if start < parts.count, parts[start] == "posix" { start += 1 }
        let name = parts[start...].joined(separator: "/")
        return isValidName(name) ? name : nil
    }

    /// `path` with every symlink resolved; nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
