extension Completions {
    /// The fish completion script: tables of subcommands and valued options generated from the
    /// command tree, a function that walks the command line as the parser does, and one
    /// `complete` line per command, option and argument. It owns everything fish-specific; the
    /// tree and the quoting are shared with the other shells.
    enum Fish {
        static func script() -> String {
            let fixed = [header, subcommandTable(), valuedTable(), callbackHelper, stateWalk + stateEnd, predicates]
            let globalLines = globals.map { complete(nil, option($0)) + "\n" }.joined()
            let start = [
                "complete -c lifesignal -f\n", "# Global options, accepted after any command.\n" + globalLines,
            ]
            return (fixed + start + nodes().compactMap(section)).joined(separator: "\n")
        }

        /// Where the script came from and how to install it.
        private static let header = """
            # fish completion for lifesignal.
            #
            # Generated from lifesignal's command table by 'lifesignal completion fish'; do not
            # edit (run scripts/generate-docs). Install it as
            #   ~/.config/fish/completions/lifesignal.fish

            """

        /// `__lifesignal_subcommands`: each command's visible subcommands.
        private static func subcommandTable() -> String {
            var out = """
                # The visible subcommands of the command at path $argv.
                function __lifesignal_subcommands
                    switch "$argv"

                """
            for node in nodes() where !node.subcommands.isEmpty {
                out += caseEntry(fishQuote(node.key), node.subcommands.map { fishQuote($0.name) })
            }
            return out + "    end\nend\n"
        }

        /// `__lifesignal_valued`: the options of each command that take a value, so that the
        /// walk knows to skip the word after them.
        private static func valuedTable() -> String {
            var out = """
                # The options of the command at path $argv that take a value.
                function __lifesignal_valued
                    switch "$argv"

                """
            for node in nodes() {
                let valued = (node.spec.options + globals).filter(\.takesValue).flatMap(names)
                out += caseEntry(fishQuote(node.key), valued.map(fishQuote))
            }
            out += caseEntry("'*'", globals.filter(\.takesValue).flatMap(names).map(fishQuote))
            return out + "    end\nend\n"
        }

        /// One arm of a `switch` that prints `words`, one a line.
        private static func caseEntry(_ pattern: String, _ words: [String]) -> String {
            "        case \(pattern)\n            printf '%s\\n' \(words.joined(separator: " "))\n"
        }

        /// `__lifesignal_callback`: names the binary prints; fish does the matching.
        private static let callbackHelper = """
            # The names that the binary being completed prints for '__complete $argv[1]' (one a
            # line; they may hold spaces). All are asked for: fish matches them against the token
            # itself (ignoring case, and inside names).
            function __lifesignal_callback
                set -l tokens (commandline -opc)
                set -l home
                # The profile the line names with --home DIR (or --home=DIR), ~ expanded.
                for i in (seq 2 (count $tokens))
                    if test "$tokens[$i]" = --home; and test $i -lt (count $tokens)
                        set home --home (string replace -r '^~' $HOME -- $tokens[(math $i + 1)])
                    else if string match -q -- '--home=*' $tokens[$i]
                        set home --home (string replace -r '^~' $HOME -- (string replace -- '--home=' '' $tokens[$i]))
                    end
                end
                command $tokens[1] $home __complete $argv[1] 2>/dev/null
            end

            """

        /// `__lifesignal_state` begins: the words before the cursor, with options and their
        /// values skipped as the parser skips them.
        private static let stateWalk = """
            # Walks the words before the cursor as the parser does and prints one line:
            # mode|path|arguments, where mode is 'cmd', 'value' (an option's value is next) or
            # 'help' (after 'help', path is the command named so far).
            function __lifesignal_state
                set -l tokens (commandline -opc)
                set -e tokens[1]
                set -l path
                set -l helping 0
                set -l ended 0
                set -l pending 0
                set -l args 0
                for token in $tokens
                    if test $pending = 1
                        set pending 0
                        continue
                    end
                    if test $helping = 1
                        string match -q -- '-*' $token; or set -a path $token
                        continue
                    end
                    if test $ended = 0
                        switch $token
                            case --
                                set ended 1
                                continue
                            case '--*=*'
                                continue
                            case '--*'
                                contains -- $token (__lifesignal_valued $path); and set pending 1
                                continue
                            case '-?*'
                                # Bundled short options: one that takes a value takes the rest
                                # of the word, or the next word when it is the last letter.
                                set -l valued (__lifesignal_valued $path)
                                set -l letters (string split '' -- (string sub -s 2 -- $token))
                                for i in (seq (count $letters))
                                    if contains -- -$letters[$i] $valued
                                        test $i = (count $letters); and set pending 1
                                        break
                                    end
                                end
                                continue
                        end
                    end

            """

