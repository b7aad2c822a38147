import LifeSignalCore

/// The private cache's file: a header, the keys of the files it was built from
/// (`CacheEntries`), then the circle's state in the record schema's binary
/// form (LifeSignalCore's BinaryRecord.swift) — the same description a log's JSON comes from,
/// so the cache cannot drift from the logs; `CacheCodecTests` round-trips every field.
///
/// Header: the magic `LSCACHE`, a format byte, a checksum of everything after it. A
/// cache of another format, or one that does not check out, is simply not used: that only
/// costs one full read of the circle, after which it is rebuilt.
enum CacheCodec {
    static let magic: [UInt8] = Array("LSCACHE".utf8)
    /// 2: fields in the order of the record schema; 3: and the logs' unknown records; 5: a
    /// word-wise checksum; 6: the feed's digest; 7: each other member's state a record of its own;
    /// 8: the entries first, in a layout checked where it lies (`CacheEntries`); 9: everyone
    /// else's state last, in a section of its own that a write copies when it is unchanged;
    /// 10: records attributed to their folder's member (pings keyed with their members,
    /// acknowledgements per member, deliveries with their recorder), and what logs claimed of others;
    /// 14: two files, this device's part and everyone else's (see CacheFiles.swift).
    /// 16: each member's own word on their links, with the roles they gave (`CircleState.sides`).
    /// 17: `cache.bin` names `cache-linked.bin`, the part of everyone else a check-in reads.
    /// 18: this device's facts are a record of their own in `cache.bin`, copied by a write that
    /// left them as they were, and where the parts of its log's state lie in that file.
    /// 19: with the checksum of each part's text.
    /// 20: a pin says whether it came from a code; no member's taps of another's buttons.
    /// 21: no parts of the own log's state (the log is written whole).
    static let format: UInt8 = 21
    /// Magic, format byte and checksum.
    static let headerSize = 16

    typealias Damaged = BinaryReader.Damaged

    /// A 64-bit multiply-xor hash over 8-byte words (then the rest byte by byte): enough to
    /// tell a damaged or truncated file from a whole one, and about eight times faster than a
    /// byte-at-a-time hash over a large circle's cache.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var sum = Checksum(count: bytes.count)
        sum.add(bytes)
        return sum.value
    }

    /// The checksum of bytes that come in parts, as if they were one (a large file is written
    /// from the parts it was made in, not copied into one).
    struct Checksum {
        private var hash: UInt64
        /// The bytes of a word a part ended in the middle of.
        private var pending: UInt64 = 0
        private var pendingCount = 0
        private static let prime: UInt64 = 0x0000_0100_0000_01b3

        init(count: Int) { hash = 0xcbf2_9ce4_8422_2325 ^ UInt64(count) }

        mutating func add(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBytes { raw in
                var i = 0
                while pendingCount > 0, i < raw.count {
                    take(raw[i])
                    i += 1
                }
                let words = (raw.count - i) / 8
                for w in 0..<words {
                    word(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + w * 8, as: UInt64.self)))
                }
                for j in (i + words * 8)..<raw.count { take(raw[j]) }
            }
        }

        private mutating func take(_ byte: UInt8) {
            pending |= UInt64(byte) << (8 * UInt64(pendingCount))
            pendingCount += 1
            if pendingCount == 8 {
                word(pending)
                (pending, pendingCount) = (0, 0)
            }
        }

        private mutating func word(_ word: UInt64) {
            hash = (hash ^ word) &* Self.prime
            hash ^= hash >> 29
        }

        /// The sum, with the last bytes that make no whole word taken one at a time.
        var value: UInt64 {
            (0..<pendingCount).reduce(hash) { ($0 ^ ((pending >> (8 * UInt64($1))) & 0xFF)) &* Self.prime }
        }
    }

    /// The whole file: the header, the entries (see `CacheEntries`), what `writer` wrote, then
    /// what `tail` wrote (a section with a string table of its own, as everyone else's state
    /// is), each written once into a file made as large as they need.
    static func file(
        _ writer: BinaryWriter, entries: some Collection<CircleCache.Entry> = [], then tail: BinaryWriter? = nil
    ) -> [UInt8] {
        Array(parts(writer, entries: entries, then: tail).joined())
    }

    /// The same file in the parts it is made in: the header with everything up to `tail`, then
    /// `tail`'s string table and its fields as it holds them (not copied into one array: a
    /// large circle's section is written from where it lies).
    static func parts(
        _ writer: BinaryWriter, entries: some Collection<CircleCache.Entry> = [], then tail: BinaryWriter? = nil
    ) -> [[UInt8]] {
        var head = magic + [format] + [UInt8](repeating: 0, count: 8)
        head.reserveCapacity(headerSize + CacheEntries.size(entries) + writer.writtenSize)
        CacheEntries.write(entries, to: &head)
        writer.write(to: &head)
        var parts = [head] + (tail?.parts ?? [])
        var sum = Checksum(count: parts.reduce(0) { $0 + $1.count } - headerSize)
        for (i, part) in parts.enumerated() { sum.add(i == 0 ? part[headerSize...] : part[...]) }
        var value = sum.value
        for i in 8..<headerSize {
            parts[0][i] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        return parts
    }

    /// The checksum a file of this format carries in its header (0 for one too short).
    static func storedChecksum(_ bytes: [UInt8]) -> UInt64 {
        guard bytes.count >= headerSize else { return 0 }
        var stored: UInt64 = 0
        for i in (8..<headerSize).reversed() { stored = stored << 8 | UInt64(bytes[i]) }
        return stored
    }

    /// The entries of a file of this format, found without checking its checksum (the caller
    /// checks it with `reader(_:after:)` before trusting anything else in the file).
    static func entries(_ bytes: [UInt8]) throws(Damaged) -> CacheEntries {
        guard bytes.count >= headerSize, bytes[0..<7].elementsEqual(magic), bytes[7] == format else {
            throw Damaged()
        }
        return try CacheEntries(bytes, from: headerSize)
    }

    /// A reader of the fields after `entries`, once the checksum checks out.
    static func reader(_ bytes: [UInt8], after entries: CacheEntries) throws(Damaged) -> BinaryReader {
        guard checksum(bytes[headerSize...]) == storedChecksum(bytes) else { throw Damaged() }
        return try BinaryReader(bytes, from: entries.end)
    }

    /// A reader of the fields, once the header checks out (the entries skipped).
    static func reader(_ bytes: [UInt8]) throws(Damaged) -> BinaryReader {
        try reader(bytes, after: entries(bytes))
    }
}
