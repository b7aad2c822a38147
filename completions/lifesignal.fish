# fish completion for lifesignal.
#
# Generated from lifesignal's command table by 'lifesignal completion fish'; do not
# edit (run scripts/generate-docs). Install it as
#   ~/.config/fish/completions/lifesignal.fish

# The visible subcommands of the command at path $argv.
function __lifesignal_subcommands
    switch "$argv"
        case ''
            printf '%s\n' 'init' 'checkin' 'alert' 'contacts' 'ping' 'notify' 'status' 'doctor' 'circle' 'completion'
        case 'checkin'
            printf '%s\n' 'status' 'history' 'interval' 'reminder' 'pause' 'resume' 'trip' 'schedule' 'grace' 'escalation' 'repeat' 'pause-limit' 'inbox' 'duress'
        case 'checkin schedule'
            printf '%s\n' 'daily' 'interval'
        case 'checkin duress'
            printf '%s\n' 'set' 'off' 'status' 'clear'
        case 'alert'
            printf '%s\n' 'activate' 'deactivate' 'status' 'history'
        case 'contacts'
            printf '%s\n' 'code' 'add' 'list' 'show' 'edit' 'confirm' 'remove' 'vouch'
        case 'ping'
            printf '%s\n' 'send' 'list' 'respond' 'clear'
        case 'notify'
            printf '%s\n' 'list' 'read' 'clear' 'prefs' 'deliver' 'test' 'heartbeat' 'ack'
        case 'notify heartbeat'
            printf '%s\n' 'add' 'list' 'remove'
        case 'circle'
            printf '%s\n' 'sync' 'status' 'engine' 'syncthing' 'hold' 'enroll' 'devices' 'revoke' 'recovery'
    end
end

# The options of the command at path $argv that take a value.
function __lifesignal_valued
    switch "$argv"
        case ''
            printf '%s\n' '--home'
        case 'init'
            printf '%s\n' '--name' '--interval' '--reminder' '--circle' '--member' '--phone' '--emergency-note' '--home'
        case 'checkin'
            printf '%s\n' '--note' '--home'
        case 'checkin status'
            printf '%s\n' '--home'
        case 'checkin history'
            printf '%s\n' '--limit' '--since' '--until' '--home'
        case 'checkin interval'
            printf '%s\n' '--home'
        case 'checkin reminder'
            printf '%s\n' '--home'
        case 'checkin pause'
            printf '%s\n' '--until' '--note' '--home'
        case 'checkin resume'
            printf '%s\n' '--home'
        case 'checkin trip'
            printf '%s\n' '--note' '--home'
        case 'checkin schedule'
            printf '%s\n' '--home'
        case 'checkin schedule daily'
            printf '%s\n' '--at' '--days' '--tz' '--home'
        case 'checkin schedule interval'
            printf '%s\n' '--home'
        case 'checkin grace'
            printf '%s\n' '--home'
        case 'checkin escalation'
            printf '%s\n' '--home'
        case 'checkin repeat'
            printf '%s\n' '--home'
        case 'checkin pause-limit'
            printf '%s\n' '--home'
        case 'checkin inbox'
            printf '%s\n' '--phone' '--home'
        case 'checkin duress'
            printf '%s\n' '--home'
        case 'checkin duress set'
            printf '%s\n' '--home'
        case 'checkin duress off'
            printf '%s\n' '--home'
        case 'checkin duress status'
            printf '%s\n' '--home'
        case 'checkin duress clear'
            printf '%s\n' '--home'
        case 'alert'
            printf '%s\n' '--home'
        case 'alert activate'
            printf '%s\n' '--message' '--home'
        case 'alert deactivate'
            printf '%s\n' '--home'
        case 'alert status'
            printf '%s\n' '--home'
        case 'alert history'
            printf '%s\n' '--home'
        case 'contacts'
            printf '%s\n' '--home'
        case 'contacts code'
            printf '%s\n' '--home'
        case 'contacts add'
            printf '%s\n' '--notify' '--email' '--phone' '--home'
        case 'contacts list'
            printf '%s\n' '--home'
        case 'contacts show'
            printf '%s\n' '--home'
        case 'contacts edit'
            printf '%s\n' '--name' '--notify' '--email' '--phone' '--tier' '--button-topic' '--duress' '--home'
        case 'contacts confirm'
            printf '%s\n' '--home'
        case 'contacts remove'
            printf '%s\n' '--home'
        case 'contacts vouch'
            printf '%s\n' '--note' '--home'
        case 'ping'
            printf '%s\n' '--home'
        case 'ping send'
            printf '%s\n' '--home'
        case 'ping list'
            printf '%s\n' '--home'
        case 'ping respond'
            printf '%s\n' '--home'
        case 'ping clear'
            printf '%s\n' '--home'
        case 'notify'
            printf '%s\n' '--home'
        case 'notify list'
            printf '%s\n' '--category' '--home'
        case 'notify read'
            printf '%s\n' '--home'
        case 'notify clear'
            printf '%s\n' '--category' '--home'
        case 'notify prefs'
            printf '%s\n' '--category' '--channel' '--mail-from' '--reply-to' '--home'
        case 'notify deliver'
            printf '%s\n' '--home'
        case 'notify test'
            printf '%s\n' '--home'
        case 'notify heartbeat'
            printf '%s\n' '--home'
        case 'notify heartbeat add'
            printf '%s\n' '--on' '--home'
        case 'notify heartbeat list'
            printf '%s\n' '--home'
        case 'notify heartbeat remove'
            printf '%s\n' '--home'
        case 'notify ack'
            printf '%s\n' '--home'
        case 'status'
            printf '%s\n' '--home'
        case 'doctor'
            printf '%s\n' '--home'
        case 'circle'
            printf '%s\n' '--home'
        case 'circle sync'
            printf '%s\n' '--home'
        case 'circle status'
            printf '%s\n' '--home'
        case 'circle engine'
            printf '%s\n' '--home'
        case 'circle syncthing'
            printf '%s\n' '--api' '--key-file' '--home'
        case 'circle hold'
            printf '%s\n' '--home'
        case 'circle enroll'
            printf '%s\n' '--home'
        case 'circle devices'
            printf '%s\n' '--home'
        case 'circle revoke'
            printf '%s\n' '--home'
        case 'circle recovery'
            printf '%s\n' '--home'
        case 'completion'
            printf '%s\n' '--home'
        case '*'
            printf '%s\n' '--home'
    end
