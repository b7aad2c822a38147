/// mdoc(7) text: turning help text into running-text lines (one sentence a line, wrapped),
/// paragraphs and literal displays, and escaping words so that roff takes them literally.
/// Only the man page writes mdoc; keeping the rules here leaves `ManPage` to say what is on
/// the page.
enum Mdoc {
    /// Help text as mdoc text lines: paragraphs (blank line) become `.Pp`, indented lines
    /// (examples) a literal display.
    static func body(_ text: String) -> String {
        var out = ""
        var paragraph: [String] = []
        var literal: [String] = []
        var needsBreak = false
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            if needsBreak { out += ".Pp\n" }
            out += self.text(paragraph.joined(separator: " "))
            paragraph = []
            needsBreak = true
        }
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            out += ".Bd -literal -offset indent\n"
            for line in literal { out += literalLine(line) + "\n" }
            out += ".Ed\n"
            literal = []
            needsBreak = true
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                flushParagraph()
                flushLiteral()
            } else if line.hasPrefix(" ") {
                flushParagraph()
                literal.append(String(line.drop { $0 == " " }))
            } else {
                flushLiteral()
                paragraph.append(String(line))
            }
        }
        flushParagraph()
        flushLiteral()
        return out
    }

    /// Running text: one sentence per line (mdoc's rule, so that the formatter spaces
    /// sentences right), escaped.
    static func text(_ text: String) -> String {
        var lines: [String] = []
        var current = ""
        let words = text.split(separator: " ")
        for (index, word) in words.enumerated() {
            current += (current.isEmpty ? "" : " ") + word
            let next = index + 1 < words.count ? words[index + 1] : nil
            if let next, endsSentence(String(word)), let first = next.first, first.isUppercase || first == "'" {
                lines.append(current)
                current = ""
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.flatMap { wrap(escape($0)) }.map { protect($0) + "\n" }.joined()
    }

    /// Splits an escaped line at spaces into lines of at most 80 bytes (a longer word stands
    /// alone), as mandoc's style check asks. Words are never broken: a roff word cut in two
    /// would read as two.
    static func wrap(_ line: String, width: Int = 80) -> [String] {
        Wrapping.fill(line.split(separator: " "), width: width) { $0.utf8.count }
    }

    private static func endsSentence(_ word: String) -> Bool {
        guard let last = word.last, last == "." || last == "?" || last == "!" else { return false }
        return !["e.g.", "i.e.", "etc."].contains(word.lowercased())
    }

    /// A text line: backslashes and non-ASCII escaped; a leading `.` or `'` (which would make
    /// it a request) protected with `\&`.
    static func escapeLine(_ line: String) -> String { protect(escape(line)) }

    /// An escaped line that would start with `.` or `'` gets `\&` in front.
    static func protect(_ escaped: String) -> String {
        escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A line inside a literal display.
    static func literalLine(_ line: String) -> String { escapeLine(line) }

    /// Words as macro arguments: escaped, and any word that mdoc would take for a macro
    /// name (`No`, `Ar`…) or a delimiter protected with `\&`.
    static func macroWords(_ text: String) -> String {
        text.split(separator: " ").map { word -> String in
            let escaped = escape(String(word))
            let looksLikeMacro = word.count == 2 && word.first?.isUppercase == true && word.last?.isLetter == true
            let isDelimiter = word.count == 1 && word.first.map { "()[].,:;|!?".contains($0) } == true
            return looksLikeMacro || isDelimiter ? "\\&" + escaped : escaped
        }.joined(separator: " ")
    }

    /// `\` as `\e`, `"` kept, anything outside ASCII as `\[uXXXX]`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\e"
            } else if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else {
                var hex = String(scalar.value, radix: 16, uppercase: true)
                while hex.count < 4 { hex = "0" + hex }
                out += "\\[u\(hex)]"
            }
        }
        return out
    }
}
