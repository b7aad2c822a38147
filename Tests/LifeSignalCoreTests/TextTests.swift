import LifeSignalCore
import Testing

/// Our own text search and replacement (the standard library's are in `_StringProcessing`).
@Suite struct TextTests {
    @Test(arguments: [
        ("a//b", "//", true), ("a/./b", "/./", true), ("a/b", "//", false), ("", "x", false), ("x", "", true),
        (".log.json.tmp.1234", ".tmp.", true), (".tmp", ".tmp.", false), ("aaab", "aab", true),
        ("ababac", "abac", true),
        ("naïve café", "é", true), ("naïve café", "ï", true), ("cafe", "é", false), ("🙂 ok", "ok", true),
    ])
    func includes(_ text: String, _ needle: String, _ expected: Bool) {
        #expect(text.includes(needle) == expected)
    }

    @Test func firstRangeIsTheFirstOccurrence() throws {
        let text = "apprise:tgram://bot://x"
        let range = try #require(text.firstRange(ofText: "://"))
        #expect(text[..<range.lowerBound] == "apprise:tgram")
        #expect(text[range.upperBound...] == "bot://x")
        #expect("über/./x".firstRange(ofText: "/./").map { String("über/./x"[..<$0.lowerBound]) } == "über")
        #expect("abc".firstRange(ofText: "abcd") == nil)
    }

    @Test(arguments: [
        ("it's", "'", "'\\''", "it'\\''s"), ("''", "'", "x", "xx"), ("none", "'", "x", "none"),
        ("a\\b", "\\", "\\\\", "a\\\\b"),
        ("ababab", "ab", "-", "---"), ("aaa", "aa", "b", "ba"), ("héllo wörld", "ö", "oe", "héllo woerld"),
        ("abc", "", "x", "abc"),
    ])
    func replacingEvery(_ text: String, _ target: String, _ replacement: String, _ expected: String) {
        #expect(text.replacingEvery(target, with: replacement) == expected)
    }
}
