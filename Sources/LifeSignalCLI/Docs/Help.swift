/// Help pages in swift-argument-parser's layout (OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS), generated from the command table and wrapped to the terminal width.
enum Help {
    static let labelColumn = 26

    static func page(for spec: CommandSpec, path: [String], width: Int) -> String {
        var out = ""
        out += wrap("OVERVIEW: " + spec.abstract, width: width, indent: 0, hanging: 10) + "\n"
        if let discussion = spec.discussion {
            out += "\n" + paragraphs(discussion, width: width) + "\n"
        }
        out += "\n" + wrap("USAGE: " + spec.usage(path: path), width: width, indent: 0, hanging: 7) + "\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments { out += entry("<\(argument.name)>", argument.help, width: width) }
        }
        if !spec.options.isEmpty {
            out += "\nOPTIONS:\n"
            for option in spec.options { out += entry(option.label, option.help, width: width) }
        }
        out += "\nGLOBAL OPTIONS:\n"
        for option in CommandTable.globalOptions { out += entry(option.label, option.help, width: width) }
        if !spec.visibleSubcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for sub in spec.visibleSubcommands { out += entry(sub.name, sub.abstract, width: width) }
            let prefix = (["lifesignal"] + path).joined(separator: " ")
            out += "\n  See '\(prefix) help <subcommand>' for detailed help.\n"
        }
        if path.isEmpty {
            out += "\nHELP TOPICS:\n"
            for topic in CommandTable.helpTopics { out += entry(topic.name, topic.abstract, width: width) }
            out += "\n  See 'lifesignal help <topic>'.\n"
        }
        return out
    }

    /// `  --note <text>           Attach a note…`, the description wrapped at the label column.
    static func entry(_ label: String, _ help: String, width: Int) -> String {
        let pad = String(repeating: " ", count: labelColumn)
        let lines = lines(help, width: max(20, width - labelColumn))
        let head = "  " + label
        var out =
            head.count >= labelColumn - 1
            ? head + "\n" + pad + (lines.first ?? "")
            : head + String(repeating: " ", count: labelColumn - head.count) + (lines.first ?? "")
        for line in lines.dropFirst() { out += "\n" + pad + line }
        return out + "\n"
    }

    /// Paragraphs separated by blank lines are wrapped; lines that start with spaces are
    /// examples and stay as written.
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
                out.append(String(line))
            } else {
                paragraph.append(String(line))
            }
        }
        flush()
        return out.joined(separator: "\n")
    }

    /// Wraps `text`, continuation lines indented by `hanging` spaces.
    static func wrap(_ text: String, width: Int, indent: Int = 0, hanging: Int) -> String {
        let pad = String(repeating: " ", count: hanging)
        let wrapped = lines(text, width: width, continuationWidth: width - hanging)
        return wrapped.enumerated().map { $0.offset == 0 ? $0.element : pad + $0.element }.joined(separator: "\n")
    }

    /// Greedy word wrap into lines of at most `width` characters (longer words stand alone).
    static func lines(_ text: String, width: Int, continuationWidth: Int? = nil) -> [String] {
        let lines = Wrapping.fill(
            text.split(separator: " "), width: width, continuationWidth: continuationWidth, measure: \.count)
        return lines.isEmpty ? [""] : lines
    }
}

/// A page of help that is not a command: `lifesignal help exit-codes`.
struct HelpTopic: Sendable {
    var name: String
    var abstract: String
    var text: @Sendable () -> String
}
