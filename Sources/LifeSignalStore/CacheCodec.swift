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
    static let format: UInt8 = 14
    /// Magic, format byte and checksum.
    static let headerSize = 16

    typealias Damaged = BinaryReader.Damaged

    /// A 64-bit multiply-xor hash over 8-byte words (then the rest byte by byte): enough to
    /// tell a damaged or truncated file from a whole one, and about eight times faster than a
    /// byte-at-a-time hash over a large circle's cache.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                hash = (hash ^ word) &* 0x0000_0100_0000_01b3
                hash ^= hash >> 29
            }
            for i in (words * 8)..<raw.count {
                hash = (hash ^ UInt64(raw[i])) &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }

    /// The whole file: the header, the entries (see `CacheEntries`), what `writer` wrote, then
    /// `tail` (a section with a string table of its own, as `others` is).
    static func file(
        _ writer: BinaryWriter, entries: [CircleCache.Entry] = [], tail: ArraySlice<UInt8> = []
    ) -> [UInt8] {
        var file = magic + [format] + [UInt8](repeating: 0, count: 8)
        CacheEntries.write(entries, to: &file)
        writer.write(to: &file)
        file.append(contentsOf: tail)
        var sum = checksum(file[headerSize...])
        for i in 8..<headerSize {
            file[i] = UInt8(truncatingIfNeeded: sum)
            sum >>= 8
        }
        return file
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
