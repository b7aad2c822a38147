import Foundation
import LifeSignalCore
import TestSupport
import Testing

@testable import LifeSignalStore

/// The private files name their formats: the cache by an id derived from its schema, the trust
/// memory by a format of its own that still reads what lifesignal wrote before it had one.
@Suite struct FormatTests {
    let root = Scratch.root.appendingPathComponent("lifesignal-format-\(UUID().uuidString)")
        .path

    /// A memory with a device verified.
    static var memory: TrustMemory {
        var seen = TrustSeen()
        seen.devices["4f906e95-b072-41c2-9354-5e6f708192a3"] = TrustSeen.Verified(
            key: String(repeating: "ab", count: 32), seq: 42)
        var memory = TrustMemory()
        memory.members["0b5c2a51-7c3e-4d8e-9f10-1a2b3c4d5e6f"] = seen
        return memory
    }

    /// `verified.bin` as the release before this one wrote it: in the cache's form (the magic
    /// `LSCACHE`, the cache's format number 20, a checksum, no entries) with the same fields.
    func legacyFile() throws -> [UInt8] {
        Self.memory.save(root)
        let current = try #require(FileManager.default.contents(atPath: TrustMemory.path(root)))
        // (The entries are laid out where they lie in the file: written after the header.)
        var file = CacheCodec.magic + [20] + [UInt8](repeating: 0, count: 8)
        CacheEntries.write([CircleCache.Entry](), to: &file)
        file += Array(current.dropFirst(TrustMemory.headerSize))
        var sum = CacheCodec.checksum(file[16...])
        for i in 8..<16 {
            file[i] = UInt8(truncatingIfNeeded: sum)
            sum >>= 8
        }
        return file
    }

    @Test func aTrustMemoryFromTheReleaseBeforeIsReadNotCalledDamaged() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var legacy = try legacyFile()
        try Data(legacy).write(to: URL(fileURLWithPath: TrustMemory.path(root)))
        let read = TrustMemory.read(root)
        #expect(!read.damaged)
        #expect(read.memory == Self.memory)
        // Damaged in that form, it is damage like any other.
        legacy[legacy.count - 2] ^= 0x10
        try Data(legacy).write(to: URL(fileURLWithPath: TrustMemory.path(root)))
        #expect(TrustMemory.read(root).damaged)
    }

    /// The cache's header carries the id derived from the schema's shape, and only a file with
    /// that id is used.
    @Test func theCacheNamesTheFormatItsSchemaGives() throws {
        var writer = BinaryWriter()
        writer.circle(CacheCodecTests.fullCircle)
        let file = CacheCodec.file(writer)
        #expect(CacheCodec.storedChecksum(file, at: CacheCodec.magic.count + 1) == CacheCodec.formatID)
        let derived = CacheCodec.checksum(Array((CircleState.shape + CacheCodec.frames).utf8)[...])
        #expect(
            CacheCodec.formatID == derived,
            "the cache's schema changed: set CacheCodec.formatID to 0x\(String(derived, radix: 16))")
        #expect((try? CacheCodec.reader(file)) != nil)
        var other = file
        other[CacheCodec.magic.count + 3] ^= 0x80
        #expect((try? CacheCodec.reader(other)) == nil, "a file of another format is not read")
    }
}
