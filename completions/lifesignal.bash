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
    "")
        subs=(init checkin alert contacts ping notify status doctor circle completion)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "init")
        subs=()
        options=(--name --interval --reminder --circle --member --phone --emergency-note --no-phone --no-emergency-note --json --home --quiet -q --no-color --help -h --version)
        valued=(--name --interval --reminder --circle --member --phone --emergency-note --home)
        nargs=0
        ;;
    "checkin")
        subs=(status history interval reminder pause resume trip schedule grace escalation repeat pause-limit inbox duress)
        options=(--note --dry-run --json --home --quiet -q --no-color --help -h --version)
        valued=(--note --home)
        nargs=0
        ;;
    "checkin status")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin history")
        subs=()
        options=(--limit --since --until --json --home --quiet -q --no-color --help -h --version)
        valued=(--limit --since --until --home)
        nargs=0
        ;;
    "checkin interval")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin reminder")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin pause")
        subs=()
        options=(--until --note --yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--until --note --home)
        nargs=0
        ;;
    "checkin resume")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin trip")
        subs=()
        options=(--note --yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--note --home)
        nargs=1
        ;;
    "checkin schedule")
        subs=(daily interval)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin schedule daily")
        subs=()
        options=(--at --days --tz --json --home --quiet -q --no-color --help -h --version)
        valued=(--at --days --tz --home)
        nargs=0
        ;;
    "checkin schedule interval")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin grace")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin escalation")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin repeat")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin pause-limit")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "checkin inbox")
        subs=()
        options=(--phone --json --home --quiet -q --no-color --help -h --version)
        valued=(--phone --home)
        nargs=1
        ;;
    "checkin duress")
        subs=(set off status clear)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin duress set")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin duress off")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin duress status")
        subs=()
        options=(--yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "checkin duress clear")
        subs=()
        options=(--yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "alert")
        subs=(activate deactivate status history)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "alert activate")
        subs=()
        options=(--message --yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--message --home)
        nargs=0
        ;;
    "alert deactivate")
        subs=()
        options=(--yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "alert status")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "alert history")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "contacts")
        subs=(code add list show edit confirm remove vouch)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "contacts code")
        subs=()
        options=(--qr --reset --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "contacts add")
        subs=()
        options=(--responder --dependent --notify --email --phone --json --home --quiet -q --no-color --help -h --version)
        valued=(--notify --email --phone --home)
        nargs=1
        ;;
    "contacts list")
        subs=()
        options=(--responders --dependents --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "contacts show")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "contacts edit")
        subs=()
        options=(--responder --dependent --no-responder --no-dependent --name --notify --email --phone --tier --button-topic --duress --json --home --quiet -q --no-color --help -h --version)
        valued=(--name --notify --email --phone --tier --button-topic --duress --home)
        nargs=1
        ;;
    "contacts confirm")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "contacts remove")
        subs=()
        options=(--yes -y --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "contacts vouch")
        subs=()
        options=(--note --json --home --quiet -q --no-color --help -h --version)
        valued=(--note --home)
        nargs=1
        ;;
    "ping")
        subs=(send list respond clear)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "ping send")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "ping list")
        subs=()
        options=(--history --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "ping respond")
        subs=()
        options=(--all --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "ping clear")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "notify")
        subs=(list read clear prefs deliver test heartbeat ack)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "notify list")
        subs=()
        options=(--category --unread --all --json --home --quiet -q --no-color --help -h --version)
        valued=(--category --home)
        nargs=0
        ;;
    "notify read")
        subs=()
        options=(--all --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "notify clear")
        subs=()
        options=(--all --category --json --home --quiet -q --no-color --help -h --version)
        valued=(--category --home)
        nargs=1
        ;;
    "notify prefs")
        subs=()
        options=(--category --unread-only --include-read --channel --no-channels --mail-from --reply-to --no-reply-to --json --home --quiet -q --no-color --help -h --version)
        valued=(--category --channel --mail-from --reply-to --home)
        nargs=0
        ;;
    "notify deliver")
        subs=()
        options=(--dry-run --verbose --now --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "notify test")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "notify heartbeat")
        subs=(add list remove)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "notify heartbeat add")
        subs=()
        options=(--on --json --home --quiet -q --no-color --help -h --version)
        valued=(--on --home)
        nargs=1
        ;;
    "notify heartbeat list")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "notify heartbeat remove")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "notify ack")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "status")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "doctor")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle")
        subs=(sync status engine syncthing hold enroll devices revoke recovery)
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle sync")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle status")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle engine")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "circle syncthing")
        subs=()
        options=(--api --key-file --off --json --home --quiet -q --no-color --help -h --version)
        valued=(--api --key-file --home)
        nargs=0
        ;;
    "circle hold")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "circle enroll")
        subs=()
        options=(--qr --json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle devices")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "circle revoke")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    "circle recovery")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    "completion")
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=1
        ;;
    *)
        subs=()
        options=(--json --home --quiet -q --no-color --help -h --version)
        valued=(--home)
        nargs=0
        ;;
    esac
}

