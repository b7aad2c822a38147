import LifeSignalCore

/// Shell completion scripts for bash, zsh and fish, generated from `CommandTable.root` so that
/// they offer exactly the commands, options and values the parser accepts. The scripts are
/// committed under `completions/` (see `scripts/generate-docs`); a test fails when they drift.
///
/// Every script follows the parser's rules: global options are accepted after any command,
/// `--opt value` and `--opt=value` both work, bundled short flags (`-qh`), `--` ends options,
/// `help` may follow any command that has subcommands and then takes command names (and, at
/// the top, help topics). Hidden commands are never offered.
enum Completions {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    // MARK: - The tree, as the scripts see it

    /// One visible command and the path of names that leads to it (`["checkin", "interval"]`).
    struct Node {
        var path: [String]
        var spec: CommandSpec

        /// The path as the scripts key it: `checkin interval`, empty for the top.
        var key: String { path.joined(separator: " ") }
        var subcommands: [CommandSpec] { spec.visibleSubcommands }
        /// `help` may follow a command that has subcommands (the parser's rule).
        var acceptsHelp: Bool { !spec.subcommands.isEmpty }
    }

    /// Every visible command, depth first, the top (`lifesignal` itself) first.
    static func nodes(_ spec: CommandSpec = CommandTable.root, path: [String] = []) -> [Node] {
        var result = [Node(path: path, spec: spec)]
        for sub in spec.visibleSubcommands { result += nodes(sub, path: path + [sub.name]) }
        return result
    }

    /// What `help` is described as where it is offered.
    static func helpAbstract(atTop: Bool) -> String {
        atTop ? "Show help for a command or a help topic." : "Show help for a subcommand."
    }

    /// The candidates for an option's or argument's value.
    ///
    /// Each shell has one function where a `Values` case becomes shell code — `bashAction`,
    /// `zshAction` and `fishValues` — and the switch there makes the compiler point at all
    /// three.
    enum Values: Equatable {
        /// Free text (a note, a name, a number, a time): nothing to offer.
        case none
        case words([String])
        case directories
        /// Known only at run time (contact names): the script asks the binary being completed,
        /// `lifesignal __complete <source> [<prefix>]`, which prints one name per line.
        case callback(CompletionSource)
    }

    static func values(for kind: ValueKind) -> Values {
        switch kind {
        case .choice(let choices): return .words(choices)
        // Every duration option today is a check-in interval; the presets are the app's.
        case .duration: return .words(Rules.intervalPresets.map(word))
        case .durationOrOff: return .words(Rules.reminderPresets.map(word) + ["off"])
        case .directory: return .directories
        // A ping is named by its id or by the person; the names are what one types.
        case .contact, .ping: return .callback(.contacts)
        case .text, .prose, .inviteCode, .codeOrName, .time, .count, .channel, .email, .phone: return .none
        }
    }

    /// An argument's candidates: those of its kind, narrowed to the contacts it names.
    static func values(for argument: ArgumentSpec) -> Values {
        if let source = argument.completion, case .callback = values(for: argument.kind) { return .callback(source) }
        return values(for: argument.kind)
    }

    /// `24h`, as typed on a command line (no spaces).
    private static func word(_ span: TimeSpan) -> String { span.description.filter { $0 != " " } }

    private static var topics: [HelpTopic] { CommandTable.helpTopics }
    private static var globals: [OptionSpec] { CommandTable.globalOptions }

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

    // MARK: - bash