end

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
complete -c lifesignal -l 'json' -d 'Print the result as JSON on stdout; errors as JSON on stderr.'
complete -c lifesignal -l 'home' -x -a '(__fish_complete_directories)' -d 'Use this data directory (overrides LIFESIGNAL_HOME and XDG_DATA_HOME).'
complete -c lifesignal -s 'q' -l 'quiet' -d 'Print nothing on success; the exit code still tells.'
complete -c lifesignal -l 'no-color' -d 'Never colour the output (NO_COLOR=1 does the same).'
complete -c lifesignal -s 'h' -l 'help' -d 'Show help information.'
complete -c lifesignal -l 'version' -d 'Show the version.'

# lifesignal
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'init' -d 'Set up lifesignal here: your name, interval, reminder and circle.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'checkin' -d 'Record that you are OK and restart your countdown.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'alert' -d 'Raise an emergency alert to all your responders, or end it.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'contacts' -d 'Manage your responders and dependents.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'ping' -d 'Ask a dependent whether they are OK, and answer the pings you get.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'notify' -d 'Read your notifications and deliver them through your channels.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'status' -d 'Show the dashboard: your deadline and time left.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'doctor' -d 'Check that the people who watch over you will hear; say what to fix.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'circle' -d 'Keep the shared circle folder in step with the other machines.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish.'
complete -c lifesignal -n '__lifesignal_needs_command \'\'' -a help -d 'Show help for a command or a help topic.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'init' -d 'Set up lifesignal here: your name, interval, reminder and circle.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'checkin' -d 'Record that you are OK and restart your countdown.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'alert' -d 'Raise an emergency alert to all your responders, or end it.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'contacts' -d 'Manage your responders and dependents.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'ping' -d 'Ask a dependent whether they are OK, and answer the pings you get.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'notify' -d 'Read your notifications and deliver them through your channels.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'status' -d 'Show the dashboard: your deadline and time left.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'doctor' -d 'Check that the people who watch over you will hear; say what to fix.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'circle' -d 'Keep the shared circle folder in step with the other machines.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'exit-codes' -d 'What each exit status means.'
complete -c lifesignal -n '__lifesignal_helping \'\'' -a 'environment' -d 'Environment variables lifesignal reads.'