        /// `__lifesignal_state` ends: subcommands followed, arguments counted, the state printed.
        private static let stateEnd = """
                    if test $ended = 0 -a $args = 0
                        set -l subs (__lifesignal_subcommands $path)
                        if set -q subs[1]
                            if test $token = help
                                set helping 1
                                continue
                            end
                            if contains -- $token $subs
                                set -a path $token
                                continue
                            end
                        end
                    end
                    set args (math $args + 1)
                end
                set -l mode cmd
                test $pending = 1; and set mode value
                test $helping = 1; and set mode help
                echo "$mode|$path|$args"
            end

            """

        /// The conditions the `complete` lines use, each a question put to `__lifesignal_state`.
        private static let predicates = """
            # The command at path $argv[1] is on the line (its options may follow).
            function __lifesignal_at
                set -l state (__lifesignal_state)
                string match -q -- "cmd|$argv[1]|*" $state; or string match -q -- "value|$argv[1]|*" $state
            end

            # The command at path $argv[1] has no argument yet: a subcommand may come.
            function __lifesignal_needs_command
                test (__lifesignal_state) = "cmd|$argv[1]|0"
            end

            # Argument number $argv[2] of the command at path $argv[1] comes next.
            function __lifesignal_argument
                test (__lifesignal_state) = "cmd|$argv[1]|"(math $argv[2] - 1)
            end

            # 'help' was given and the words after it name the command at path $argv[1].
            function __lifesignal_helping
                test (__lifesignal_state) = "help|$argv[1]|0"
            end

            """

        /// The `complete` lines of one command (with a comment naming it), or nil when it has
        /// nothing to offer.
        private static func section(_ node: Node) -> String? {
            let key = fishQuote(node.key)
            var lines = node.acceptsHelp ? commandLines(node, key: key) : []
            for option in node.spec.options {
                lines.append(complete("__lifesignal_at " + key, self.option(option)))
            }
            for (index, argument) in node.spec.arguments.enumerated() {
                let action = candidates(values(for: argument))
                guard !action.isEmpty else { continue }
                lines.append(
                    complete("__lifesignal_argument \(key) \(index + 1)", action + " -d " + fishQuote(argument.help)))
            }
            guard !lines.isEmpty else { return nil }
            return "# lifesignal\(node.path.isEmpty ? "" : " " + node.key)\n" + lines.joined(separator: "\n") + "\n"
        }

        /// The subcommands and `help` where a subcommand may come, and after `help` the
        /// subcommands again (with the help topics at the top).
        private static func commandLines(_ node: Node, key: String) -> [String] {
            let needsCommand = "__lifesignal_needs_command " + key
            let helping = "__lifesignal_helping " + key
            var lines = node.subcommands.map { word(needsCommand, fishQuote($0.name), $0.abstract) }
            lines.append(word(needsCommand, "help", helpAbstract(atTop: node.path.isEmpty)))
            lines += node.subcommands.map { word(helping, fishQuote($0.name), $0.abstract) }
            if node.path.isEmpty {
                lines += topics.map { word(helping, fishQuote($0.name), $0.abstract) }
            }
            return lines
        }

        /// `complete -c lifesignal -n '<condition>' -a <word> -d '<description>'`.
        private static func word(_ condition: String, _ word: String, _ description: String) -> String {
            complete(condition, " -a \(word) -d \(fishQuote(description))")
        }

        /// A `complete` line for lifesignal, under `condition` when there is one.
        private static func complete(_ condition: String?, _ rest: String) -> String {
            "complete -c lifesignal" + (condition.map { " -n " + fishQuote($0) } ?? "") + rest
        }

        /// ` -s q -l quiet -d '…'`, with `-x -a '…'` for the values of an option that takes one.
        private static func option(_ option: OptionSpec) -> String {
            var out = ""
            if let short = option.short { out += " -s \(fishQuote(String(short)))" }
            out += " -l \(fishQuote(option.long))"
            if option.takesValue { out += " -x" + candidates(values(for: option)) }
            return out + " -d \(fishQuote(option.help))"
        }

        /// ` -a '8h 16h'`, or nothing when there is nothing to offer.
        private static func candidates(_ values: Values) -> String {
            switch values {
            case .none: return ""
            case .words(let words): return " -a " + fishQuote(words.joined(separator: " "))
            // Each ends in ':' or '/', after which fish adds no space.
            case .prefixes(let words): return " -a " + fishQuote(words.joined(separator: " "))
            case .directories: return " -a '(__fish_complete_directories)'"
            case .callback(let source): return " -a " + fishQuote("(__lifesignal_callback \(source.rawValue))")
            }
        }
    }
}
