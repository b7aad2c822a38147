import LifeSignalApp
import LifeSignalCore

/// The manual page `man/lifesignal.1`, in mdoc(7), generated from the command table: the
/// synopsis, every command with its options and arguments, the global options, the
/// environment and the exit statuses come from `CommandTable` and `ExitCode`, so the page
/// cannot drift from `--help`. This type owns the page's order and its generated sections;
/// the prose around them (description, files, examples, shell completion) is in
/// `ManPageProse.swift` and the mdoc text rules in `Mdoc`. The committed page is regenerated
/// by `scripts/generate-docs` (through the hidden `lifesignal __man`), and a test fails when
/// it drifts.
///
/// It must stay clean under `mandoc -T lint -W warning`.
enum ManPage {
    /// The page's date. Fixed, so that regenerating an unchanged page changes nothing;
    /// move it forward when the page's content changes in a way worth dating.
    static let date = "November 22, 2026"

    static func render() -> String {
        [
            title(), synopsis(), descriptionSection(), commands(), globalOptions(), channels(), webhooks(),
            environment(),
            files, exitStatus(), examples, shellCompletion, seeAlso,
        ].joined()
    }

    // MARK: - Generated sections

    /// The prologue and NAME, whose description is the root abstract.
    static func title() -> String {
        """
        .\\" Generated from lifesignal's command table by 'lifesignal __man'; do not edit.
        .\\" Run scripts/generate-docs to regenerate it.
        .Dd \(date)
        .Dt LIFESIGNAL 1
        .Os
        .Sh NAME
        .Nm lifesignal
        .Nd \(Mdoc.macroWords(lowercasingFirst(description(of: CommandTable.root))))

        """
    }

    /// One line per command, as in `--help`'s USAGE lines.
    static func synopsis() -> String {
        var out = ".Sh SYNOPSIS\n"
        out += ".Nm\n.Op Ar global-options\n.Ar command\n.Op Ar options\n.Op Ar arguments\n"
        for node in Completions.nodes().dropFirst() {
            out += ".Nm\n" + usageLines(node)
        }
        out += ".Nm\n.Cm help\n.Op Ar command | topic\n"
        out += ".Nm\n.Fl -version\n"
        return out
    }

    /// DESCRIPTION: the root abstract and discussion, inside the written prose.
    static func descriptionSection() -> String {
        var out = ".Sh DESCRIPTION\n"
        out += Mdoc.text(CommandTable.root.abstract)
        out += descriptionIntro
        if let discussion = CommandTable.root.discussion {
            out += ".Pp\n" + Mdoc.body(discussion)
        }
        return out + descriptionOutro
    }

    /// Every visible command and subcommand with its abstract, discussion, arguments and
    /// options, depth first, then `help` and its topics.
    static func commands() -> String {
        var out = ".Sh COMMANDS\n.Bl -tag -width Ds\n"
        for node in Completions.nodes().dropFirst() { out += command(node) }
        out += ".It Cm help Op Ar command | topic\n"
        out += "Show help for a command (the same as its\n.Fl -help )\nor one of these topics:\n"
        out += tagList(CommandTable.helpTopics.map { (".It Cm \(Mdoc.macroWords($0.name))", $0.abstract) })
        out += ".El\n"
        return out
    }

    /// One command's entry in COMMANDS.
    static func command(_ node: Completions.Node) -> String {
        var out = ".It Cm \(Mdoc.macroWords(node.key))" + itemTail(node) + "\n"
        out += Mdoc.text(node.spec.abstract)
        if let discussion = node.spec.discussion { out += ".Pp\n" + Mdoc.body(discussion) }
        if !node.spec.arguments.isEmpty {
            out += tagList(node.spec.arguments.map { (".It Ar \(Mdoc.macroWords($0.name))", $0.help) })
        }
        if !node.spec.options.isEmpty {
            out += tagList(node.spec.options.map { (".It " + optionHead($0), $0.help) })
        }
        if !node.spec.examples.isEmpty {
            out += ".Pp\nFor example:\n.Bd -literal -offset indent\n"
            out += node.spec.examples.map { Mdoc.literalLine($0) + "\n" }.joined() + ".Ed\n"
        }
        if !node.subcommands.isEmpty {
            out += ".Pp\nSubcommands:\n"
            out +=
                node.subcommands.map { ".Cm \(Mdoc.macroWords($0.name))" }.joined(separator: " ,\n")
                + " ;\nsee below.\n"
        }
        return out
    }

    static func globalOptions() -> String {
        ".Sh GLOBAL OPTIONS\n" + tagList(CommandTable.globalOptions.map { (".It " + optionHead($0), $0.help) })
    }

    static func environment() -> String {
        ".Sh ENVIRONMENT\n" + tagList(CommandTable.environment.map { (".It Ev \($0.name)", $0.help) })
    }