# lifesignal init
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'name' -x -d 'Your name as others see it (default: your account\'s name).'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'interval' -x -a '8h 16h 24h 48h' -d 'Time allowed between check-ins (default 24h; presets 8h, 16h, 24h, 48h).'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'reminder' -x -a '30m 1h 2h 4h 6h off' -d 'How long before the deadline to remind you, or off (default 30m).'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'circle' -x -a '(__fish_complete_directories)' -d 'The circle folder (default: \'circle\' in the data directory).'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'member' -x -d 'Make this another device of an existing member, with the enrollment code \'lifesignal circle enroll\' printed on one of their devices (or their recovery code); needs --circle.'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'phone' -x -d 'Your phone number, for your responders\' messages (e.g. +44 20 7946 0958).'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'emergency-note' -x -d 'What a responder should know in an emergency (at most 300 characters): medication, who has a key.'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'no-phone' -d 'Remove your phone number.'
complete -c lifesignal -n '__lifesignal_at \'init\'' -l 'no-emergency-note' -d 'Remove your emergency note.'

# lifesignal checkin
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'status' -d 'Show your last check-in, deadline, time left and reminder time.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'history' -d 'List your check-ins, newest first.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'interval' -d 'Show or set how long you may go between check-ins.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'reminder' -d 'Show or set how long before your deadline you are reminded.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'pause' -d 'Pause your check-ins until a time; the countdown restarts when it ends.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'resume' -d 'End a pause now; the countdown restarts from now.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'trip' -d 'Set a one-off deadline: if you have not checked in by then, your responders are told.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'schedule' -d 'Show or choose how your deadline is set: the interval, or fixed times of day.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'grace' -d 'Show or set how long after a missed deadline only you are told.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'escalation' -d 'Show or set the delay between tiers of responders.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'repeat' -d 'Show or set how often an unanswered alarm is told again.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'pause-limit' -d 'Show or set the longest pause or trip allowed without --yes.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'inbox' -d 'Show or set the ntfy topics of check-ins from your phone.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a 'duress' -d 'A duress word: a check-in with it as the note silently alerts your responders.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'status' -d 'Show your last check-in, deadline, time left and reminder time.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'history' -d 'List your check-ins, newest first.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'interval' -d 'Show or set how long you may go between check-ins.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'reminder' -d 'Show or set how long before your deadline you are reminded.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'pause' -d 'Pause your check-ins until a time; the countdown restarts when it ends.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'resume' -d 'End a pause now; the countdown restarts from now.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'trip' -d 'Set a one-off deadline: if you have not checked in by then, your responders are told.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'schedule' -d 'Show or choose how your deadline is set: the interval, or fixed times of day.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'grace' -d 'Show or set how long after a missed deadline only you are told.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'escalation' -d 'Show or set the delay between tiers of responders.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'repeat' -d 'Show or set how often an unanswered alarm is told again.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'pause-limit' -d 'Show or set the longest pause or trip allowed without --yes.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'inbox' -d 'Show or set the ntfy topics of check-ins from your phone.'
complete -c lifesignal -n '__lifesignal_helping \'checkin\'' -a 'duress' -d 'A duress word: a check-in with it as the note silently alerts your responders.'
complete -c lifesignal -n '__lifesignal_at \'checkin\'' -l 'note' -x -d 'Attach a note to this check-in (e.g. where you are going).'
complete -c lifesignal -n '__lifesignal_at \'checkin\'' -l 'dry-run' -d 'Show what the check-in would do; record nothing.'

# lifesignal checkin history
complete -c lifesignal -n '__lifesignal_at \'checkin history\'' -l 'limit' -x -d 'Show at most this many (default 20).'
complete -c lifesignal -n '__lifesignal_at \'checkin history\'' -l 'since' -x -d 'Only check-ins at or after this time: a date (2026-11-01), a date and time (2026-11-01 18:30), RFC 3339, or a duration such as 7d meaning that long ago.'
complete -c lifesignal -n '__lifesignal_at \'checkin history\'' -l 'until' -x -d 'Only check-ins before this time (the same forms as --since).'

# lifesignal checkin interval
complete -c lifesignal -n '__lifesignal_argument \'checkin interval\' 1' -a '8h 16h 24h 48h' -d 'The new interval, e.g. 8h, 16h, 24h, 48h, 1d12h.'

# lifesignal checkin reminder
complete -c lifesignal -n '__lifesignal_argument \'checkin reminder\' 1' -a '30m 1h 2h 4h 6h off' -d 'The new lead time, e.g. 30m, 2h, or off.'

