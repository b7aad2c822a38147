/// String helpers of our own.
///
/// Searching and replacing text are written here rather than taken from the standard
/// library's `contains(_:)`, `firstRange(of:)` and `replacing(_:with:)` for strings: those live
/// in `_StringProcessing`, and using any of them links its regex engine into the binary, whose
/// thousands of relocations every run of lifesignal pays for at start-up (`scripts/bench`).
/// They compare UTF-8 bytes, not characters: right for paths, URLs and quoting, not for
/// matching what people read (a name spelled with a combining accent is other bytes).
extension String {
    /// This text as one argument of a command a message suggests: as it is when plainly one
    /// word, else in double quotes (a suggestion itself sits in single quotes).
    public var commandArgument: String {
        let plain =
            !isEmpty
            && unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
                default: return scalar.value > 0x7F && scalar.properties.isAlphabetic
                }
            }
        guard !plain else { return self }
        var quoted = ""
        for character in self {
            if "\"\\$`".includes(String(character)) { quoted.append("\\") }
            quoted.append(character)
        }
        return "\"" + quoted + "\""
    }

    public var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// Whether `text` occurs in this string, compared byte for byte (UTF-8).
    public func includes(_ text: String) -> Bool { firstRange(ofText: text) != nil }

    /// The first occurrence of `text`, compared byte for byte (UTF-8).
    public func firstRange(ofText text: String) -> Range<Index>? {
        let needle = Array(text.utf8)
        let bytes = utf8
        guard let head = needle.first else { return startIndex..<startIndex }
        var start = bytes.startIndex
        while let candidate = bytes[start...].firstIndex(of: head) {
            var i = candidate
            var matched = 0
            while matched < needle.count, i != bytes.endIndex, bytes[i] == needle[matched] {
                bytes.formIndex(after: &i)
                matched += 1
            }
            if matched == needle.count { return candidate..<i }
            start = bytes.index(after: candidate)
        }
        return nil
    }

    /// Every occurrence of `target` replaced with `replacement`.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self
        while let range = rest.firstRange(ofText: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = String(rest[range.upperBound...])
        }
        return result + rest
    }
}
