import Foundation
import Testing

/// The targets' dependency arrows point only downward: CLI → App → Store/Channels → Core. Read
/// from Package.swift and from the import lines of every source file, so neither a new
/// dependency in the manifest nor a stray `import LifeSignalStore` in a command can slip in.
@Suite struct LayeringTests {
    /// What each target may depend on, directly.
    static let allowed: [String: Set<String>] = [
        "LifeSignalCore": [],
        // CGlibc: a header of the C library (glibc's malloc_trim, mallopt, renameat2), no code of ours.
        "LifeSignalStore": ["LifeSignalCore", "CGlibc"],
        "LifeSignalChannels": ["LifeSignalCore"],
        "LifeSignalApp": ["LifeSignalCore", "LifeSignalStore", "LifeSignalChannels"],
        "LifeSignalCLI": ["LifeSignalCore", "LifeSignalApp"],
        // CGlibc: a header of the C library (glibc's mallopt), no code of ours.
        "lifesignal": ["LifeSignalCLI", "LifeSignalCore", "CGlibc"],
    ]

    /// `.target(name: "X", dependencies: ["A", "B"])` for the targets under Sources.
    static func manifestDependencies() throws -> [String: Set<String>] {
        let manifest = try String(
            contentsOf: Binary.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var found: [String: Set<String>] = [:]
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:executableTarget|target)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        for match in pattern.matches(in: manifest, range: range) {
            guard let name = Range(match.range(at: 1), in: manifest).map({ String(manifest[$0]) }) else { continue }
            let list = Range(match.range(at: 2), in: manifest).map { String(manifest[$0]) } ?? ""
            found[name] = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(["\""])) })
        }
        return found
    }

    @Test func manifestArrowsPointDown() throws {
        let manifest = try Self.manifestDependencies()
        for (target, allowed) in Self.allowed {
            let declared = try #require(manifest[target], "\(target) is not in Package.swift")
            #expect(declared.isSubset(of: allowed), "\(target) depends on \(declared.subtracting(allowed).sorted())")
        }
    }

    @Test func importsFollowTheArrows() throws {
        let sources = Binary.packageRoot.appendingPathComponent("Sources")
        let ours = Set(Self.allowed.keys)
        for (target, allowed) in Self.allowed {
            let folder = sources.appendingPathComponent(target)
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            #expect(!files.isEmpty, "no sources found for \(target)")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                    let module = String(words[index + 1])
                    guard ours.contains(module) else { continue }
                    #expect(
                        allowed.contains(module),
                        "\(file.lastPathComponent) in \(target) imports \(module), which \(target) must not use")
                }
            }
        }
    }
}