    static func bash() -> String {
        var out = """
            # bash completion for lifesignal                           -*- shell-script -*-
            #
            # Generated from lifesignal's command table by 'lifesignal completion bash'; do not
            # edit (run scripts/generate-docs). Install it as
            #   ~/.local/share/bash-completion/completions/lifesignal
            # where bash-completion loads it the first time you complete lifesignal, or
            # source it from ~/.bashrc. Works with and without bash-completion.

            # Describes the command at path $1 ('' for lifesignal itself, 'checkin interval'):
            # subs, its subcommands; options, every option it accepts; valued, the options
            # that take a value; nargs, how many arguments it takes.
            _lifesignal_node() {
                case "$1" in

            """
        for node in nodes() {
            let own = node.spec.options
            let all = own + globals
            out += "    \(bashPattern(node.key)))\n"
            out += "        subs=(\(node.subcommands.map { shellWord($0.name) }.joined(separator: " ")))\n"
            out += "        options=(\(all.flatMap(names).map(shellWord).joined(separator: " ")))\n"
            out += "        valued=(\(all.filter(\.takesValue).flatMap(names).map(shellWord).joined(separator: " ")))\n"
            out += "        nargs=\(node.spec.arguments.count)\n"
            out += "        ;;\n"
        }
        out += """
                *)
                    subs=()
                    options=(\(globals.flatMap(names).map(shellWord).joined(separator: " ")))
                    valued=(\(globals.filter(\.takesValue).flatMap(names).map(shellWord).joined(separator: " ")))
                    nargs=0
                    ;;
                esac
            }

            # Adds to COMPREPLY the values of option $2 ('--home', or '@1' for the first
            # argument) of the command at path $1 that start with $3.
            _lifesignal_values() {
                case "$1|$2" in

            """
        for node in nodes() {
            for option in node.spec.options where option.takesValue {
                guard let action = bashAction(option.kind.map(values)) else { continue }
                let patterns = names(option).map { bashPattern(node.key + "|" + $0) }
                out += "    \(patterns.joined(separator: " | ")))\n        \(action)\n        ;;\n"
            }
            for (index, argument) in node.spec.arguments.enumerated() {
                guard let action = bashAction(values(for: argument)) else { continue }
                out += "    \(bashPattern(node.key + "|@\(index + 1)")))\n        \(action)\n        ;;\n"
            }
        }
        for option in globals where option.takesValue {
            guard let action = bashAction(option.kind.map(values)) else { continue }
            let patterns = names(option).map { "*" + bashPattern("|" + $0) }
            out += "    \(patterns.joined(separator: " | ")))\n        \(action)\n        ;;\n"
        }
        out += """
                esac
            }

            # Adds to COMPREPLY each of $2… that starts with $1.
            _lifesignal_words() {
                local word=$1 candidate
                shift
                for candidate in "$@"; do
                    [[ $candidate == "$word"* ]] && COMPREPLY+=("$candidate")
                done
                return 0
            }

            # Adds to COMPREPLY the directories that start with $1.
            _lifesignal_directories() {
                local line
                while IFS= read -r line; do
                    COMPREPLY+=("$line")
                done < <(compgen -d -- "$1")
                # bash 4 and up: quote and mark them as file names ('/' after a directory).
                if type compopt &>/dev/null; then
                    compopt -o filenames 2>/dev/null
                fi
                return 0
            }

            # Adds to COMPREPLY the names that the binary being completed prints for
            # '__complete $1 <prefix>' (one a line; they may hold spaces), where $2 is the word
            # typed so far, perhaps quoted ('Sam L, "Sam L or Sam\\ L).
            _lifesignal_callback() {
                local cur=$2 prefix="" line quoted i
                case $cur in
                \\'* | \\"*)
                    prefix=${cur:1}
                    ;;
                *)
                    for ((i = 0; i < ${#cur}; i++)); do
                        [[ ${cur:i:1} == "\\\\" ]] && ((i++))
                        prefix+=${cur:i:1}
                    done
                    ;;
                esac
                while IFS= read -r line; do
                    [[ -n $line ]] || continue
                    if [[ $cur == [\\'\\"]* ]]; then
                        # Inside the quote the user opened, readline inserts the name as it is.
                        COMPREPLY+=("$line")
                    else
                        printf -v quoted '%q' "$line"
                        COMPREPLY+=("$quoted")
                    fi
                done < <("${COMP_WORDS[0]}" __complete "$1" -- ${prefix:+"$prefix"} 2>/dev/null)
                return 0
            }

            _lifesignal() {
                local -a words=() subs=() options=() valued=()
                local i j word cword=0 glue=0 nargs=0
                # Put '--option=value' back together: bash splits words at '=' (COMP_WORDBREAKS).
                for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
                    word=${COMP_WORDS[i]}
                    if ((glue)); then
                        words[${#words[@]} - 1]+=$word
                        glue=0
                    elif [[ $word == "=" && ${#words[@]} -gt 0 && ${words[${#words[@]} - 1]} == --?* && ${words[${#words[@]} - 1]} != *=* ]]; then
                        words[${#words[@]} - 1]+="="
                        ((i < COMP_CWORD)) && glue=1
                    else
                        words+=("$word")
                    fi
                    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
                done
                local cur=${words[cword]}

                # Walk the words before the cursor as the parser does.
                local path="" helping=0 helpPath="" ended=0 args=0 pending=""
                _lifesignal_node ""
                for ((i = 1; i < cword; i++)); do
                    word=${words[i]}
                    if [[ -n $pending ]]; then
                        pending=""
                        continue
                    fi
                    if ((helping)); then
                        # After 'help' the words name a command; options are ignored.
                        [[ $word == -* ]] || helpPath="${helpPath:+$helpPath }$word"
                        continue
                    fi
                    if ((!ended)); then
                        case $word in
                        --)
                            ended=1
                            continue
                            ;;
                        --*=*)
                            continue
                            ;;
                        --*)
                            _lifesignal_has "$word" "${valued[@]}" && pending=$word
                            continue
                            ;;
                        -?*)
                            # Bundled short options: one that takes a value takes the rest of
                            # the word, or the next word when it is the last letter.
                            for ((j = 1; j < ${#word}; j++)); do
                                if _lifesignal_has "-${word:j:1}" "${valued[@]}"; then
                                    ((j == ${#word} - 1)) && pending="-${word:j:1}"
                                    break
                                fi
                            done
                            continue
                            ;;
                        esac
                    fi
                    if ((!ended && args == 0 && ${#subs[@]} > 0)); then
                        if [[ $word == help ]]; then
                            helping=1
                            helpPath=$path
                            continue
                        fi
                        if _lifesignal_has "$word" "${subs[@]}"; then
                            path="${path:+$path }$word"
                            _lifesignal_node "$path"
                            continue
                        fi
                    fi
                    args=$((args + 1))
                done

                COMPREPLY=()
                if ((helping)); then
                    [[ $cur == -* ]] && return 0
                    _lifesignal_node "$helpPath"
                    _lifesignal_words "$cur" "${subs[@]}"
                    if [[ -z $helpPath ]]; then
                        _lifesignal_words "$cur" \(topics.map { shellWord($0.name) }.joined(separator: " "))
                    fi
                    return 0
                fi
                if [[ -n $pending ]]; then
                    _lifesignal_values "$path" "$pending" "$cur"
                    return 0
                fi
                if ((!ended)) && [[ $cur == --?*=* ]]; then
                    local option=${cur%%=*}
                    _lifesignal_values "$path" "$option" "${cur#*=}"
                    # Without '=' in COMP_WORDBREAKS the whole '--option=value' is replaced.
                    if [[ $COMP_WORDBREAKS != *=* ]]; then
                        for ((i = 0; i < ${#COMPREPLY[@]}; i++)); do
                            COMPREPLY[i]="$option=${COMPREPLY[i]}"
                        done
                    fi
                    return 0
                fi
                if ((!ended)) && [[ $cur == -* ]]; then
                    _lifesignal_words "$cur" "${options[@]}"
                    return 0
                fi
                if ((!ended && args == 0 && ${#subs[@]} > 0)); then
                    _lifesignal_words "$cur" "${subs[@]}" help
                fi
                if ((args < nargs)); then
                    _lifesignal_values "$path" "@$((args + 1))" "$cur"
                fi
                return 0
            }

            # Succeeds when $1 is one of $2….
            _lifesignal_has() {
                local word=$1 candidate
                shift
                for candidate in "$@"; do
                    [[ $candidate == "$word" ]] && return 0
                done
                return 1
            }

            complete -F _lifesignal lifesignal

            """
        return out
    }

