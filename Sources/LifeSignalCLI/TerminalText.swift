/// Text for a terminal, made safe: anything that came from a file (a peer's name, a note, a
/// message, a path) is shown with its control characters visible, so no record can move the
/// cursor, clear the screen, plant a hyperlink (OSC 8) or write the clipboard (OSC 52). Every
/// human line goes through `safe` on its way out; `--json` escapes as JSON does.
///
/// lifesignal's own colours survive because they are not escape sequences until then: the
/// styling functions mark them with a token chosen at random for this process, which no file
/// can know, and `safe` turns only those marks into SGR codes, after escaping everything else.
enum TerminalText {
    static let token: String = {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 36)
    }()
    static let open: String = "\u{E000}" + token + ":"

    /// `s` in the SGR style `code` (e.g. "31" for red), as a mark `safe` turns into colour.
    static func style(_ code: String, _ s: String) -> String {
        open + code + "\u{E001}" + s + open + "0" + "\u{E001}"
    }

    /// One line of output, `safe`, with any newline inside it made visible too (`^J`): every
    /// line lifesignal prints is one line of its own, so a newline in it came from a record (a
    /// peer's name) and must not start a line that looks like lifesignal's.
    static func safeLine(_ text: String) -> String { safe(text, keepingNewlines: false) }

    /// A name as one argument of a command a message suggests, terminal-safe (see
    /// `String.commandArgument`).
    static func argument(_ text: String) -> String { safeLine(text).commandArgument }

    /// `text` with control characters, C1 codes and bidirectional overrides made visible
    /// (`^[`, `<U+202E>`), newlines and tabs kept, and lifesignal's own colour marks made real.
    static func safe(_ text: String, keepingNewlines: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingNewlines, 0x09: out.unicodeScalars.append(scalar)
            case 0x00...0x1F: out += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: out += "^?"
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            default: out.unicodeScalars.append(scalar)
            }
        }
        guard out.includes(open) else { return out }
        return colours(out)
    }

    /// Turns this process's colour marks into SGR sequences.
    private static func colours(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let mark = Array(open.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == mark[0], i + mark.count <= scalars.count, Array(scalars[i..<(i + mark.count)]) == mark {
                var j = i + mark.count
                var code = String.UnicodeScalarView()
                while j < scalars.count, scalars[j] == ";" || ("0"..."9").contains(scalars[j]) {
                    code.append(scalars[j])
                    j += 1
                }
                if j < scalars.count, scalars[j] == "\u{E001}" {
                    out.append(contentsOf: "\u{1B}[".unicodeScalars)
                    out.append(contentsOf: code)
                    out.append("m")
                    i = j + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }
}
