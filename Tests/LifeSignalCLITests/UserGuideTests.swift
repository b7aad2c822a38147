import Foundation
import Testing

/// The README stays the way in (at most 500 lines) and the user's guide, docs/GUIDE.md, holds
/// the rest: every link between them reaches a heading, and every section a message of
/// lifesignal sends a person to is there under the name the message gives.
@Suite struct UserGuideTests {
    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: Substring) -> String {
        let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(
            title.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_"
                    ? character : nil
            })
    }

    static func anchors(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map(anchor))
    }

    /// The targets of the markdown links in `text` that start with `prefix`.
    static func links(in text: String, to prefix: String) -> [String] {
        text.components(separatedBy: "](" + prefix).dropFirst().compactMap { $0.split(separator: ")").first }
            .map(String.init)
    }

    @Test func theReadmeIsTheWayInNotTheWholeBook() {
        let lines = ReadmeTests.readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 500, "README.md has \(lines) lines; move reference into docs/GUIDE.md")
        #expect(ReadmeTests.readme.contains("(docs/GUIDE.md)"))
    }

    @Test func everyLinkIntoTheGuideReachesAHeading() {
        let headings = Self.anchors(ReadmeTests.guide)
        #expect(headings.count >= 15, "the guide has too few headings to be one")
        let fromReadme = Self.links(in: ReadmeTests.readme, to: "docs/GUIDE.md#")
        #expect(fromReadme.count >= 8)
        for target in fromReadme + Self.links(in: ReadmeTests.guide, to: "#") {
            #expect(headings.contains(target), "a link names #\(target), which no heading of docs/GUIDE.md is")
        }
    }

    /// Messages say "see 'SECTION' in lifesignal's guide" or "the \"SECTION\" section of
    /// lifesignal's guide": each such section is a heading of the guide.
    @Test func everySectionAMessageNamesIsInTheGuide() throws {
        let sources = Binary.packageRoot.appendingPathComponent("Sources")
        var named: [String] = []
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for piece in text.components(separatedBy: "' in lifesignal's guide").dropLast() {
                if let name = piece.split(separator: "'").last { named.append(String(name)) }
            }
            for piece in text.components(separatedBy: "\\\" section of lifesignal's guide").dropLast() {
                if let name = piece.components(separatedBy: "\\\"").last { named.append(name) }
            }
        }
        #expect(named.count >= 4, "\(named)")
        let headings = Set(
            ReadmeTests.guide.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            })
        for name in named { #expect(headings.contains(name), "a message names '\(name)', which is not in the guide") }
    }
}
