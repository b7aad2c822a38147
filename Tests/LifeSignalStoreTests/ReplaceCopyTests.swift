import Foundation
import LifeSignalCore
import Testing

@testable import LifeSignalStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The replacement of a copy that may be lost but never torn (the circle's copy of a log): over
/// its spare, the version before last, with no inode made or freed once the spare is there.
@Suite struct ReplaceCopyTests: ScratchFiles {
    let directory: String
    var path: String { directory + "/log.json" }
    var spare: String { path + ".bak" }

    init() throws { directory = try Self.makeDirectory("copy") }

    func replace(_ text: String) throws {
        try Posix.replaceCopy(path, with: Array(text.utf8), spare: spare, mode: 0o640)
    }

    @Test func theTwoFilesTakeTurnsAndNoneIsMadeOrFreed() throws {
        defer { cleanUp() }
        try replace("one\n")
        try replace("two\n")
        #expect(text(path) == "two\n" && text(spare) == "one\n", "the old file is kept as the spare")
        for next in ["three\n", "four, a longer text than the spare held\n", "5\n"] {
            let before = (file: inode(path)?.inode, spare: inode(spare)?.inode)
            let previous = text(path)
            try replace(next)
            #expect(text(path) == next && text(spare) == previous)
            #expect(inode(path)?.inode == before.spare && inode(spare)?.inode == before.file)
        }
        #expect(inode(path)?.mode == 0o640 && inode(path)?.links == 1 && inode(spare)?.links == 1)
        #expect(try names() == ["log.json", "log.json.bak"])
    }

    /// A writer killed between keeping the old file under a name of its own and renaming it to
    /// the spare's, or before the spare took the file's place: the next one finishes cleanly.
    @Test func whatAKilledWriterLeftIsTakenUp() throws {
        defer { cleanUp() }
        try replace("one\n")
        try replace("two\n")
        #expect(link(path, spare + ".tmp") == 0)
        try replace("three\n")
        #expect(text(path) == "three\n" && text(spare) == "two\n")
        #expect(try names() == ["log.json", "log.json.bak"])
        // The spare renamed into place, the old file not yet given the spare's name.
        #expect(unlink(spare) == 0)
        try replace("four\n")
        #expect(text(path) == "four\n" && text(spare) == "three\n")
        #expect(try names() == ["log.json", "log.json.bak"])
    }

    /// A reader holding the copy open across two replacements reads a file being written over
    /// (review H): what it read does not decode, its name holds another version now, and the
    /// reader reads the name again. A copy that does not decode and stands still is damage.
    @Test func aReaderWhoseCopyWasWrittenOverReadsTheNameAgain() throws {
        defer { cleanUp() }
        try replace("{\"v\": 1}")
        let first = Posix.key(path)
        try replace("{\"v\": 2}")
        try replace("{\"v\": 3}")
        var key = first
        var reads = 0
        func decode(_ bytes: [UInt8]) throws(StoreError) -> String {
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.hasSuffix("}") else { throw .damaged(path: path, problem: "cut short", backup: nil) }
            return text
        }
        let read = try Store.readStill(
            path, key: &key,
            reading: { (key: inout Posix.FileKey) throws(StoreError) in
                reads += 1
                // The first read is the old file caught mid-write, with the key it had then.
                if reads == 1 {
                    key = first
                    return .contents(Array("{\"v\": ".utf8))
                }
                guard let read = try? Posix.read(path, key: &key) else { return .missing }
                return read
            }, decode: decode)
        #expect(read == "{\"v\": 3}" && reads == 2)
        try Data("{\"v\": ".utf8).write(to: URL(fileURLWithPath: path))
        var still = Posix.FileKey.missing
        #expect(throws: StoreError.self) {
            try Store.readStill(
                path, key: &still,
                reading: { (key: inout Posix.FileKey) throws(StoreError) in
                    guard let read = try? Posix.read(path, key: &key) else { return .missing }
                    return read
                }, decode: decode)
        }
    }

    /// A spare that is a second name of the file, or a link to elsewhere, is never written
    /// through: the file is replaced through a new temporary file and the spare made again.
    @Test func aSpareThatIsNotAFileOfItsOwnIsNotWrittenOver() throws {
        defer { cleanUp() }
        try replace("one\n")
        #expect(link(path, spare) == 0)
        try replace("two\n")
        #expect(text(path) == "two\n" && text(spare) == "one\n")
        #expect(try names() == ["log.json", "log.json.bak"])
        let outside = directory + "/outside"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("outside\n".utf8)))
        #expect(unlink(spare) == 0 && symlink(outside, spare) == 0)
        try replace("three\n")
        #expect(text(outside) == "outside\n")
        #expect(text(path) == "three\n" && text(spare) == "two\n")
        var info = stat()
        #expect(lstat(spare, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }
}
