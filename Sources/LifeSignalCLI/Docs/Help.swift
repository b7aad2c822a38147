/// Help pages in swift-argument-parser's layout (OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS), generated from the command table and wrapped to the terminal width. It owns
/// the page's layout; no line it makes is wider than the width it is given, down to 40
/// columns (the narrowest `COLUMNS` that lifesignal honours).
enum Help {
    /// Where descriptions start beside their labels.
    static let labelColumn = 26
    /// The narrowest description worth keeping beside the labels. Below it (a terminal under
    /// 50 columns) each label gets its own line and its description is indented under it.
    static let minimumDescriptionWidth = 24
    /// Where descriptions start when they stand under their labels.
    static let stackedIndent = 6

    static func page(for spec: CommandSpec, path: [String], width: Int) -> String {
        var out = wrap("OVERVIEW: " + spec.abstract, width: width, hanging: 10) + "\n"
        if let discussion = spec.discussion {
            out += "\n" + paragraphs(discussion, width: width) + "\n"
        }
        out += "\n" + wrap("USAGE: " + spec.usage(path: path), width: width, hanging: 7) + "\n"
        out += section("ARGUMENTS", spec.arguments.map { ("<\($0.name)>", $0.help) }, width: width)
        out += section("OPTIONS", spec.options.map { ($0.label, $0.help) }, width: width)
        out += section("GLOBAL OPTIONS", CommandTable.globalOptions.map { ($0.label, $0.help) }, width: width)
        if !spec.examples.isEmpty {
            out +=
                "\nEXAMPLES:\n"
                + spec.examples.flatMap { example("  $ " + $0, width: width) }.map { $0 + "\n" }.joined()
        }
        if !spec.visibleSubcommands.isEmpty {
            out += section("SUBCOMMANDS", spec.visibleSubcommands.map { ($0.name, $0.abstract) }, width: width)
            let prefix = (["lifesignal"] + path).joined(separator: " ")
            out += "\n" + note("See '\(prefix) help <subcommand>' for detailed help.", width: width)
        }
        if path.isEmpty {
            out += section("HELP TOPICS", CommandTable.helpTopics.map { ($0.name, $0.abstract) }, width: width)
            out += "\n" + note("See 'lifesignal help <topic>'.", width: width)
        }
        return out
    }

    /// `\nOPTIONS:\n` and an entry for each item; nothing when there are no items.
    static func section(_ title: String, _ items: [(label: String, help: String)], width: Int) -> String {
        guard !items.isEmpty else { return "" }
        return "\n\(title):\n" + items.map { entry($0.label, $0.help, width: width) }.joined()
    }

    /// A line of advice under a list, indented as the entries are.
    static func note(_ text: String, width: Int) -> String {
        lines(text, width: width - 2).map { "  " + $0 + "\n" }.joined()
    }

    /// `  --note <text>           Attach a note…`, the description wrapped at the label
    /// column; on a narrow terminal the description stands under the label instead.
    static func entry(_ label: String, _ help: String, width: Int) -> String {
        let entry =
            width - labelColumn >= minimumDescriptionWidth
            ? besideEntry(label, help, width: width) : stackedEntry(label, help, width: width)
        return entry.joined(separator: "\n") + "\n"
    }

    /// The description beside the label; a label that reaches the column has a line of its
    /// own, with the description starting under it.
    private static func besideEntry(_ label: String, _ help: String, width: Int) -> [String] {
        let pad = String(repeating: " ", count: labelColumn)
        let description = lines(help, width: width - labelColumn)
        let heads = labelLines(label, width: width)
        var out = heads.dropLast()
        let head = heads.last ?? ""
        let first = description.first ?? ""
        if heads.count == 1, head.count < labelColumn - 1 {
            out.append(head + String(repeating: " ", count: labelColumn - head.count) + first)
        } else {
            out += [head, pad + first]
        }
        return out + description.dropFirst().map { pad + $0 }
    }

    /// The label on its own line(s), the description indented under it.
    private static func stackedEntry(_ label: String, _ help: String, width: Int) -> [String] {
        let pad = String(repeating: " ", count: stackedIndent)
        let description = help.isEmpty ? [] : lines(help, width: width - stackedIndent).map { pad + $0 }
        return labelLines(label, width: width) + description
    }

    /// `  --note <text>`, broken at its spaces (and inside a word too long for the line) when
    /// it is wider than the terminal; continuation lines are indented a little further.
    private static func labelLines(_ label: String, width: Int) -> [String] {
        lines(label, width: width - 2, continuationWidth: width - 4).enumerated().map {
            ($0.offset == 0 ? "  " : "    ") + $0.element
        }
    }

    /// Paragraphs separated by blank lines are wrapped; lines that start with spaces are
    /// examples and stay as written unless they are wider than the terminal.
    static func paragraphs(_ text: String, width: Int) -> String {
        var out: [String] = []
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty {
                out.append(contentsOf: lines(paragraph.joined(separator: " "), width: width))
                paragraph = []
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                flush()
                out.append("")
            } else if line.hasPrefix(" ") {
                flush()
                out.append(contentsOf: example(line, width: width))
            } else {
                paragraph.append(String(line))
            }
        }
        flush()
        return out.joined(separator: "\n")
    }

    /// An example line as written or, when wider than the terminal, wrapped under its own
    /// indentation with continuation lines indented two more, so they read as one command.
    private static func example(_ line: Substring, width: Int) -> [String] {
        guard line.count > width else { return [String(line)] }
        let indent = min(line.prefix { $0 == " " }.count, max(0, width / 2))
        let text = String(line.dropFirst(indent))
        return lines(text, width: width - indent, continuationWidth: width - indent - 2).enumerated().map {
            String(repeating: " ", count: $0.offset == 0 ? indent : indent + 2) + $0.element
        }
    }

    /// Wraps `text`, continuation lines indented by `hanging` spaces.
    static func wrap(_ text: String, width: Int, hanging: Int) -> String {
        let pad = String(repeating: " ", count: max(0, hanging))
        let wrapped = lines(text, width: width, continuationWidth: width - hanging)
        return wrapped.enumerated().map { $0.offset == 0 ? $0.element : pad + $0.element }.joined(separator: "\n")
    }

    /// Greedy word wrap into lines of at most `width` characters (`continuationWidth` after
    /// the first). A word too long for a line is broken, so that no line is ever wider.
    static func lines(_ text: String, width: Int, continuationWidth: Int? = nil) -> [String] {
        let words = Wrapping.breakingLongWords(text, limit: min(width, continuationWidth ?? width))
        let lines = Wrapping.fill(words, width: width, continuationWidth: continuationWidth, measure: \.count)
        return lines.isEmpty ? [""] : lines
    }
}

/// A page of help that is not a command: `lifesignal help exit-codes`.
struct HelpTopic: Sendable {
    var name: String
    var abstract: String
    var text: @Sendable () -> String
}
