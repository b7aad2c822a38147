extension Completions {
    /// The zsh completion script: one `_arguments` function per command, generated from the
    /// command tree, plus the fixed helpers that list subcommands, follow `help` and ask the
    /// binary for contact names. It owns everything zsh-specific; the tree and the quoting are
    /// shared with the other shells.
    enum Zsh {
        static func script() -> String {
            ([header, subcommandTable(), commandsHelper, helpHelper, callbackHelper] + nodes().map(function) + [loader])
                .joined(separator: "\n")
        }

        /// Where the script came from and how to install it.
        private static let header = """
            #compdef lifesignal
            # zsh completion for lifesignal.
            #
            # Generated from lifesignal's command table by 'lifesignal completion zsh'; do not
            # edit (run scripts/generate-docs). Install it as _lifesignal in a directory on
            # $fpath, e.g. ~/.zsh/completions with
            #   fpath=(~/.zsh/completions $fpath); autoload -Uz compinit; compinit
            # in ~/.zshrc (remove ~/.zcompdump if an older copy is cached), or source it after
            # compinit.

            """

        /// `__lifesignal_subcommands`: each command's visible subcommands, as `name:abstract`.
        private static func subcommandTable() -> String {
            var out = """
                # Sets reply to the visible subcommands of the command at path $1, as name:abstract.
                __lifesignal_subcommands() {
                    case "$1" in

                """
            for node in nodes() where !node.subcommands.isEmpty {
                out += "    (\(zshPattern(node.key)))\n"
                out += "        reply=(\n"
                for sub in node.subcommands { out += "            \(zshQuote(sub.name + ":" + sub.abstract))\n" }
                out += "        )\n        ;;\n"
            }
            return out + """
                    (*)
                        reply=()
                        ;;
                    esac
                }

                """
        }

        /// `__lifesignal_commands`: a command's subcommands and `help`, for `_describe`.
        private static var commandsHelper: String {
            """
            # Offers the subcommands of the command at path $1, and 'help'.
            __lifesignal_commands() {
                local -a reply commands
                __lifesignal_subcommands "$1"
                commands=("${reply[@]}")
                if [[ -z $1 ]]; then
                    commands+=(\(zshQuote("help:" + helpAbstract(atTop: true))))
                else
                    commands+=(\(zshQuote("help:" + helpAbstract(atTop: false))))
                fi
                _describe -t commands "lifesignal${1:+ $1} subcommand" commands
            }

            """
        }

        /// `__lifesignal_help`: what may follow `help`, with the help topics at the top.
        private static var helpHelper: String {
            """
            # After 'help' given at path $1 (words[1] is 'help'): offers the next command name,
            # and at the top the help topics.
            __lifesignal_help() {
                local base=$1 word
                local -a reply names
                for word in "${(@)words[2,CURRENT-1]}"; do
                    [[ $word == -* ]] || base=${base:+$base }$word
                done
                __lifesignal_subcommands "$base"
                names=("${reply[@]}")
                if [[ -z $base ]]; then
                    names+=(
            \(topics.map { "            " + zshQuote($0.name + ":" + $0.abstract) }.joined(separator: "\n"))
                    )
                fi
                _describe -t commands 'command or help topic' names
            }

            """
        }

        /// `__lifesignal_callback`: names the binary prints, offered through `compadd`.
        private static let callbackHelper = """
            # Offers the names that the binary being completed prints for '__complete $what'
            # (one a line; they may hold spaces). $what is the last argument; the ones before it
            # are compadd options from _arguments. All names are asked for and compadd matches
            # them against the word (ignoring case), so a matcher-list the user set still works.
            __lifesignal_callback() {
                local what=${@[-1]} i dir
                local -a names home line
                # The profile the line names with --home DIR (or --home=DIR), ~ expanded. The
                # whole line: _arguments narrows $words to the subcommand's.
                line=(${(z)BUFFER})
                for ((i = 2; i < ${#line}; i++)); do
                    case $line[i] in
                    (--home) dir=${(Q)line[i+1]} ;;
                    (--home=*) dir=${(Q)line[i]#--home=} ;;
                    (*) continue ;;
                    esac
                    [[ $dir == '~'* ]] && dir=$HOME${dir:1}
                    home=(--home "$dir")
                done
                names=(${(f)"$("${__lifesignal_command:-lifesignal}" "${home[@]}" __complete "$what" 2>/dev/null)"})
                compadd "${@[1,-2]}" -M 'm:{[:lower:][:upper:]}={[:upper:][:lower:]}' -a names
            }

            """

        /// Runs the completion when autoloaded, registers it when sourced.
        private static let loader = """
            if [[ ${funcstack[1]} == _lifesignal ]]; then
                # Autoloaded from $fpath: this file is the body of _lifesignal.
                _lifesignal "$@"
            elif (( $+functions[compdef] )); then
                # Sourced after compinit.
                compdef _lifesignal lifesignal
            else
                print -ru2 -- "lifesignal: load compinit before sourcing this file: autoload -Uz compinit && compinit"
            fi

            """

        /// `_lifesignal_checkin_interval`: a command's function name, from its path.
        private static func functionName(_ path: [String]) -> String {
            (["_lifesignal"] + path.map { name in String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" }) })
                .joined(separator: "_")
        }

        /// One command's function: its `_arguments` call and, for a command with subcommands,
        /// the hand-over to the function of the one named.
        private static func function(_ node: Node) -> String {
            let dispatches = !node.subcommands.isEmpty || node.acceptsHelp
            var out = "\(functionName(node.path))() {\n"
            if node.path.isEmpty {
                // The command as typed, for __lifesignal_callback: _arguments shifts $words below.
                out += "    local __lifesignal_command=${(Q)words[1]}\n"
            }
            if dispatches {
                out += "    local curcontext=$curcontext state state_descr line ret=1\n"
                out += "    local -A opt_args\n"
                out += "    _arguments -s -S -C \\\n"
            } else {
                out += "    _arguments -s -S \\\n"
            }
            out += specs(node, dispatches: dispatches).map { "        " + $0 }.joined(separator: " \\\n")
            return out + (dispatches ? " && ret=0\n" + dispatch(node) : "\n}\n")
        }

        /// The `_arguments` specs of a command: its options and the global ones, then its
        /// arguments, or the two states of a command that dispatches.
        private static func specs(_ node: Node, dispatches: Bool) -> [String] {
            let options = (node.spec.options + globals).map(option)
            // A command with subcommands: the first word names one (or 'help'); the rest is
            // completed by that subcommand's function, with words shifted to start at it.
            if dispatches { return options + ["'(-): :->command'", "'(-)*:: :->arg'"] }
            return options
                + node.spec.arguments.map { argument in
                    let colons = argument.optional ? "::" : ":"
                    return zshQuote(colons + argument.name + ":" + action(values(for: argument)))
                }
        }

        /// The `case $state` after a dispatching `_arguments`: the subcommand (or `help`) to
        /// offer, or the function that completes the rest.
        private static func dispatch(_ node: Node) -> String {
            var lines = [
                "    case $state in", "    (command)", "        __lifesignal_commands \(zshQuote(node.key)) && ret=0",
                "        ;;", "    (arg)", "        case ${words[1]} in",
            ]
            for sub in node.subcommands {
                lines.append("        (\(zshPattern(sub.name))) \(functionName(node.path + [sub.name])) && ret=0 ;;")
            }
            lines += [
                "        (help) __lifesignal_help \(zshQuote(node.key)) && ret=0 ;;", "        esac", "        ;;",
                "    esac", "    return ret", "}",
            ]
            return lines.map { $0 + "\n" }.joined()
        }

        /// An `_arguments` spec: `'(-q --quiet)'{-q,--quiet}'[Print nothing…]'`,
        /// `'--note=[Attach a note…]:text: '`.
        private static func option(_ option: OptionSpec) -> String {
            let help = "[" + zshBracketed(option.help) + "]"
            let value = option.valueName.map { ":" + $0 + ":" + action(values(for: option)) } ?? ""
            if let short = option.short {
                let forms = option.takesValue ? "{-\(short)+,--\(option.long)=}" : "{-\(short),--\(option.long)}"
                return zshQuote("(-\(short) --\(option.long))") + forms + zshQuote(help + value)
            }
            return zshQuote("--" + option.long + (option.takesValue ? "=" : "") + help + value)
        }

        /// The action part of a spec.
        private static func action(_ values: Values) -> String {
            switch values {
            // A lone space: nothing to complete, but the value's name is shown.
            case .none: return " "
            case .words(let words): return "(" + words.joined(separator: " ") + ")"
            // In an _arguments spec a ':' starts another argument: each is escaped.
            case .prefixes(let words):
                return "{compadd -S '' -- "
                    + words.map { $0.replacingEvery(":", with: "\\:") }.joined(separator: " ") + "}"
            case .directories: return "_files -/"
            case .callback(let source): return "__lifesignal_callback " + source.rawValue
            }
        }
    }
}
