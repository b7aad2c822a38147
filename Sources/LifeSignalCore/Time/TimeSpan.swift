/// A length of time in whole seconds: intervals, reminder leads, time left.
///
/// Written and read by people as `45m`, `8h`, `1d12h` (units d, h, m, s); shown as `1d 12h`.
public struct TimeSpan: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    public static func minutes(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 60) }
    public static func hours(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 3600) }
    public static func days(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 86_400) }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.seconds < rhs.seconds }
    public static prefix func - (span: TimeSpan) -> TimeSpan { TimeSpan(seconds: 0 &- span.seconds) }

    /// Parses `45m`, `8h`, `1d12h`, `90s`, `1d 12h`, `8 h`; nil for anything else, for zero, and
    /// for spans beyond 100 years (so no arithmetic on them can overflow).
    public init?(parsing text: String) {
        guard let total = Self.total(parsing: text), total > 0, total <= 100 * 366 * 86_400 else { return nil }
        seconds = total
    }

    /// The seconds `text` writes, whatever their amount; nil when it is not written as a
    /// duration at all.
    static func total(parsing text: String) -> Int64? {
        var total: Int64 = 0
        var number: Int64? = nil
        var sawUnit = false
        var lastUnitRank = Int.max
        // A space after a number ("8 h") may only be followed by its unit.
        var unitDue = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !unitDue else { return nil }
                let digit = Int64(byte - UInt8(ascii: "0"))
                let (times10, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(digit)
                guard !o1, !o2, next <= 10_000_000_000 else { return nil }
                number = next
            case UInt8(ascii: "d"), UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                guard let n = number else { return nil }
                let (unit, rank): (Int64, Int) =
                    switch byte {
                    case UInt8(ascii: "d"): (86_400, 3)
                    case UInt8(ascii: "h"): (3600, 2)
                    case UInt8(ascii: "m"): (60, 1)
                    default: (1, 0)
                    }
                guard rank < lastUnitRank else { return nil }  // each unit once, largest first
                lastUnitRank = rank
                let (part, o1) = n.multipliedReportingOverflow(by: unit)
                let (sum, o2) = total.addingReportingOverflow(part)
                guard !o1, !o2 else { return nil }
                total = sum
                number = nil
                sawUnit = true
                unitDue = false
            case UInt8(ascii: " "):
                if number != nil { unitDue = true }
            default:
                return nil
            }
        }
        guard sawUnit, number == nil else { return nil }
        return total
    }

    /// Why `text` is no duration, for the message that refuses it; nil when it is one.
    public static func problem(parsing text: String) -> String? {
        if TimeSpan(parsing: text) != nil { return nil }
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return "it is empty" }
        if trimmed.hasPrefix("-") { return "a duration cannot be negative" }
        if !trimmed.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) { return "it is not a duration" }
        if trimmed.unicodeScalars.contains(where: { $0 == "." || $0 == "," }) {
            return "fractions are not accepted: write 1h30m, not 1.5h"
        }
        if trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return trimmed.allSatisfy({ $0 == "0" })
                ? "a duration must be longer than zero"
                : "it has no unit: add d, h, m or s, e.g. \(trimmed)m or \(trimmed)h"
        }
        if let odd = trimmed.unicodeScalars.first(where: {
            !("0"..."9").contains($0) && !"dhms ".unicodeScalars.contains($0)
        }) {
            return "'\(Character(odd))' is not a unit: use d, h, m or s"
        }
        if let total = total(parsing: trimmed) {
            return total == 0 ? "a duration must be longer than zero" : "it is longer than 100 years"
        }
        // A number left without a unit at the end: "12h30" for 12h30m.
        let tail = trimmed.reversed().prefix { $0.isASCII && $0.isNumber }
        if !tail.isEmpty {
            let number = String(tail.reversed())
            let head = String(trimmed.dropLast(number.count)).trimmingWhitespace
            // The unit after the last one given: 1d12 is 1d12h, 12h30 is 12h30m.
            let next = ["d": "h", "h": "m", "m": "s"][head.last.map(String.init) ?? ""] ?? "m"
            return "'\(number)' at the end has no unit: write \(head)\(number)\(next)"
        }
        // Each unit once and in order, yet no total: a number too large to count.
        let order = trimmed.compactMap { "dhms".firstIndex(of: $0) }
        if zip(order, order.dropFirst()).allSatisfy({ $0 < $1 }) { return "it is longer than 100 years" }
        return "each unit comes once, largest first (1d12h, not 12h1d)"
    }

    /// Every non-zero unit, as settings are spoken of: `24h`, `48h`, `36h 30m`, `45m`; days
    /// only from three days up (`3d`, `7d 12h`), so the app's presets read as people set them.
    public var description: String {
        let magnitude = seconds.magnitude
        let useDays = magnitude >= 3 * 86_400
        let d = useDays ? magnitude / 86_400 : 0
        let h = useDays ? magnitude % 86_400 / 3600 : magnitude / 3600
        let m = magnitude % 3600 / 60
        let s = magnitude % 60
        var text = ""
        func append(_ value: UInt64, _ unit: String) {
            if value > 0 { text += (text.isEmpty ? "" : " ") + String(value) + unit }
        }
        append(d, "d")
        append(h, "h")
        append(m, "m")
        append(s, "s")
        return (seconds < 0 ? "-" : "") + (text.isEmpty ? "0s" : text)
    }

    /// The app's countdown and "ago" text: the two largest units, the second dropped when it is
    /// zero — `1d 4h`, `2d`, `3h 12m`, `3h`, `12m`; under a minute, seconds (`40s`).
    public var short: String {
        let magnitude = seconds.magnitude
        let d = magnitude / 86_400
        let h = magnitude % 86_400 / 3600
        let m = magnitude % 3600 / 60
        if d > 0 { return h > 0 ? "\(d)d \(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h \(m)m" : "\(h)h" }
        if m > 0 { return "\(m)m" }
        return "\(magnitude)s"
    }
}

/// Relative phrases for human output: "in 3h 12m", "2h ago", "now".
public enum Relative {
    public static func phrase(_ time: Timestamp, now: Timestamp) -> String {
        let delta = time - now
        if delta.seconds == 0 { return "now" }
        return delta.seconds > 0 ? "in \(delta.short)" : "\(delta.short) ago"
    }
}
