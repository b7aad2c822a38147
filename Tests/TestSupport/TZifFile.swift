/// Hand-made zone files (TZif, RFC 8536) for tests: a version 2+ file with a minimal version 1
/// block (as zic's "slim" output has), then the 64-bit block and the footer. `counts`
/// overrides the six header counts when given.
public enum TZifFile {
    public static func make(
        version: UInt8 = UInt8(ascii: "2"), times: [Int64] = [], indices: [UInt8] = [],
        types: [(offset: Int32, dst: UInt8, index: UInt8)] = [(0, 0, 0)], chars: [UInt8] = Array("UTC\0".utf8),
        footer: String = "UTC0", counts: [UInt32]? = nil, extra: [UInt8] = []
    ) -> [UInt8] {
        func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
            (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func header(_ counts: [UInt32]) -> [UInt8] {
            Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + counts.flatMap(be)
        }
        var bytes = header([0, 0, 0, 0, 1, 1]) + [UInt8](repeating: 0, count: 7)
        bytes += header(counts ?? [0, 0, 0, UInt32(times.count), UInt32(types.count), UInt32(chars.count)])
        bytes += times.flatMap(be) + indices
        bytes += types.flatMap { be($0.offset) + [$0.dst, $0.index] } + chars
        return bytes + Array("\n\(footer)\n".utf8) + extra
    }

    /// A zone like America/Havana in tzdata 2026f: its table keeps summer time (UTC−4) from
    /// 8 March 2026 to 8 November 2027, while its rule for later years
    /// (`CST5CDT,M3.2.0/0,M11.1.0/1`) says winter time (UTC−5) from 1 November 2026.
    public static let exceptional = make(
        times: [1_772_938_800, 1_825_650_000], indices: [1, 0], types: [(-18_000, 0, 0), (-14_400, 1, 4)],
        chars: Array("CST\0CDT\0".utf8), footer: "CST5CDT,M3.2.0/0,M11.1.0/1")
}