# lifesignal checkin pause
complete -c lifesignal -n '__lifesignal_at \'checkin pause\'' -l 'until' -x -d 'When the pause ends: a duration from now (14d) or an RFC 3339 time.'
complete -c lifesignal -n '__lifesignal_at \'checkin pause\'' -l 'note' -x -d 'Why, for your responders (e.g. "on holiday with Sam").'
complete -c lifesignal -n '__lifesignal_at \'checkin pause\'' -s 'y' -l 'yes' -d 'Allow a pause longer than the limit (default 30d).'

# lifesignal checkin trip
complete -c lifesignal -n '__lifesignal_at \'checkin trip\'' -l 'note' -x -d 'Where you are going ("west ridge, car at the north lot"): told to your responders only if you miss the deadline.'
complete -c lifesignal -n '__lifesignal_at \'checkin trip\'' -s 'y' -l 'yes' -d 'Allow a trip longer than the pause limit (default 30d).'

# lifesignal checkin schedule
complete -c lifesignal -n '__lifesignal_needs_command \'checkin schedule\'' -a 'daily' -d 'Check in by fixed times of day.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin schedule\'' -a 'interval' -d 'Go back to the interval: last check-in + interval.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin schedule\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'checkin schedule\'' -a 'daily' -d 'Check in by fixed times of day.'
complete -c lifesignal -n '__lifesignal_helping \'checkin schedule\'' -a 'interval' -d 'Go back to the interval: last check-in + interval.'

# lifesignal checkin schedule daily
complete -c lifesignal -n '__lifesignal_at \'checkin schedule daily\'' -l 'at' -x -d 'A time of day to check in by, e.g. 09:00 (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'checkin schedule daily\'' -l 'days' -x -a 'weekdays weekends sun mon tue wed thu fri sat' -d 'Only on these days: mon,wed,fri, weekdays or weekends (default: every day).'
complete -c lifesignal -n '__lifesignal_at \'checkin schedule daily\'' -l 'tz' -x -d 'The time zone the times are in, e.g. Europe/London (default: this machine\'s).'

# lifesignal checkin grace
complete -c lifesignal -n '__lifesignal_argument \'checkin grace\' 1' -a '30m 1h 2h 4h 6h off' -d 'e.g. 30m, 2h, or off.'

# lifesignal checkin escalation
complete -c lifesignal -n '__lifesignal_argument \'checkin escalation\' 1' -a '8h 16h 24h 48h' -d 'e.g. 30m or 1h.'

# lifesignal checkin repeat
complete -c lifesignal -n '__lifesignal_argument \'checkin repeat\' 1' -a '30m 1h 2h 4h 6h off' -d 'e.g. 30m, 1h, 4h, or off.'

# lifesignal checkin pause-limit
complete -c lifesignal -n '__lifesignal_argument \'checkin pause-limit\' 1' -a '8h 16h 24h 48h' -d 'e.g. 30d or 60d.'

# lifesignal checkin inbox
complete -c lifesignal -n '__lifesignal_at \'checkin inbox\'' -l 'phone' -x -d 'The ntfy topic your phone subscribes to (ntfy:https://HOST/TOPIC, or \'new\' for one with a random name on your inbox\'s server): this device sends your reminders and missed check-in notices there with the "I\'m OK" button. Kept on this machine only.'

# lifesignal checkin duress
complete -c lifesignal -n '__lifesignal_needs_command \'checkin duress\'' -a 'set' -d 'Set this device\'s duress word (asked without showing it; else one line of standard input).'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin duress\'' -a 'off' -d 'Remove this device\'s duress word (an alarm already raised still goes out).'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin duress\'' -a 'status' -d 'Show whether a word is set here, whom it tells, and what was sent (asks first).'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin duress\'' -a 'clear' -d 'Tell everyone the duress alarm reached that it is over.'
complete -c lifesignal -n '__lifesignal_needs_command \'checkin duress\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'checkin duress\'' -a 'set' -d 'Set this device\'s duress word (asked without showing it; else one line of standard input).'
complete -c lifesignal -n '__lifesignal_helping \'checkin duress\'' -a 'off' -d 'Remove this device\'s duress word (an alarm already raised still goes out).'
complete -c lifesignal -n '__lifesignal_helping \'checkin duress\'' -a 'status' -d 'Show whether a word is set here, whom it tells, and what was sent (asks first).'
complete -c lifesignal -n '__lifesignal_helping \'checkin duress\'' -a 'clear' -d 'Tell everyone the duress alarm reached that it is over.'

