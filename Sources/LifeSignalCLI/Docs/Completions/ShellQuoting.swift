import LifeSignalCore

/// Quoting for the three shells, in one place: every word or text that a script takes from
/// the command table passes through one of these, so that a name or help text with a quote,
/// a bracket or a backslash in it cannot break a script.
extension Completions {
    /// Quotes a word for bash and zsh: as is when it is plainly safe, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", "@", "%", "+", ",", ":": return true
                default: return false
                }
            }
        return safe ? text : "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }

    /// A `case` pattern matching `text` literally, for bash.
    static func bashPattern(_ text: String) -> String { "\"" + text + "\"" }

    /// Always single-quoted, for zsh.
    static func zshQuote(_ text: String) -> String { "'" + text.replacingEvery("'", with: "'\\''") + "'" }

    /// A zsh `case` pattern: quoted, and `''` for the empty path.
    static func zshPattern(_ text: String) -> String { text.isEmpty ? "''" : zshQuote(text) }

    /// Text inside an `_arguments` `[…]` explanation.
    static func zshBracketed(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "[" || character == "]" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// Single-quoted for fish (which escapes `\` and `'` inside single quotes).
    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}
