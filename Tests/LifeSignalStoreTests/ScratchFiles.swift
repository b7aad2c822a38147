import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of its own for a test of how files are written, and what the test looks at in it.
protocol ScratchFiles {
    var directory: String { get }
}

extension ScratchFiles {
    /// A new, empty folder under the temporary directory, named for the test suite.
    static func makeDirectory(_ name: String) throws -> String {
        let directory =
            Scratch.root.appendingPathComponent("lifesignal-\(name)-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func inode(_ path: String) -> (inode: UInt64, links: UInt64, mode: UInt32)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_ino), UInt64(info.st_nlink), UInt32(info.st_mode & 0o7777))
    }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory).sorted() }
}
