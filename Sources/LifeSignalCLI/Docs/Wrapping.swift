/// Greedy word wrapping, shared by help (which measures in characters and must fit the
/// terminal) and the man page (which measures in bytes, as mandoc's style check does). One
/// fill rule, so that the two cannot wrap differently by accident.
enum Wrapping {
    /// Fills `words` into lines of at most `width` (the first line) and `continuationWidth`
    /// (the others), greedily. A word longer than its line stands alone on it; callers that
    /// must never overflow break such words first (`breakingLongWords`). No words, no lines.
    static func fill(
        _ words: [Substring], width: Int, continuationWidth: Int? = nil, measure: (String) -> Int
    ) -> [String] {
        var result: [String] = []
        var current = ""
        for word in words {
            let limit = result.isEmpty ? width : (continuationWidth ?? width)
            if !current.isEmpty, measure(current) + 1 + measure(String(word)) > limit {
                result.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The words of `text`, with any longer than `limit` characters broken into pieces that
    /// fit, so that a URL or a long option name cannot push a line past the terminal's edge.
    static func breakingLongWords(_ text: String, limit: Int) -> [Substring] {
        text.split(separator: " ").flatMap { word in word.count > limit ? pieces(of: word, limit: limit) : [word] }
    }

    /// Where a long word may break most kindly: just after one of these.
    private static let breakAfter: Set<Character> = ["/", "-", "_", ".", ":", ",", "&", "?", "=", "|"]

    /// `word` in pieces of at most `limit` characters, each ending after a `breakAfter`
    /// character when one falls in the second half of the piece, else cut at the limit.
    private static func pieces(of word: Substring, limit: Int) -> [Substring] {
        let limit = max(1, limit)
        var result: [Substring] = []
        var rest = word
        while rest.count > limit {
            let window = rest.prefix(limit)
            let kind = window.indices.last { breakAfter.contains(window[$0]) }
            var end = window.endIndex
            if let kind, window.distance(from: window.startIndex, to: kind) >= limit / 2 {
                end = window.index(after: kind)
            }
            result.append(rest[..<end])
            rest = rest[end...]
        }
        if !rest.isEmpty { result.append(rest) }
        return result
    }
}
