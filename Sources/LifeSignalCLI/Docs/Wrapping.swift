/// Greedy word wrapping, shared by help (which measures in characters and must fit the
/// terminal) and the man page (which measures in bytes, as mandoc's style check does). One
/// fill rule, so that the two cannot wrap differently by accident.
enum Wrapping {
    /// Fills `words` into lines of at most `width` (the first line) and `continuationWidth`
    /// (the others), greedily. A word longer than its line stands alone on it. No words, no lines.
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
}
