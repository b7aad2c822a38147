extension ZoneRules {
    /// Parses a TZif file (RFC 8536; versions 1 to 4, and later digits read as version 4, since
    /// each version so far has kept the layout and only loosened the footer). Version 2 and later
    /// files are read from their 64-bit block and footer; the 32-bit block is only skipped.
    ///
    /// The bytes come from disk and are not trusted: every count is capped and checked against
    /// the bytes that remain before anything is read, and every defect is a `ZoneDataError` at
    /// the byte where it was found. Leap-second files (`right/…`) are refused, because their
    /// transition times do not count seconds the way `Timestamp` does.
    public init(tzif bytes: [UInt8]) throws(ZoneDataError) {
        var reader = TZifReader(bytes: bytes)
        let first = try reader.header()
        guard first.version >= 2 else {
            self = try reader.dataBlock(first, timeSize: 4)
            try reader.expectEnd()
            return
        }
        try reader.skip(first.dataSize(timeSize: 4), what: "the version 1 data block")
        let second = try reader.header()
        guard second.version >= 2 else {
            throw ZoneDataError("the second header has version 1", at: .byte(reader.index - 40))
        }
        self = try reader.dataBlock(second, timeSize: 8)
        (footer, footerText) = try reader.footer()
        try reader.expectEnd()
    }
}

/// The six counts of a TZif header, and the version (1, 2, 3, 4…).
private struct TZifHeader {
    var version: Int
    var isUTCount: Int
    var isStdCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var charCount: Int
    /// Where the header starts, for errors about its counts.
    var start: Int

    func dataSize(timeSize: Int) -> Int {
        timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStdCount
            + isUTCount
    }
}

/// A cursor over the bytes of one TZif file: owns the bounds checks, so nothing past the end is
/// ever read, and the errors, which say where reading stopped.
private struct TZifReader {
    let bytes: [UInt8]
    var index = 0

    /// Far above anything tzdata produces (a few hundred transitions, a few dozen types), low
    /// enough that a forged count cannot make the parser allocate much.
    static let maxTransitions = 1 << 16
    static let maxTypes = 256
    static let maxChars = 1 << 16
    /// RFC 8536 §3.2: offsets should lie in −25…+26 hours (exclusive); none ever came close.
    static let utOffsets: ClosedRange<Int64> = -89_999...93_599
    /// Transition times beyond ±2^60 seconds are no instant anyone could ask about; zic's
    /// earliest is −2^59, the "big bang".
    static let times: ClosedRange<Int64> = -(1 << 60)...(1 << 60)

    func error(_ problem: String, at offset: Int? = nil) -> ZoneDataError {
        ZoneDataError(problem, at: .byte(offset ?? index))
    }