# lifesignal checkin duress status
complete -c lifesignal -n '__lifesignal_at \'checkin duress status\'' -s 'y' -l 'yes' -d 'Do not ask for confirmation (for scripts).'

# lifesignal checkin duress clear
complete -c lifesignal -n '__lifesignal_at \'checkin duress clear\'' -s 'y' -l 'yes' -d 'Do not ask for confirmation (for scripts).'

# lifesignal alert
complete -c lifesignal -n '__lifesignal_needs_command \'alert\'' -a 'activate' -d 'Raise an emergency alert and tell every responder at once.'
complete -c lifesignal -n '__lifesignal_needs_command \'alert\'' -a 'deactivate' -d 'End your alert and tell your responders you are safe (it checks you in too).'
complete -c lifesignal -n '__lifesignal_needs_command \'alert\'' -a 'status' -d 'Show whether an alert is active (exit 5 when it is).'
complete -c lifesignal -n '__lifesignal_needs_command \'alert\'' -a 'history' -d 'List your alerts: start, end and duration.'
complete -c lifesignal -n '__lifesignal_needs_command \'alert\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'alert\'' -a 'activate' -d 'Raise an emergency alert and tell every responder at once.'
complete -c lifesignal -n '__lifesignal_helping \'alert\'' -a 'deactivate' -d 'End your alert and tell your responders you are safe (it checks you in too).'
complete -c lifesignal -n '__lifesignal_helping \'alert\'' -a 'status' -d 'Show whether an alert is active (exit 5 when it is).'
complete -c lifesignal -n '__lifesignal_helping \'alert\'' -a 'history' -d 'List your alerts: start, end and duration.'

# lifesignal alert activate
complete -c lifesignal -n '__lifesignal_at \'alert activate\'' -l 'message' -x -d 'What your responders should know (e.g. where you are).'
complete -c lifesignal -n '__lifesignal_at \'alert activate\'' -s 'y' -l 'yes' -d 'Do not ask for confirmation (for scripts).'

# lifesignal alert deactivate
complete -c lifesignal -n '__lifesignal_at \'alert deactivate\'' -s 'y' -l 'yes' -d 'Do not ask for confirmation (for scripts).'

# lifesignal contacts
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'code' -d 'Show your invite code, for others to add you with \'contacts add\'.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'add' -d 'Add a member by their invite code, or an external person by name.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'list' -d 'List your contacts with their roles and, for dependents, their live status.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'show' -d 'Show one contact in full.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'edit' -d 'Change a contact\'s roles, or an external contact\'s name and addresses.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'confirm' -d 'Confirm a member who linked with you, so that their \'I\'m on it\' and vouches count.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'remove' -d 'Remove a contact (on both sides, for a member).'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a 'vouch' -d 'Say you have seen someone you watch over and they are fine, ending their missed check-in.'
complete -c lifesignal -n '__lifesignal_needs_command \'contacts\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'code' -d 'Show your invite code, for others to add you with \'contacts add\'.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'add' -d 'Add a member by their invite code, or an external person by name.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'list' -d 'List your contacts with their roles and, for dependents, their live status.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'show' -d 'Show one contact in full.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'edit' -d 'Change a contact\'s roles, or an external contact\'s name and addresses.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'confirm' -d 'Confirm a member who linked with you, so that their \'I\'m on it\' and vouches count.'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'remove' -d 'Remove a contact (on both sides, for a member).'
complete -c lifesignal -n '__lifesignal_helping \'contacts\'' -a 'vouch' -d 'Say you have seen someone you watch over and they are fine, ending their missed check-in.'

# lifesignal contacts code
complete -c lifesignal -n '__lifesignal_at \'contacts code\'' -l 'qr' -d 'Also draw it as a QR code in the terminal (needs qrencode).'
complete -c lifesignal -n '__lifesignal_at \'contacts code\'' -l 'reset' -d 'Issue a new code; the old one stops working.'

# lifesignal contacts add
complete -c lifesignal -n '__lifesignal_at \'contacts add\'' -l 'responder' -d 'They watch over you: they are told of your alerts and missed check-ins.'
complete -c lifesignal -n '__lifesignal_at \'contacts add\'' -l 'dependent' -d 'You watch over them and may ping them (members only).'
complete -c lifesignal -n '__lifesignal_at \'contacts add\'' -l 'notify' -x -a 'desktop: mailto: ntfy:https:// https:// apprise: exec:' -d 'A channel to reach an external contact (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'contacts add\'' -l 'email' -x -d 'An e-mail address; alerts are mailed to it (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'contacts add\'' -l 'phone' -x -d 'A phone number in international form, e.g. +44 20 7946 0958 (repeatable).'

