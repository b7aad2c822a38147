import LifeSignalCore

/// The cache's entries — every file it was built from, with its key — as they lie in the
/// cache file, right after the header: checked where they lie, without making a string of any
/// path, so that a second thread can start checking a large circle's keys as soon as the file
/// is read, while the rest of the cache is verified and decoded.
///
/// Layout: a varint count, then for each entry its path (a varint length and the bytes) and
/// seven 8-byte little-endian words: device, inode, size, modification and change time (the
/// key), then the log's last sequence number and check-in count (see `CircleCache.Entry`).
struct CacheEntries: Sendable {
    private let bytes: [UInt8]
    /// Where each entry's path starts; its length is `lengths[i]`, its words follow it.
    private var starts: [Int] = []
    private var lengths: [Int] = []
    /// Where the entries end (and the rest of the cache begins).
    private(set) var end: Int

    private static let words = 7

    var count: Int { starts.count }

    /// The entries that start at `start`; damaged if any would run past the end.
    init(_ bytes: [UInt8], from start: Int) throws(BinaryReader.Damaged) {
        self.bytes = bytes
        var position = start
        let n = try Self.varint(bytes, &position)
        // Each entry takes at least a length byte and its words: a damaged count cannot make
        // this reserve more than the file could hold.
        guard n <= (bytes.count - position) / (1 + Self.words * 8) else { throw BinaryReader.Damaged() }
        starts.reserveCapacity(n)
        lengths.reserveCapacity(n)
        for _ in 0..<n {
            let length = try Self.varint(bytes, &position)
            guard length <= bytes.count - position, Self.words * 8 <= bytes.count - position - length else {
                throw BinaryReader.Damaged()
            }
            starts.append(position)
            lengths.append(length)
            position += length + Self.words * 8
        }
        end = position
        // Held to the limits the logs are held to, as every number of the cache is.
        for i in 0..<n where !(0...Limits.counter).contains(word(i, 5)) || !(0...Limits.counter).contains(word(i, 6)) {
            throw BinaryReader.Damaged()
        }
    }

    /// The entry at `i`, decoded.
    func entry(_ i: Int) -> CircleCache.Entry {
        let path = String(decoding: bytes[starts[i]..<(starts[i] + lengths[i])], as: UTF8.self)
        var entry = CircleCache.Entry(path: path, key: key(i))
        entry.seq = word(i, 5)
        entry.count = word(i, 6)
        return entry
    }

    /// Every entry, decoded.
    var all: [CircleCache.Entry] { (0..<count).map(entry) }

    func key(_ i: Int) -> Posix.FileKey {
        Posix.FileKey(
            device: UInt64(bitPattern: word(i, 0)), inode: UInt64(bitPattern: word(i, 1)), size: word(i, 2),
            modified: word(i, 3), changed: word(i, 4))
    }

    private func word(_ i: Int, _ n: Int) -> Int64 {
        let offset = starts[i] + lengths[i] + n * 8
        return bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
    }

    /// Whether the entry's path starts with `prefix`.
    func path(_ i: Int, hasPrefix prefix: [UInt8]) -> Bool {
        lengths[i] >= prefix.count && bytes[starts[i]..<(starts[i] + prefix.count)].elementsEqual(prefix)
    }

    /// Whether the entry's path is absolute (this device's private copies).
    func isAbsolute(_ i: Int) -> Bool { lengths[i] > 0 && bytes[starts[i]] == UInt8(ascii: "/") }

    /// Whether the file of the entry at `i` still has its key: the path is handed to `fstatat`
    /// from the bytes, through a buffer the caller keeps for all the entries it checks.
    func isUnchanged(_ i: Int, keys: Posix.KeyReader, buffer: inout [CChar]) -> Bool {
        let length = lengths[i]
        if buffer.count < length + 1 { buffer = [CChar](repeating: 0, count: length + 1) }
        let start = starts[i]
        bytes.withUnsafeBytes { source in
            buffer.withUnsafeMutableBytes { target in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + length)]))
                target[length] = 0
            }
        }
        return buffer.withUnsafeBufferPointer { path in
            guard let base = path.baseAddress else { return false }
            return keys.key(cPath: base, absolute: isAbsolute(i)) == key(i)
        }
    }

    /// The entries a linked write checks: every one but this device's own (a writer reads its
    /// log itself) and those in the folders of members not in `members`.
    func indices(of members: Set<String>, ownPrefix: [UInt8]) -> [Int] {
        let folders = Array("members/".utf8)
        // A member's folder, its devices' folders and their files follow one another: the
        // member of the entry before is not looked up again.
        var last: (member: ArraySlice<UInt8>, wanted: Bool)?
        return (0..<count).filter { i in
            guard !path(i, hasPrefix: ownPrefix), !isAbsolute(i) else { return false }
            guard path(i, hasPrefix: folders) else { return true }
            let rest = bytes[(starts[i] + folders.count)..<(starts[i] + lengths[i])]
            let member = rest.prefix { $0 != UInt8(ascii: "/") }
            if let last, last.member.elementsEqual(member) { return last.wanted }
            let wanted = members.contains(String(decoding: member, as: UTF8.self))
            last = (member, wanted)
            return wanted
        }
    }

    /// Checks the keys of the entries at `picked` whose places this thread takes from `chunks`,
    /// stopping every thread at the first that no longer matches.
    func check(_ picked: [Int], taking chunks: Chunks, in circle: String) {
        let keys = Posix.KeyReader(circle)
        var buffer = [CChar](repeating: 0, count: 256)
        while let chunk = chunks.take() {
            for j in chunk where !isUnchanged(picked[j], keys: keys, buffer: &buffer) {
                chunks.stop()
                return
            }
        }
    }

    /// How many bytes `write` appends for `entries`.
    static func size(_ entries: some Collection<CircleCache.Entry>) -> Int {
        entries.reduce(BinaryWriter.varintSize(UInt64(entries.count))) {
            $0 + BinaryWriter.varintSize(UInt64($1.path.utf8.count)) + $1.path.utf8.count + words * 8
        }
    }

    /// Appends `entries` in this layout.
    static func write(_ entries: some Collection<CircleCache.Entry>, to file: inout [UInt8]) {
        BinaryWriter.appendVarint(UInt64(entries.count), to: &file)
        for entry in entries {
            var path = entry.path
            path.withUTF8 { utf8 in
                BinaryWriter.appendVarint(UInt64(utf8.count), to: &file)
                file.append(contentsOf: utf8)
            }
            let key = entry.key
            for word in [
                Int64(bitPattern: key.device), Int64(bitPattern: key.inode), key.size, key.modified, key.changed,
                entry.seq, entry.count,
            ] {
                withUnsafeBytes(of: word.littleEndian) { file.append(contentsOf: $0) }
            }
        }
    }

    /// A varint that counts something within `bytes` (a count or a length).
    private static func varint(_ bytes: [UInt8], _ position: inout Int) throws(BinaryReader.Damaged) -> Int {
        let value = try BinaryReader.varint(bytes, at: &position)
        guard value <= UInt64(bytes.count) else { throw BinaryReader.Damaged() }
        return Int(value)
    }
}