    /// The channel contract: what each kind runs, what it gets, what its exit status means.
    static func channels() -> String {
        let retries = DeliveryState.backoff.map(\.short).joined(separator: ", ")
        let schemes: [(String, String)] = [
            (".It Cm desktop\\&:", "notify-send, critical urgency for alerts and missed check-ins."),
            (".It Cm mailto\\&: Ns Ar address", "An RFC 5322 message through sendmail -t (msmtp or any sendmail)."),
            (".It Cm ntfy\\&: Ns Ar url", "curl, with ntfy's Title, Priority and Tags headers."),
            (".It Cm https:// Ns Ar …", "curl, POSTing the document described under WEBHOOKS."),
            (".It Cm apprise\\&: Ns Ar url", "The apprise command, for any Apprise URL."),
            (
                ".It Cm exec\\&: Ns Ar command",
                "The command, run by /bin/sh -c, with the WEBHOOKS document on standard input."
            ),
        ]
        let intro = """
            .Sh CHANNELS
            What leaves the machine goes through a channel.
            A channel runs in its own session with an allow-listed environment
            .Po
            \(App.channelPassedThrough.joined(separator: ",\n")), when set
            .Pc
            and the variables below; nothing is ever spliced into a command line.
            Exit status 0 means delivered.
            Anything else, or running longer than \(Int(App.channelTimeout)) seconds
            (the process group is then sent SIGTERM, then SIGKILL), is a failure,
            retried on later runs after \(retries), then every \(DeliveryState.backoff.last?.short ?? "4h").
            Delivery is at least once: a crash between sending and recording sends again,
            with the same id.

            """
        return intro + tagList(schemes) + ".Pp\nThe variables:\n"
            + tagList(App.channelVariables.map { (".It Ev \($0.name)", $0.meaning + ".") })
    }

    /// The document a webhook receives (and an exec: command reads on stdin), field by field,
    /// from the same description its JSON Schema file is generated from.
    static func webhooks() -> String {
        let intro = """
            .Sh WEBHOOKS
            An https:// channel receives a POST with one JSON object;
            an exec: command reads the same object on standard input.
            Its schema is versioned
            .Pq Qq \(MessageDocument.schema)
            and published as a JSON Schema file,
            .Pa lifesignal-notification.schema.json ,
            beside this page.
            Times are ISO 8601 with the offset of the sending machine's zone.
            Every field is always present; phone, emergencyNote and follows may be null.

            """
        return intro
            + tagList(
                MessageDocument.fields.map {
                    (".It Cm \($0.name)", "(\($0.type)\($0.nullable ? " or null" : "")) \($0.about)")
                })
    }

    static func exitStatus() -> String {
        let intro = """
            .Sh EXIT STATUS
            Small codes answer a question a script asks; codes 64 to 78 are errors,
            numbered as in
            .Xr sysexits 3 .

            """
        return intro + tagList(ExitCode.allCases.map { (".It \($0.rawValue)", $0.meaning) })
    }

    // MARK: - Pieces

    /// `.Bl -tag -width Ds`, an `.It` line and its text for each item, `.El`.
    static func tagList(_ items: [(head: String, text: String)]) -> String {
        ".Bl -tag -width Ds\n" + items.map { $0.head + "\n" + Mdoc.text($0.text) }.joined() + ".El\n"
    }

    /// The abstract without its final full stop, as `.Nd` wants it.
    static func description(of spec: CommandSpec) -> String {
        var abstract = spec.abstract
        while abstract.hasSuffix(".") { abstract.removeLast() }
        return abstract
    }

    /// `.Nd` text starts in lower case, by convention.
    static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// `.Cm checkin interval` then `.Op Ar duration` lines: a command's SYNOPSIS entry.
    static func usageLines(_ node: Completions.Node) -> String {
        var out = ".Cm \(Mdoc.macroWords(node.key))\n"
        for option in node.spec.options {
            out += ".Op " + optionHead(option) + "\n"
        }
        for argument in node.spec.arguments {
            out += (argument.optional ? ".Op Ar " : ".Ar ") + Mdoc.macroWords(argument.name) + "\n"
        }
        if !node.subcommands.isEmpty {
            out += (node.spec.run == nil ? ".Ar subcommand\n" : ".Op Ar subcommand\n")
        }
        return out
    }

    /// The rest of a command's `.It` line: its arguments (options are listed below it).
    static func itemTail(_ node: Completions.Node) -> String {
        node.spec.arguments.map { " " + ($0.optional ? "Op " : "") + "Ar \(Mdoc.macroWords($0.name))" }.joined()
    }

    /// `Fl q , Fl -quiet` or `Fl -note Ar text`.
    static func optionHead(_ option: OptionSpec) -> String {
        var out = ""
        if let short = option.short { out += "Fl \(short) , " }
        out += "Fl -\(option.long)"
        if let valueName = option.valueName { out += " Ar \(Mdoc.macroWords(valueName))" }
        return out
    }
}