# lifesignal contacts list
complete -c lifesignal -n '__lifesignal_at \'contacts list\'' -l 'responders' -d 'Only responders.'
complete -c lifesignal -n '__lifesignal_at \'contacts list\'' -l 'dependents' -d 'Only dependents.'

# lifesignal contacts show
complete -c lifesignal -n '__lifesignal_argument \'contacts show\' 1' -a '(__lifesignal_callback contacts)' -d 'A name, an id, or the first characters of an id.'

# lifesignal contacts edit
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'responder' -d 'They watch over you: they are told of your alerts and missed check-ins.'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'dependent' -d 'You watch over them and may ping them (members only).'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'no-responder' -d 'Remove the responder role.'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'no-dependent' -d 'Remove the dependent role.'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'name' -x -d 'A new name (external contacts only; members name themselves).'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'notify' -x -a 'desktop: mailto: ntfy:https:// https:// apprise: exec:' -d 'A channel to reach an external contact (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'email' -x -d 'An e-mail address; alerts are mailed to it (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'phone' -x -d 'A phone number in international form, e.g. +44 20 7946 0958 (repeatable).'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'tier' -x -d 'A responder\'s tier: 1 (the default) is told when your grace ends, 2 and up later if nobody has acknowledged.'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'button-topic' -x -d 'An ntfy topic only this responder subscribes to: \'new\' makes one with a random name (or give ntfy:https://HOST/LONG-RANDOM-NAME). Kept on this machine only: while you have an inbox, this device also sends the alarms about you there, each with an "I\'m on it" button. \'off\' removes it.'
complete -c lifesignal -n '__lifesignal_at \'contacts edit\'' -l 'duress' -x -a 'on off' -d 'Whether a duress check-in made on this device tells this responder (on by default; kept on this device only).'
complete -c lifesignal -n '__lifesignal_argument \'contacts edit\' 1' -a '(__lifesignal_callback contacts)' -d 'A name, an id, or the first characters of an id.'

# lifesignal contacts confirm
complete -c lifesignal -n '__lifesignal_argument \'contacts confirm\' 1' -a '(__lifesignal_callback contacts)' -d 'A name, an id, or the first characters of an id.'

# lifesignal contacts remove
complete -c lifesignal -n '__lifesignal_at \'contacts remove\'' -s 'y' -l 'yes' -d 'Do not ask for confirmation (for scripts).'
complete -c lifesignal -n '__lifesignal_argument \'contacts remove\' 1' -a '(__lifesignal_callback contacts)' -d 'A name, an id, or the first characters of an id.'

# lifesignal contacts vouch
complete -c lifesignal -n '__lifesignal_at \'contacts vouch\'' -l 'note' -x -d 'What you saw, for them and those told of the miss (e.g. "at the shop at 10").'
complete -c lifesignal -n '__lifesignal_argument \'contacts vouch\' 1' -a '(__lifesignal_callback contacts)' -d 'A name, an id, or the first characters of an id.'

# lifesignal ping
complete -c lifesignal -n '__lifesignal_needs_command \'ping\'' -a 'send' -d 'Ping one of your dependents.'
complete -c lifesignal -n '__lifesignal_needs_command \'ping\'' -a 'list' -d 'Show the pings waiting for your answer and the ones you sent.'
complete -c lifesignal -n '__lifesignal_needs_command \'ping\'' -a 'respond' -d 'Answer a ping (or, with --all, every ping, which also checks you in).'
complete -c lifesignal -n '__lifesignal_needs_command \'ping\'' -a 'clear' -d 'Cancel a ping you sent; the dependent sees it was cancelled.'
complete -c lifesignal -n '__lifesignal_needs_command \'ping\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'ping\'' -a 'send' -d 'Ping one of your dependents.'
complete -c lifesignal -n '__lifesignal_helping \'ping\'' -a 'list' -d 'Show the pings waiting for your answer and the ones you sent.'
complete -c lifesignal -n '__lifesignal_helping \'ping\'' -a 'respond' -d 'Answer a ping (or, with --all, every ping, which also checks you in).'
complete -c lifesignal -n '__lifesignal_helping \'ping\'' -a 'clear' -d 'Cancel a ping you sent; the dependent sees it was cancelled.'

# lifesignal ping send
complete -c lifesignal -n '__lifesignal_argument \'ping send\' 1' -a '(__lifesignal_callback dependents)' -d 'The dependent: a name, an id, or the first characters of an id.'

# lifesignal ping list
complete -c lifesignal -n '__lifesignal_at \'ping list\'' -l 'history' -d 'Also show answered and cleared pings.'

# lifesignal ping respond
complete -c lifesignal -n '__lifesignal_at \'ping respond\'' -l 'all' -d 'Check in and answer every pending ping.'
complete -c lifesignal -n '__lifesignal_argument \'ping respond\' 1' -a '(__lifesignal_callback responders-pinging)' -d 'The ping\'s id (or its first characters), or the responder who sent it.'

# lifesignal ping clear
complete -c lifesignal -n '__lifesignal_argument \'ping clear\' 1' -a '(__lifesignal_callback pinged-dependents)' -d 'The ping\'s id (or its first characters), or the dependent it went to.'

# lifesignal notify
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'list' -d 'List your notifications, newest first.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'read' -d 'Mark a notification, or all of them, as read.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'clear' -d 'Remove a notification, all of them, or a category from your feed.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'prefs' -d 'Show or set the default filter and where your own notifications go.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'deliver' -d 'Notice what is due and deliver what is pending (run it from cron).'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'test' -d 'Send a test notification through your channels, or a contact\'s.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'heartbeat' -d 'Heartbeat URLs for a monitoring service (healthchecks.io, Uptime Kuma).'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a 'ack' -d 'Acknowledge someone\'s missed check-in or alert: "I\'m on it".'
complete -c lifesignal -n '__lifesignal_needs_command \'notify\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'list' -d 'List your notifications, newest first.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'read' -d 'Mark a notification, or all of them, as read.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'clear' -d 'Remove a notification, all of them, or a category from your feed.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'prefs' -d 'Show or set the default filter and where your own notifications go.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'deliver' -d 'Notice what is due and deliver what is pending (run it from cron).'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'test' -d 'Send a test notification through your channels, or a contact\'s.'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'heartbeat' -d 'Heartbeat URLs for a monitoring service (healthchecks.io, Uptime Kuma).'
complete -c lifesignal -n '__lifesignal_helping \'notify\'' -a 'ack' -d 'Acknowledge someone\'s missed check-in or alert: "I\'m on it".'

# lifesignal notify list
complete -c lifesignal -n '__lifesignal_at \'notify list\'' -l 'category' -x -a 'alerts pings contacts check-ins system' -d 'Only this category.'
complete -c lifesignal -n '__lifesignal_at \'notify list\'' -l 'unread' -d 'Only unread notifications.'
complete -c lifesignal -n '__lifesignal_at \'notify list\'' -l 'all' -d 'Every category, read or not (ignores the default filter).'

# lifesignal notify read
complete -c lifesignal -n '__lifesignal_at \'notify read\'' -l 'all' -d 'Mark every notification read.'

# lifesignal notify clear
complete -c lifesignal -n '__lifesignal_at \'notify clear\'' -l 'all' -d 'Clear every notification.'
complete -c lifesignal -n '__lifesignal_at \'notify clear\'' -l 'category' -x -a 'alerts pings contacts check-ins system' -d 'Clear every notification of this category.'

# lifesignal notify prefs
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'category' -x -a 'alerts pings contacts check-ins system all' -d 'The category \'notify list\' shows by default (all for every one).'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'unread-only' -d '\'notify list\' shows only unread notifications by default.'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'include-read' -d '\'notify list\' shows read notifications too (the default).'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'channel' -x -a 'desktop: mailto: ntfy:https:// https:// apprise: exec:' -d 'A channel for your own notifications (repeatable; replaces the list).'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'no-channels' -d 'Send your own notifications nowhere (they stay in the feed).'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'mail-from' -x -d 'The From address of the e-mail your devices send (default: you@localhost).'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'reply-to' -x -d 'Where replies to that e-mail go, e.g. a family list that reaches every responder.'
complete -c lifesignal -n '__lifesignal_at \'notify prefs\'' -l 'no-reply-to' -d 'Send e-mail without a Reply-To.'

# lifesignal notify deliver
complete -c lifesignal -n '__lifesignal_at \'notify deliver\'' -l 'dry-run' -d 'Show what is due and would be sent now; record and send nothing.'
complete -c lifesignal -n '__lifesignal_at \'notify deliver\'' -l 'verbose' -d 'Say every run how each channel stands, and each notification sent.'
complete -c lifesignal -n '__lifesignal_at \'notify deliver\'' -l 'now' -d 'Try failing channels at once instead of waiting out their pause (after fixing one).'

# lifesignal notify test
complete -c lifesignal -n '__lifesignal_argument \'notify test\' 1' -a '(__lifesignal_callback contacts)' -d 'A contact whose channels to test (default: your own).'

# lifesignal notify heartbeat
complete -c lifesignal -n '__lifesignal_needs_command \'notify heartbeat\'' -a 'add' -d 'Add a heartbeat URL.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify heartbeat\'' -a 'list' -d 'List your heartbeat URLs and how they have been doing here.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify heartbeat\'' -a 'remove' -d 'Remove a heartbeat URL.'
complete -c lifesignal -n '__lifesignal_needs_command \'notify heartbeat\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'notify heartbeat\'' -a 'add' -d 'Add a heartbeat URL.'
complete -c lifesignal -n '__lifesignal_helping \'notify heartbeat\'' -a 'list' -d 'List your heartbeat URLs and how they have been doing here.'
complete -c lifesignal -n '__lifesignal_helping \'notify heartbeat\'' -a 'remove' -d 'Remove a heartbeat URL.'

# lifesignal notify heartbeat add
complete -c lifesignal -n '__lifesignal_at \'notify heartbeat add\'' -l 'on' -x -a 'checkin deliver' -d 'When it is requested: after each check-in (default) or each delivery run.'

# lifesignal circle
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'sync' -d 'Commit your records, take the others\' from the remote, and push (git circles).'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'status' -d 'How current this copy of the circle is, and when each member was last heard from here.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'engine' -d 'Show the sync engine, or say the folder is kept by a tool lifesignal cannot ask.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'syncthing' -d 'Show or set where Syncthing\'s API is, for a circle in a Syncthing folder.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'hold' -d 'Show or set how long a miss this device cannot confirm is held before it is told.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'enroll' -d 'Print a one-time code that makes a new machine another device of yours.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'devices' -d 'List your devices and those of the people you are linked with, and whether they count.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'revoke' -d 'End one of your devices: what it records from now on counts for nobody.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a 'recovery' -d 'Make a new recovery code (shown once); the old one stops working.'
complete -c lifesignal -n '__lifesignal_needs_command \'circle\'' -a help -d 'Show help for a subcommand.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'sync' -d 'Commit your records, take the others\' from the remote, and push (git circles).'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'status' -d 'How current this copy of the circle is, and when each member was last heard from here.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'engine' -d 'Show the sync engine, or say the folder is kept by a tool lifesignal cannot ask.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'syncthing' -d 'Show or set where Syncthing\'s API is, for a circle in a Syncthing folder.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'hold' -d 'Show or set how long a miss this device cannot confirm is held before it is told.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'enroll' -d 'Print a one-time code that makes a new machine another device of yours.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'devices' -d 'List your devices and those of the people you are linked with, and whether they count.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'revoke' -d 'End one of your devices: what it records from now on counts for nobody.'
complete -c lifesignal -n '__lifesignal_helping \'circle\'' -a 'recovery' -d 'Make a new recovery code (shown once); the old one stops working.'

# lifesignal circle engine
complete -c lifesignal -n '__lifesignal_argument \'circle engine\' 1' -a 'auto other' -d 'other (a tool lifesignal cannot ask) or auto.'

# lifesignal circle syncthing
complete -c lifesignal -n '__lifesignal_at \'circle syncthing\'' -l 'api' -x -d 'Syncthing\'s GUI address, e.g. http://127.0.0.1:8384.'
complete -c lifesignal -n '__lifesignal_at \'circle syncthing\'' -l 'key-file' -x -a '(__fish_complete_directories)' -d 'A file holding Syncthing\'s API key.'
complete -c lifesignal -n '__lifesignal_at \'circle syncthing\'' -l 'off' -d 'Find the API in Syncthing\'s own configuration again.'

# lifesignal circle hold
complete -c lifesignal -n '__lifesignal_argument \'circle hold\' 1' -a '8h 16h 24h 48h' -d 'e.g. 1h or 3h.'

# lifesignal circle enroll
complete -c lifesignal -n '__lifesignal_at \'circle enroll\'' -l 'qr' -d 'Also draw it as a QR code in the terminal (needs qrencode).'

# lifesignal completion
complete -c lifesignal -n '__lifesignal_argument \'completion\' 1' -a 'bash zsh fish' -d 'The shell: bash, zsh or fish.'