# Adds to COMPREPLY the values of option $2 ('--home', or '@1' for the first
# argument) of the command at path $1 that start with $3.
_lifesignal_values() {
    case "$1|$2" in
    "init|--interval")
        _lifesignal_words "$3" 8h 16h 24h 48h
        ;;
    "init|--reminder")
        _lifesignal_words "$3" 30m 1h 2h 4h 6h off
        ;;
    "init|--circle")
        _lifesignal_directories "$3"
        ;;
    "checkin interval|@1")
        _lifesignal_words "$3" 8h 16h 24h 48h
        ;;
    "checkin reminder|@1")
        _lifesignal_words "$3" 30m 1h 2h 4h 6h off
        ;;
    "checkin schedule daily|--days")
        _lifesignal_words "$3" weekdays weekends sun mon tue wed thu fri sat
        ;;
    "checkin grace|@1")
        _lifesignal_words "$3" 30m 1h 2h 4h 6h off
        ;;
    "checkin escalation|@1")
        _lifesignal_words "$3" 8h 16h 24h 48h
        ;;
    "checkin repeat|@1")
        _lifesignal_words "$3" 30m 1h 2h 4h 6h off
        ;;
    "checkin pause-limit|@1")
        _lifesignal_words "$3" 8h 16h 24h 48h
        ;;
    "contacts add|--notify")
        _lifesignal_prefixes desktop: mailto: ntfy:https:// https:// apprise: exec:
        ;;
    "contacts show|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "contacts edit|--notify")
        _lifesignal_prefixes desktop: mailto: ntfy:https:// https:// apprise: exec:
        ;;
    "contacts edit|--duress")
        _lifesignal_words "$3" on off
        ;;
    "contacts edit|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "contacts confirm|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "contacts remove|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "contacts vouch|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "ping send|@1")
        _lifesignal_callback dependents "$3"
        ;;
    "ping respond|@1")
        _lifesignal_callback responders-pinging "$3"
        ;;
    "ping clear|@1")
        _lifesignal_callback pinged-dependents "$3"
        ;;
    "notify list|--category")
        _lifesignal_words "$3" alerts pings contacts check-ins system
        ;;
    "notify clear|--category")
        _lifesignal_words "$3" alerts pings contacts check-ins system
        ;;
    "notify prefs|--category")
        _lifesignal_words "$3" alerts pings contacts check-ins system all
        ;;
    "notify prefs|--channel")
        _lifesignal_prefixes desktop: mailto: ntfy:https:// https:// apprise: exec:
        ;;
    "notify test|@1")
        _lifesignal_callback contacts "$3"
        ;;
    "notify heartbeat add|--on")
        _lifesignal_words "$3" checkin deliver
        ;;
    "circle engine|@1")
        _lifesignal_words "$3" auto other
        ;;
    "circle syncthing|--key-file")
        _lifesignal_directories "$3"
        ;;
    "circle hold|@1")
        _lifesignal_words "$3" 8h 16h 24h 48h
        ;;
    "completion|@1")
        _lifesignal_words "$3" bash zsh fish
        ;;
    *"|--home")
        _lifesignal_directories "$3"
        ;;
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

# Adds to COMPREPLY the names that the binary being completed prints for
# '__complete $1 <prefix>' (one a line; they may hold spaces), where $2 is the word
# typed so far, perhaps quoted ('Sam L, "Sam L or Sam\ L).
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
    \'* | \"*)
        prefix=${cur:1}
        ;;
    *)
        for ((i = 0; i < ${#cur}; i++)); do
            [[ ${cur:i:1} == "\\" ]] && ((i++))
            prefix+=${cur:i:1}
        done
        ;;
    esac
    while IFS= read -r line; do
        [[ -n $line ]] || continue
        if [[ $cur == [\'\"]* ]]; then
            # Inside the quote the user opened, readline inserts the name as it is.
            COMPREPLY+=("$line")
        else
            printf -v quoted '%q' "$line"
            COMPREPLY+=("$quoted")
        fi
    done < <("${COMP_WORDS[0]}" "${home[@]}" __complete "$1" -- ${prefix:+"$prefix"} 2>/dev/null)
    return 0
}

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
            _lifesignal_words "$cur" exit-codes environment
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
