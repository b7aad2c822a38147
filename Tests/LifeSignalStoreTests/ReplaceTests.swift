import Foundation
import Testing

@testable import LifeSignalStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The crash-safe replace and its backup.
@Suite struct ReplaceTests: ScratchFiles {
    let directory: String
    var path: String { directory + "/log.json" }
    var backup: String { path + ".bak" }

    init() throws { directory = try Self.makeDirectory("replace") }

    /// A writer killed between making the backup and replacing the file leaves the backup as a
    /// second name of the file itself. The next replace must still end with exactly the file
    /// and its backup (rename between two links to one inode does nothing), and must not
    /// write over that shared file in place.
    @Test func aBackupThatIsAlreadyTheFileLeavesNoTemporaryName() throws {
        defer { cleanUp() }
        try Posix.replace(path, with: Array("old\n".utf8), backup: backup)
        try FileManager.default.linkItem(atPath: path, toPath: backup)
        try Posix.replace(path, with: Array("new\n".utf8), backup: backup)
        #expect(try names() == ["log.json", "log.json.bak"])
        #expect(text(path) == "new\n")
        #expect(text(backup) == "old\n")
        #expect(inode(path)?.inode != inode(backup)?.inode)
    }

    /// With a backup in place, the next replacement is written over the backup's file and the
    /// two names swapped: the file takes the backup's inode (none created, none freed), the
    /// backup the file's, and no other name is left behind.
    @Test func theBackupsFileIsWrittenOverAndSwappedIn() throws {
        defer { cleanUp() }
        try Posix.replace(path, with: Array("one\n".utf8), backup: backup)
        try Posix.replace(path, with: Array("two\n".utf8), backup: backup)
        #expect(text(path) == "two\n" && text(backup) == "one\n")
        let before = (file: inode(path), backup: inode(backup))
        try Posix.replace(path, with: Array("three, longer\n".utf8), backup: backup, mode: 0o640)
        #expect(text(path) == "three, longer\n")
        #expect(text(backup) == "two\n")
        #expect(try names() == ["log.json", "log.json.bak"])
        #expect(inode(path)?.mode == 0o640)
        #if canImport(Glibc)
            #expect(inode(path)?.inode == before.backup?.inode, "the backup's file was not reused")
            #expect(inode(backup)?.inode == before.file?.inode, "the old file did not become the backup")
        #endif
        // And shorter again: the reused file is cut to the new length.
        try Posix.replace(path, with: Array("4\n".utf8), backup: backup)
        #expect(text(path) == "4\n" && text(backup) == "three, longer\n")
    }

    /// A copy that is not synced is never swapped with its backup (a power cut could leave its
    /// name on old blocks partly written over): it goes through a new file each time.
    @Test func aCopyNotSyncedIsNeverWrittenOverItsBackup() throws {
        defer { cleanUp() }
        for text in ["one\n", "two\n"] {
            try Posix.replace(path, with: Array(text.utf8), backup: backup, durable: false)
        }
        let before = (file: inode(path), backup: inode(backup))
        try Posix.replace(path, with: Array("three\n".utf8), backup: backup, durable: false)
        #expect(text(path) == "three\n" && text(backup) == "two\n")
        #expect(inode(path)?.inode != before.backup?.inode)
        #expect(inode(backup)?.inode == before.file?.inode)
    }

    /// A backup written over but not swapped in (the swap failed: a file system that cannot, or
    /// an error) holds text that was never saved: it is removed, and the old file becomes the
    /// backup again through a new temporary file.
    @Test func aBackupWrittenOverButNotSwappedInIsMadeTheOldFileAgain() throws {
        defer { cleanUp() }
        for text in ["one\n", "two\n"] { try Posix.replace(path, with: Array(text.utf8), backup: backup) }
        let file = inode(path)
        var tried = 0
        try Posix.replace(
            path, with: Array("three\n".utf8), backup: backup, durable: true, mode: 0o600,
            swapping: { _, _ in
                tried += 1
                return false
            })
        #expect(tried == 1)
        #expect(text(path) == "three\n")
        #expect(text(backup) == "two\n")
        #expect(inode(backup)?.inode == file?.inode)
        #expect(try names() == ["log.json", "log.json.bak"])

        // When the temporary file's way then fails too, the text never saved is not left as
        // the backup (a restore would bring back what the person was told had failed).
        let blocker = backup + ".tmp"
        #expect(throws: SystemError.self) {
            try Posix.replace(
                path, with: Array("four\n".utf8), backup: backup, durable: true, mode: 0o600,
                swapping: { _, _ in
                    (try? FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false))
                        == nil
                })
        }
        #expect(text(path) == "three\n")
        #expect(!FileManager.default.fileExists(atPath: backup))
    }

    /// On a file system not known to swap names (here a ramfs; in life NFS, CIFS, a USB stick)
    /// the text is not written over the backup first: it goes once, through a temporary file.
    @Test(.enabled(if: getuid() == 0, "needs root to mount a ramfs"))
    func aFileSystemNotKnownToSwapNamesIsWrittenOnce() throws {
        defer { cleanUp() }
        let disk = directory + "/ram"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        func mount(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(try mount(["/bin/mount", "-t", "ramfs", "ramfs", disk]) == 0)
        defer { _ = try? mount(["/bin/umount", "-l", disk]) }
        let (path, backup) = (disk + "/log.json", disk + "/log.json.bak")
        for text in ["one\n", "two\n"] { try Posix.replace(path, with: Array(text.utf8), backup: backup) }
        let file = inode(path)
        var tried = 0
        try Posix.replace(
            path, with: Array("three\n".utf8), backup: backup, durable: true, mode: 0o600,
            swapping: {
                tried += 1
                return Posix.swapNames($0, $1)
            })
        #expect(tried == 0, "the backup was written over on a file system not known to swap names")
        #expect(text(path) == "three\n" && text(backup) == "two\n")
        #expect(inode(backup)?.inode == file?.inode)
    }

    /// A backup whose file holds fewer blocks than the new text needs is not written over (a
    /// full disk must fail before anything changes): the file goes through a new temporary
    /// file and the old one becomes the backup.
    @Test func aBackupTooSmallOnDiskIsNotWrittenOver() throws {
        defer { cleanUp() }
        try Posix.replace(path, with: Array("old\n".utf8), backup: backup)
        #expect(FileManager.default.createFile(atPath: backup, contents: Data()))
        let large = String(repeating: "x", count: 64 * 1024)
        let file = inode(path)
        try Posix.replace(path, with: Array(large.utf8), backup: backup)
        #expect(text(path) == large)
        #expect(text(backup) == "old\n")
        #expect(inode(backup)?.inode == file?.inode)
        #expect(try names() == ["log.json", "log.json.bak"])
    }

    /// A backup name that is a symbolic link is never written through: what it points at is
    /// left alone, and the backup becomes a file again.
    @Test func aBackupThatIsASymbolicLinkIsNotWrittenThrough() throws {
        defer { cleanUp() }
        let outside = directory + "/outside"
        #expect(
            FileManager.default.createFile(atPath: outside, contents: Data(String(repeating: "o", count: 8192).utf8)))
        try Posix.replace(path, with: Array("old\n".utf8), backup: backup)
        try FileManager.default.createSymbolicLink(atPath: backup, withDestinationPath: outside)
        try Posix.replace(path, with: Array("new\n".utf8), backup: backup)
        #expect(text(outside) == String(repeating: "o", count: 8192))
        #expect(text(path) == "new\n" && text(backup) == "old\n")
        #expect(inode(backup).map { $0.links } == 1)
        var info = stat()
        #expect(lstat(backup, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }
}