    /// `--note` and `-n` for an option that has both.
    private static func names(_ option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// A `case` pattern matching `text` literally.
    private static func bashPattern(_ text: String) -> String { "\"" + text + "\"" }

    /// The shell code that offers a value's candidates (`$3` is the word typed so far).
    private static func bashAction(_ values: Values?) -> String? {
        guard let values else { return nil }
        switch values {
        case .none: return nil
        case .words(let words): return "_lifesignal_words \"$3\" " + words.map(shellWord).joined(separator: " ")
        case .directories: return "_lifesignal_directories \"$3\""
        case .callback(let source): return "_lifesignal_callback \(shellWord(source.rawValue)) \"$3\""
        }
    }

    // MARK: - zsh

    static func zsh() -> String {
        var out = """
            #compdef lifesignal
            # zsh completion for lifesignal.
            #
            # Generated from lifesignal's command table by 'lifesignal completion zsh'; do not
            # edit (run scripts/generate-docs). Install it as _lifesignal in a directory on
            # $fpath, e.g. ~/.zsh/completions with
            #   fpath=(~/.zsh/completions $fpath); autoload -Uz compinit; compinit
            # in ~/.zshrc (remove ~/.zcompdump if an older copy is cached), or source it after
            # compinit.

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
        out += """
                (*)
                    reply=()
                    ;;
                esac
            }

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

            # Offers the names that the binary being completed prints for '__complete $what'
            # (one a line; they may hold spaces). $what is the last argument; the ones before it
            # are compadd options from _arguments. All names are asked for and compadd matches
            # them against the word (ignoring case), so a matcher-list the user set still works.
            __lifesignal_callback() {
                local what=${@[-1]}
                local -a names
                names=(${(f)"$("${__lifesignal_command:-lifesignal}" __complete "$what" 2>/dev/null)"})
                compadd "${@[1,-2]}" -M 'm:{[:lower:][:upper:]}={[:upper:][:lower:]}' -a names
            }

            """
        for node in nodes() {
            out += "\n" + zshFunction(node)
        }
        out += """

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
        return out
    }

