/// An instant, in whole seconds since 1970-01-01T00:00:00Z.
///
/// Whole seconds keep deadline arithmetic exact and make every stored time round-trip through
/// RFC 3339 unchanged. Parsing and formatting are done here, by hand, because the shipped
/// binary does not link Foundation.
public struct Timestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.seconds < rhs.seconds }

    public static func + (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(seconds: lhs.seconds &+ rhs.seconds)
    }
    public static func - (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(seconds: lhs.seconds &- rhs.seconds)
    }
    public static func - (lhs: Timestamp, rhs: Timestamp) -> TimeSpan {
        TimeSpan(seconds: lhs.seconds &- rhs.seconds)
    }

    /// Years 1970–9999 are accepted; anything else is not a time a person means.
    public static let earliest: Int64 = 0
    public static let latest: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

    /// Parses RFC 3339 (`2026-01-31T09:00:00Z`, `…+02:00`, optional fraction, which is
    /// truncated). Invalid calendar dates such as February 30 are refused, not rolled over.
    public init?(rfc3339 text: String) {
        // The text's own UTF-8, without copying it into an array: every stored time is parsed.
        var text = text
        guard let seconds = text.withUTF8({ Timestamp.parse(rfc3339: $0) }) else { return nil }
        self.seconds = seconds
    }

    private static func parse(rfc3339 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        func digits(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int64(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20,
            let year = digits(0, 4), b[4] == UInt8(ascii: "-"),
            let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == 32,
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"),
            let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
            let second = digits(17, 2)
        else { return nil }
        var i = 19
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                let om = digits(i + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count, year >= 1970, (1...12).contains(month),
            day >= 1, day <= Civil.daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let days = Civil.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard seconds >= Timestamp.earliest, seconds <= Timestamp.latest else { return nil }
        return seconds
    }

    /// RFC 3339 in UTC with `Z`, e.g. `2026-01-31T09:00:00Z`.
    public var rfc3339: String { Civil(seconds: seconds).text(separator: UInt8(ascii: "T"), utc: true) }

    public var description: String { rfc3339 }

    /// `2026-01-31 10:00` in a zone `utcOffset` seconds east of UTC (the local zone's offset
    /// at this instant, supplied by the caller).
    public func local(utcOffset: Int64) -> String {
        Civil(seconds: seconds &+ utcOffset).text(separator: 0x20, utc: false)
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
struct Civil {
    var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64

    init(seconds: Int64) {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `2026-01-31T09:00:00Z` (`utc`) or `2026-01-31 09:00`, written digit by digit: a log
    /// write formats hundreds of times, and string interpolation cost most of a check-in.
    func text(separator: UInt8, utc: Bool) -> String {
        // Years outside 0…9999 (never stored; only a clock far off) keep their sign and digits.
        guard (0...9999).contains(year) else {
            func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let date =
                "\(year)-\(pad(month))-\(pad(day))\(Character(Unicode.Scalar(separator)))\(pad(hour)):\(pad(minute))"
            return utc ? date + ":\(pad(second))Z" : date
        }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            var i = 0
            func put(_ byte: UInt8) {
                buffer[i] = byte
                i += 1
            }
            func two(_ value: Int64) {
                put(48 + UInt8(truncatingIfNeeded: value / 10))
                put(48 + UInt8(truncatingIfNeeded: value % 10))
            }
            two(year / 100)
            two(year % 100)
            put(UInt8(ascii: "-"))
            two(month)
            put(UInt8(ascii: "-"))
            two(day)
            put(separator)
            two(hour)
            put(UInt8(ascii: ":"))
            two(minute)
            if utc {
                put(UInt8(ascii: ":"))
                two(second)
                put(UInt8(ascii: "Z"))
            }
            return i
        }
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
