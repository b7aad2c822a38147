import Foundation
import LifeSignalCore
import Testing

/// The architecture guide is true of the code: every source file it names exists where it says,
/// every private file of a data directory is in its table with the kind `DataFile` gives it,
/// and the README points to it.
@Suite struct ArchitectureGuideTests {
    static let guide =
        (try? String(
            contentsOf: Binary.packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)) ?? ""

    /// Each `Folder/File.swift` the guide names, resolved against the source folders.
    @Test func everyFileItNamesExists() throws {
        let sources = Binary.packageRoot.appendingPathComponent("Sources")
        let targets = [
            "Core": "LifeSignalCore", "App": "LifeSignalApp", "CLI": "LifeSignalCLI",
            "Store": "LifeSignalStore", "Channels": "LifeSignalChannels",
        ]
        let named = Self.guide.split(separator: "`").map(String.init).filter {
            $0.hasSuffix(".swift") && $0.contains("/") && !$0.contains(" ") && !$0.contains("<")
        }
        #expect(named.count >= 15, "the guide names too few files to be a guide")
        var all: [String] = []
        if let walker = FileManager.default.enumerator(atPath: sources.path) {
            for case let path as String in walker where path.hasSuffix(".swift") { all.append(path) }
        }
        for path in named {
            if path.hasPrefix("Tests/") {
                let file = Binary.packageRoot.appendingPathComponent(path).path
                #expect(
                    FileManager.default.fileExists(atPath: file),
                    "docs/ARCHITECTURE.md names \(path), which is not there")
                continue
            }
            let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
            let target = targets[parts[0]] ?? parts[0]
            // A file may sit in a subfolder of its target or of the folder named.
            let found =
                all.contains { $0.hasPrefix(target + "/") && $0.hasSuffix("/" + parts[1]) }
                || all.contains { $0 == target + "/" + parts[1] }
            #expect(found, "docs/ARCHITECTURE.md names \(path), which is not in Sources")
        }
    }

    @Test func everyPrivateFileIsInTheTableWithItsKind() {
        let rows = Self.guide.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for file in DataFile.allCases {
            let row = rows.first { $0.contains("`\(file.rawValue)`") }
            #expect(row != nil, "\(file.rawValue) is not in the guide's table")
            #expect(row?.contains("**\(file.kind)**") ?? false, "\(file.rawValue) is not said to be \(file.kind)")
        }
    }

    @Test func theReadmePointsToIt() {
        #expect(ReadmeTests.readme.contains("(docs/ARCHITECTURE.md)"))
        #expect(Self.guide.contains("## Glossary") && Self.guide.contains("## Checklists"))
    }
}