    private static func zshFunctionName(_ path: [String]) -> String {
        (["_lifesignal"] + path.map { name in String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" }) }).joined(
            separator: "_")
    }

    private static func zshFunction(_ node: Node) -> String {
        var specs = (node.spec.options + globals).map(zshOption)
        let dispatches = !node.subcommands.isEmpty || node.acceptsHelp
        if dispatches {
            // A command with subcommands: the first word names one (or 'help'); the rest is
            // completed by that subcommand's function, with words shifted to start at it.
            specs += ["'(-): :->command'", "'(-)*:: :->arg'"]
        } else {
            for argument in node.spec.arguments {
                let colons = argument.optional ? "::" : ":"
                specs.append(zshQuote(colons + argument.name + ":" + zshAction(values(for: argument))))
            }
        }
        var out = "\(zshFunctionName(node.path))() {\n"
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
        out += specs.map { "        " + $0 }.joined(separator: " \\\n")
        guard dispatches else { return out + "\n}\n" }
        out += " && ret=0\n"
        out += "    case $state in\n"
        out += "    (command)\n"
        out += "        __lifesignal_commands \(zshQuote(node.key)) && ret=0\n"
        out += "        ;;\n"
        out += "    (arg)\n"
        out += "        case ${words[1]} in\n"
        for sub in node.subcommands {
            out += "        (\(zshPattern(sub.name))) \(zshFunctionName(node.path + [sub.name])) && ret=0 ;;\n"
        }
        out += "        (help) __lifesignal_help \(zshQuote(node.key)) && ret=0 ;;\n"
        out += "        esac\n"
        out += "        ;;\n"
        out += "    esac\n"
        out += "    return ret\n}\n"
        return out
    }

    /// An `_arguments` spec: `'(-q --quiet)'{-q,--quiet}'[Print nothing…]'`,
    /// `'--note=[Attach a note…]:text: '`.
    private static func zshOption(_ option: OptionSpec) -> String {
        let help = "[" + zshBracketed(option.help) + "]"
        var value = ""
        if let name = option.valueName { value = ":" + name + ":" + zshAction(option.kind.map(values)) }
        if let short = option.short {
            let forms = option.takesValue ? "{-\(short)+,--\(option.long)=}" : "{-\(short),--\(option.long)}"
            return zshQuote("(-\(short) --\(option.long))") + forms + zshQuote(help + value)
        }
        return zshQuote("--" + option.long + (option.takesValue ? "=" : "") + help + value)
    }

    private static func zshAction(_ values: Values?) -> String {
        guard let values else { return " " }
        switch values {
        // A lone space: nothing to complete, but the value's name is shown.
        case .none: return " "
        case .words(let words): return "(" + words.joined(separator: " ") + ")"
        case .directories: return "_files -/"
        case .callback(let source): return "__lifesignal_callback " + source.rawValue
        }
    }

    /// Text inside an `_arguments` `[…]` explanation.
    private static func zshBracketed(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "[" || character == "]" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private static func zshPattern(_ text: String) -> String { text.isEmpty ? "''" : zshQuote(text) }

    /// Always single-quoted, for zsh.
    private static func zshQuote(_ text: String) -> String { "'" + text.replacingEvery("'", with: "'\\''") + "'" }

    // MARK: - fish

    static func fish() -> String {
        var out = """
            # fish completion for lifesignal.
            #
            # Generated from lifesignal's command table by 'lifesignal completion fish'; do not
            # edit (run scripts/generate-docs). Install it as
            #   ~/.config/fish/completions/lifesignal.fish

            # The visible subcommands of the command at path $argv.
            function __lifesignal_subcommands
                switch "$argv"

            """
        for node in nodes() where !node.subcommands.isEmpty {
            out += "        case \(fishQuote(node.key))\n"
            out += "            printf '%s\\n' \(node.subcommands.map { fishQuote($0.name) }.joined(separator: " "))\n"
        }
        out += """
                end
            end

            # The options of the command at path $argv that take a value.
            function __lifesignal_valued
                switch "$argv"

            """
        for node in nodes() {
            let valued = (node.spec.options + globals).filter(\.takesValue).flatMap(names)
            out += "        case \(fishQuote(node.key))\n"
            out += "            printf '%s\\n' \(valued.map(fishQuote).joined(separator: " "))\n"
        }
        out += """
                    case '*'
                        printf '%s\\n' \(globals.filter(\.takesValue).flatMap(names).map(fishQuote).joined(separator: " "))
                end
            end

            # The names that the binary being completed prints for '__complete $argv[1]' (one a
            # line; they may hold spaces). All are asked for: fish matches them against the token
            # itself (ignoring case, and inside names).
            function __lifesignal_callback
                set -l command (commandline -opc)[1]
                command $command __complete $argv[1] 2>/dev/null
            end

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

            complete -c lifesignal -f

            # Global options, accepted after any command.

            """
        for option in globals {
            out += "complete -c lifesignal" + fishOption(option) + "\n"
        }
        for node in nodes() {
            let key = fishQuote(node.key)
            var lines: [String] = []
            if node.acceptsHelp {
                for sub in node.subcommands {
                    lines.append(
                        "complete -c lifesignal -n \(fishQuote("__lifesignal_needs_command " + key)) -a \(fishQuote(sub.name)) -d \(fishQuote(sub.abstract))"
                    )
                }
                lines.append(
                    "complete -c lifesignal -n \(fishQuote("__lifesignal_needs_command " + key)) -a help -d \(fishQuote(helpAbstract(atTop: node.path.isEmpty)))"
                )
                for sub in node.subcommands {
                    lines.append(
                        "complete -c lifesignal -n \(fishQuote("__lifesignal_helping " + key)) -a \(fishQuote(sub.name)) -d \(fishQuote(sub.abstract))"
                    )
                }
                if node.path.isEmpty {
                    for topic in topics {
                        lines.append(
                            "complete -c lifesignal -n \(fishQuote("__lifesignal_helping ''")) -a \(fishQuote(topic.name)) -d \(fishQuote(topic.abstract))"
                        )
                    }
                }
            }
            for option in node.spec.options {
                lines.append("complete -c lifesignal -n \(fishQuote("__lifesignal_at " + key))" + fishOption(option))
            }
            for (index, argument) in node.spec.arguments.enumerated() {
                let action = fishValues(values(for: argument))
                guard !action.isEmpty else { continue }
                lines.append(
                    "complete -c lifesignal -n \(fishQuote("__lifesignal_argument \(key) \(index + 1)"))\(action) -d \(fishQuote(argument.help))"
                )
            }
            guard !lines.isEmpty else { continue }
            out += "\n# lifesignal\(node.path.isEmpty ? "" : " " + node.key)\n" + lines.joined(separator: "\n") + "\n"
        }
        return out
    }

    /// ` -s q -l quiet -d '…'`, with `-x -a '…'` for the values of an option that takes one.
    private static func fishOption(_ option: OptionSpec) -> String {
        var out = ""
        if let short = option.short { out += " -s \(fishQuote(String(short)))" }
        out += " -l \(fishQuote(option.long))"
        if option.takesValue { out += " -x" + fishValues(option.kind.map(values)) }
        return out + " -d \(fishQuote(option.help))"
    }

    /// ` -a '8h 16h'`, or nothing when there is nothing to offer.
    private static func fishValues(_ values: Values?) -> String {
        guard let values else { return "" }
        switch values {
        case .none: return ""
        case .words(let words): return " -a " + fishQuote(words.joined(separator: " "))
        case .directories: return " -a '(__fish_complete_directories)'"
        case .callback(let source): return " -a " + fishQuote("(__lifesignal_callback \(source.rawValue))")
        }
    }

    /// Single-quoted for fish (which escapes `\` and `'` inside single quotes).
    private static func fishQuote(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}
