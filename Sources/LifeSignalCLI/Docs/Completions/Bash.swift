extension Completions {
    /// The bash completion script: the tables `_lifesignal_node` and `_lifesignal_values`,
    /// generated from the command tree, and the fixed functions that walk a command line as the
    /// parser does and offer what may come next. It owns everything bash-specific; the tree and
    /// the quoting are shared with the other shells.
    enum Bash {
        static func script() -> String {
            [
                header, nodeTable(), valueTable(), wordHelpers, callbackHelper, rejoinWords, walk, offer, has,
                "complete -F _lifesignal lifesignal\n",
            ].joined(separator: "\n")
        }

        /// Where the script came from and how to install it.
        private static let header = """
            # bash completion for lifesignal                           -*- shell-script -*-
            #
            # Generated from lifesignal's command table by 'lifesignal completion bash'; do not
            # edit (run scripts/generate-docs). Install it as
            #   ~/.local/share/bash-completion/completions/lifesignal
            # where bash-completion loads it the first time you complete lifesignal, or
            # source it from ~/.bashrc. Works with and without bash-completion.

            """

        /// `_lifesignal_node`: sets `subs`, `options`, `valued` and `nargs` for the command at a
        /// path; an unknown path gets the global options only.
        private static func nodeTable() -> String {
            var out = """
                # Describes the command at path $1 ('' for lifesignal itself, 'checkin interval'):
                # subs, its subcommands; options, every option it accepts; valued, the options
                # that take a value; nargs, how many arguments it takes.
                _lifesignal_node() {
                    case "$1" in

                """
            for node in nodes() {
                let all = node.spec.options + globals
                out += caseEntry(
                    bashPattern(node.key),
                    [
                        "subs=(\(words(node.subcommands.map(\.name))))",
                        "options=(\(words(all.flatMap(names))))",
                        "valued=(\(words(all.filter(\.takesValue).flatMap(names))))",
                        "nargs=\(node.spec.arguments.count)",
                    ])
            }
            out += caseEntry(
                "*",
                [
                    "subs=()", "options=(\(words(globals.flatMap(names))))",
                    "valued=(\(words(globals.filter(\.takesValue).flatMap(names))))", "nargs=0",
                ])
            return out + "    esac\n}\n"
        }

        /// `_lifesignal_values`: one case per option value or argument that has candidates,
        /// keyed `path|--option` or `path|@1`; a global option's value matches at any path.
        private static func valueTable() -> String {
            var out = """
                # Adds to COMPREPLY the values of option $2 ('--home', or '@1' for the first
                # argument) of the command at path $1 that start with $3.
                _lifesignal_values() {
                    case "$1|$2" in

                """
            for node in nodes() {
                for option in node.spec.options where option.takesValue {
                    guard let action = action(values(for: option)) else { continue }
                    out += caseEntry(names(option).map { bashPattern(node.key + "|" + $0) }, action)
                }
                for (index, argument) in node.spec.arguments.enumerated() {
                    guard let action = action(values(for: argument)) else { continue }
                    out += caseEntry([bashPattern(node.key + "|@\(index + 1)")], action)
                }
            }
            for option in globals where option.takesValue {
                guard let action = action(values(for: option)) else { continue }
                out += caseEntry(names(option).map { "*" + bashPattern("|" + $0) }, action)
            }
            return out + "    esac\n}\n"
        }

        /// One arm of a `case`: `    "checkin")`, its lines, `;;`.
        private static func caseEntry(_ pattern: String, _ lines: [String]) -> String {
            "    \(pattern))\n" + lines.map { "        " + $0 + "\n" }.joined() + "        ;;\n"
        }

        /// An arm that any of `patterns` selects, running one action.
        private static func caseEntry(_ patterns: [String], _ action: String) -> String {
            caseEntry(patterns.joined(separator: " | "), [action])
        }

        /// Names as the words of a bash array.
        private static func words(_ names: [String]) -> String { names.map(shellWord).joined(separator: " ") }

        /// The shell code that offers a value's candidates (`$3` is the word typed so far), or
        /// nil when there is nothing to offer.
        private static func action(_ values: Values) -> String? {
            switch values {
            case .none: return nil
            case .words(let words): return "_lifesignal_words \"$3\" " + words.map(shellWord).joined(separator: " ")
            case .prefixes(let words): return "_lifesignal_prefixes " + words.map(shellWord).joined(separator: " ")
            case .directories: return "_lifesignal_directories \"$3\""
            case .callback(let source): return "_lifesignal_callback \(shellWord(source.rawValue)) \"$3\""
            }
        }

        /// `_lifesignal_words` and `_lifesignal_directories`: candidates known in advance.
        private static let wordHelpers = """
            # Adds to COMPREPLY each of $2… that starts with $1.
            _lifesignal_words() {
                local word=$1 candidate
                shift
                for candidate in "$@"; do
                    [[ $candidate == "$word"* ]] && COMPREPLY+=("$candidate")
                done
                return 0
            }

            # Adds to COMPREPLY each of $@ that starts with the word being typed, and no space
            # after it. The word is read from the line itself, since bash splits it at ':'; each
            # candidate is cut to the part after the last ':' typed, which is what bash replaces.
            _lifesignal_prefixes() {
                local line=${COMP_LINE:0:COMP_POINT} candidate word
                word=${line##*[[:space:]]}
                word=${word#--*=}
                for candidate in "$@"; do
                    if [[ $candidate == "$word"* ]]; then
                        [[ $word == *:* ]] && candidate=${candidate#"${word%:*}:"}
                        COMPREPLY+=("$candidate")
                    fi
                done
                if type compopt &>/dev/null; then
                    compopt -o nospace 2>/dev/null
                fi
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

            """

        /// `_lifesignal_callback`: candidates the binary prints, quoted as readline wants them.
        private static let callbackHelper = """
            # Adds to COMPREPLY the names that the binary being completed prints for
            # '__complete $1 <prefix>' (one a line; they may hold spaces), where $2 is the word
            # typed so far, perhaps quoted ('Sam L, "Sam L or Sam\\ L).
            _lifesignal_callback() {
                local cur=$2 prefix="" line quoted i
                # The profile the line names with --home DIR (or --home=DIR), ~ expanded.
                local -a home=()
                for ((i = 1; i < COMP_CWORD; i++)); do
                    if [[ ${COMP_WORDS[i]} == --home ]]; then
                        if [[ ${COMP_WORDS[i + 1]} == "=" ]]; then
                            home=(--home "${COMP_WORDS[i + 2]}")
                        else
                            home=(--home "${COMP_WORDS[i + 1]}")
                        fi
                    fi
                done
                if ((${#home[@]} == 2)); then
                    [[ ${home[1]} == "~"* ]] && home[1]=$HOME${home[1]:1}
                fi
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
                done < <("${COMP_WORDS[0]}" "${home[@]}" __complete "$1" -- ${prefix:+"$prefix"} 2>/dev/null)
                return 0
            }

            """

        /// The start of `_lifesignal`, the completion function: the words of the line, with
        /// `--option=value` rejoined.
        private static let rejoinWords = """
            _lifesignal() {
                local -a words=() subs=() options=() valued=()
                local i j word cword=0 glue=0 nargs=0
                # Put '--option=value' back together: bash splits words at '=' and ':' (COMP_WORDBREAKS).
                for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
                    word=${COMP_WORDS[i]}
                    if ((glue)); then
                        words[${#words[@]} - 1]+=$word
                        glue=0
                    elif [[ $word == "=" && ${#words[@]} -gt 0 && ${words[${#words[@]} - 1]} == --?* && ${words[${#words[@]} - 1]} != *=* ]]; then
                        words[${#words[@]} - 1]+="="
                        ((i < COMP_CWORD)) && glue=1
                    elif [[ $word == ":" && ${#words[@]} -gt 1 && ${words[${#words[@]} - 1]} != --* ]]; then
                        # And 'ntfy:https://…', split at each ':' the same way.
                        words[${#words[@]} - 1]+=":"
                        glue=1
                    else
                        words+=("$word")
                    fi
                    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
                done
                local cur=${words[cword]}

            """

        /// `_lifesignal` goes on: the words before the cursor, walked as the parser walks them.
        private static let walk = """
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

            """

        /// `_lifesignal` ends: what may stand at the cursor, by what the walk found.
        private static var offer: String {
            """
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

            """
        }

        /// `_lifesignal_has`: membership in a list.
        private static let has = """
            # Succeeds when $1 is one of $2….
            _lifesignal_has() {
                local word=$1 candidate
                shift
                for candidate in "$@"; do
                    [[ $candidate == "$word" ]] && return 0
                done
                return 1
            }

            """
    }
}