    mutating func take(_ count: Int, what: String) throws(ZoneDataError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - index else {
            throw error("truncated: \(what) needs \(count) bytes, \(bytes.count - index) remain")
        }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    mutating func skip(_ count: Int, what: String) throws(ZoneDataError) { _ = try take(count, what: what) }

    static func bigEndian(_ slice: ArraySlice<UInt8>) -> Int64 {
        var value: UInt64 = 0
        for byte in slice { value = value << 8 | UInt64(byte) }
        // Sign-extend from the slice's width (4 or 8 bytes).
        let shift = UInt64(64 - 8 * slice.count)
        return Int64(bitPattern: value << shift) >> shift
    }

    /// The 44-byte header: magic, version, 15 unused bytes, six counts.
    mutating func header() throws(ZoneDataError) -> TZifHeader {
        let start = index
        // The magic first, so a short file of something else is called that, not truncated.
        let magic = bytes[start..<min(start + 4, bytes.count)]
        guard magic.elementsEqual("TZif".utf8.prefix(magic.count)) else { throw error("not a TZif file") }
        let head = try take(20, what: "the header")
        let versionByte = head[start + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw error("unknown TZif version byte \(versionByte)", at: start + 4)
        }
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(UInt32(truncatingIfNeeded: Self.bigEndian(try take(4, what: "a count"))))) }
        let header = TZifHeader(
            version: version, isUTCount: counts[0], isStdCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5], start: start)
        // Caps only, so the block's size can be computed; a version 1 block that is only
        // skipped need not be valid (old zic "slim" output was not always).
        for (count, cap, offset) in [
            (header.leapCount, Self.maxTransitions, 28), (header.timeCount, Self.maxTransitions, 32),
            (header.typeCount, Self.maxTypes, 36), (header.charCount, Self.maxChars, 40),
        ] where count > cap {
            throw error("count \(count) is over the limit of \(cap)", at: start + offset)
        }
        return header
    }

    /// RFC 8536 §3.1's rules for the counts of the block that is read.
    private func check(_ h: TZifHeader) throws(ZoneDataError) {
        let start = h.start
        if h.leapCount > 0 {
            throw error("leap-second (\"right/\") zone files are not supported", at: start + 28)
        }
        if h.typeCount == 0 { throw error("there must be at least one local time type", at: start + 36) }
        if h.charCount == 0 { throw error("there must be at least one abbreviation byte", at: start + 40) }
        if h.isStdCount != 0 && h.isStdCount != h.typeCount {
            throw error("the standard/wall indicator count must be 0 or the type count", at: start + 24)
        }
        if h.isUTCount != 0 && h.isUTCount != h.typeCount {
            throw error("the UT/local indicator count must be 0 or the type count", at: start + 20)
        }
    }

    /// Transitions, their types, the type table and abbreviations; leap seconds refused;
    /// the standard/wall and UT/local indicators checked and dropped (they matter only to
    /// POSIX TZ strings without rules, which lifesignal does not accept).
    mutating func dataBlock(_ header: TZifHeader, timeSize: Int) throws(ZoneDataError) -> ZoneRules {
        try check(header)
        let size = header.dataSize(timeSize: timeSize)
        guard size <= bytes.count - index else {
            throw error("truncated: the data block needs \(size) bytes, \(bytes.count - index) remain")
        }
        var times: [Int64] = []
        for _ in 0..<header.timeCount {
            let at = index
            let time = Self.bigEndian(try take(timeSize, what: "a transition time"))
            guard Self.times.contains(time) else { throw error("transition time \(time) is out of range", at: at) }
            guard times.last.map({ $0 < time }) ?? true else {
                throw error("transition times are not in ascending order", at: at)
            }
            times.append(time)
        }
        var transitions: [ZoneTransition] = []
        for time in times {
            let type = Int(try byte("a transition type"))
            guard type < header.typeCount else { throw error("transition type \(type) does not exist", at: index - 1) }
            transitions.append(ZoneTransition(at: Timestamp(seconds: time), type: type))
        }
        let types = try typeTable(header)
        for _ in 0..<(header.isStdCount + header.isUTCount) {
            guard try byte("an indicator") <= 1 else { throw error("an indicator must be 0 or 1", at: index - 1) }
        }
        return ZoneRules(transitions: transitions, types: types, footer: nil, footerText: "")
    }

    mutating func byte(_ what: String) throws(ZoneDataError) -> UInt8 {
        try take(1, what: what).first ?? 0
    }

    /// The `ttinfo` records and the abbreviation bytes they index.
    private mutating func typeTable(_ header: TZifHeader) throws(ZoneDataError) -> [LocalTimeType] {
        let recordsStart = index
        try skip(header.typeCount * 6, what: "the local time types")
        let chars = try take(header.charCount, what: "the abbreviations")
        var types: [LocalTimeType] = []
        for n in 0..<header.typeCount {
            let record = recordsStart + 6 * n
            let utOffset = Self.bigEndian(bytes[record..<(record + 4)])
            guard Self.utOffsets.contains(utOffset) else {
                throw error("UT offset \(utOffset) is out of range", at: record)
            }
            guard bytes[record + 4] <= 1 else { throw error("the DST flag must be 0 or 1", at: record + 4) }
            let start = chars.startIndex + Int(bytes[record + 5])
            guard start < chars.endIndex else { throw error("abbreviation index out of range", at: record + 5) }
            guard let end = chars[start...].firstIndex(of: 0) else {
                throw error("abbreviation without a terminating NUL", at: start)
            }
            types.append(
                LocalTimeType(
                    utOffset: utOffset, isDST: bytes[record + 4] == 1,
                    abbreviation: String(decoding: chars[start..<end], as: UTF8.self)))
        }
        return types
    }

    /// `\n`, a POSIX TZ string, `\n` (RFC 8536 §3.3). An empty string means no rule.
    mutating func footer() throws(ZoneDataError) -> (PosixTZ?, String) {
        guard try byte("the footer") == 10 else {
            throw error("the footer must start with a newline", at: index - 1)
        }
        let start = index
        guard let end = bytes[start...].firstIndex(of: 10) else {
            throw error("truncated: the footer has no closing newline", at: bytes.count)
        }
        index = end + 1
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        guard end > start else { return (nil, "") }
        do {
            return (try PosixTZ(parsing: Array(bytes[start..<end])), text)
        } catch {
            guard case .tzString(let offset) = error.place else { throw error }
            throw ZoneDataError("footer \"\(text)\": \(error.problem)", at: .byte(start + offset))
        }
    }

    func expectEnd() throws(ZoneDataError) {
        guard index == bytes.count else { throw error("\(bytes.count - index) unexpected bytes after the data") }
    }
}
