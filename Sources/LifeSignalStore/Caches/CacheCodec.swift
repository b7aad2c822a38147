import LifeSignalCore

/// The private cache's file: a header, the keys of the files it was built from
/// (`CacheEntries`), then the circle's state in the record schema's binary
/// form (LifeSignalCore's BinaryRecord.swift) — the same description a log's JSON comes from,
/// so the cache cannot drift from the logs; `CacheCodecTests` round-trips every field.
///
/// Header: the magic `LSCACHE`, a marker byte, the format's id, a checksum of everything
/// after it. A cache of another format, or one that does not check out, is simply not used:
/// that only costs one full read of the circle, after which it is rebuilt.
enum CacheCodec {
    static let magic: [UInt8] = Array("LSCACHE".utf8)
    /// The byte after the magic: the format is named by the id that follows. (Before the id
    /// was derived, this byte was a format number, at most 21: such a file is not used.)
    static let marker: UInt8 = 0xFF

    /// The format's id, derived from what the files hold: the shape of the circle's state as
    /// the record schema describes it (`CircleState.shape`: every field's key, kind, bounds
    /// and place) and the frames around it (`frames`), hashed with `checksum`. A field added,
    /// removed, renamed, moved or bounded differently gives another id, so a cache written
    /// before is not used. It is kept here as the value that derivation gives, not derived on
    /// every run (working the shape out costs about 0.8 M instructions, nearly half of a warm
    /// one-person `status`); `FormatTests` derives it again and fails, naming the new value,
    /// as soon as the schema or the frames change.
    static let formatID: UInt64 = 0x65fb_5f02_0716_9ed2

    /// The frames the store writes around the state, in the order written (CacheFiles.swift,
    /// CacheLinked.swift, CircleCache.swift, CachedFeed.swift, CacheTrust.swift): a change
    /// to one of those writers is a change to this text, which changes `formatID`.
    static let frames = [
        "entries: count; path string, file key (device uint, inode uint, size int, modified int, changed int),",
        "seq int, count int.",
        "cache.bin: circle, member, device strings; circle file uint, linked file uint, linked-for uint;",
        "own circle (members, facts nested); others clock int; unknown records (count; member, device,",
        "writer?, events int, fields strings); foreign records (count; member, device, seven counts);",
        "unread? int; digest? (ids words, text string, basis count; recipient (member: true id |",
        "external: false owner id), channels, relays bool; built at int); feed entries.",
        "cache-circle.bin, cache-linked.bin: circle, member, device strings; speakers (count; member,",
        "first sight bool, devices count; device, standing uint 0...7 with problem string or stamp);",
        "section size count; circle by member (facts, count; id, member state nested).",
    ].joined(separator: " ")

    /// Magic, marker, format id.
    static let idSize = 16
    /// Magic, marker, format id and checksum.
    static let headerSize = 24

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
        var head = magic + [marker] + bytes(of: formatID) + [UInt8](repeating: 0, count: 8)
        head.reserveCapacity(headerSize + CacheEntries.size(entries) + writer.writtenSize)
        CacheEntries.write(entries, to: &head)
        writer.write(to: &head)
        var parts = [head] + (tail?.parts ?? [])
        var sum = Checksum(count: parts.reduce(0) { $0 + $1.count } - headerSize)
        for (i, part) in parts.enumerated() { sum.add(i == 0 ? part[headerSize...] : part[...]) }
        var value = sum.value
        for i in idSize..<headerSize {
            parts[0][i] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        return parts
    }

    /// The checksum a file of this format carries in its header (0 for one too short); with
    /// `at`, the 8 bytes there (a header of another layout).
    static func storedChecksum(_ bytes: [UInt8], at start: Int = idSize) -> UInt64 {
        guard bytes.count >= start + 8 else { return 0 }
        var stored: UInt64 = 0
        for i in (start..<(start + 8)).reversed() { stored = stored << 8 | UInt64(bytes[i]) }
        return stored
    }

    /// `value`'s 8 bytes, least significant first.
    static func bytes(of value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The entries of a file of this format, found without checking its checksum (the caller
    /// checks it with `reader(_:after:)` before trusting anything else in the file).
    static func entries(_ bytes: [UInt8]) throws(Damaged) -> CacheEntries {
        guard bytes.count >= headerSize, bytes.starts(with: magic + [marker]),
            storedChecksum(bytes, at: magic.count + 1) == formatID
        else {
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
