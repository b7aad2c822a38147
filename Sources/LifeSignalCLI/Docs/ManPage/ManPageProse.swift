/// The hand-written prose of the manual page, in mdoc(7): what the command table cannot say
/// (how the data directory is laid out, worked examples, installing the completions). The
/// generated sections are in `ManPage.swift`; keeping the two apart means a change to a
/// command never touches this file, and an edit to the prose never touches the generator.
extension ManPage {
    /// The DESCRIPTION section's paragraph after the root abstract.
    static let descriptionIntro = """
        Everything is kept in a data directory on this machine; deadlines are computed
        on every run, and
        .Xr cron 8
        runs whatever must happen while nobody is typing.

        """

    /// The DESCRIPTION section's paragraph after the root discussion: the global options,
    /// JSON and the exit status.
    static let descriptionOutro = """
        .Pp
        Every command takes the global options below, anywhere on the line.
        Human output uses the local time zone and relative times; with
        .Fl -json
        a command prints one JSON object on standard output instead (stable camelCase
        names, RFC 3339 UTC times, durations in seconds), and errors as JSON on
        standard error.
        The exit status is a contract a script can branch on; see
        .Sx EXIT STATUS .
        Help for any command is shown by
        .Fl h ,
        .Fl -help
        or
        .Nm
        .Cm help Ar command .

        """

    /// FILES: where the data directory is and what is in it.
    static let files = """
        .Sh FILES
        .Bl -tag -width Ds
        .It Pa $XDG_DATA_HOME/lifesignal
        The data directory when
        .Ev XDG_DATA_HOME
        is set to an absolute path
        .Po
        unless
        .Fl -home
        or
        .Ev LIFESIGNAL_HOME
        say otherwise
        .Pc .
        .It Pa ~/.local/share/lifesignal
        The data directory otherwise.
        .It Pa ~/Library/Application\\ Support/lifesignal
        The data directory on macOS.
        .El
        .Pp
        In the data directory (directories are made mode 0700, files 0600):
        .Bl -tag -width Ds
        .It Pa identity.json
        Which member and device this data directory is, and where its circle is.
        Private to this machine.
        .It Pa device.key
        This device's signing key (mode 0600).
        Every file it writes in the circle is signed with it; it never leaves this machine
        and is never shown.
        Keep it in backups of the data directory: without it this device's records count
        for nobody until it is set up again.
        .It Pa lock
        Held by a command while it writes, so that cron and a shell running at the same
        moment lose nothing.
        .It Pa own/log.json , Pa own/feed.json , Pa own/archive/
        The authoritative copy of this device's records, its notification feed and its
        older events: the circle holds a published copy, which is put back from here
        when a sync engine deletes, rolls back or damages it.
        .It Pa own/circle-behind
        Since when, and why, this device's records could not be written into the circle
        (a full or read-only disk): every write publishes them all again until one
        succeeds, which removes it.
        .It Pa enrollment.json
        The secret of the enrollment code this device made
        .Pq Cm circle enroll ,
        until a new device uses it or it expires (mode 0600; never shown, never in the circle).
        .It Pa sync.json
        How this device keeps its circle folder in step
        .Pq Cm circle sync :
        the engine's settings on this machine.
        .It Pa verified.bin
        What this device verified of the people it is linked with: the key of each of their
        devices, the last of its records seen, and the keys it saw revoked.
        An older file put back in the circle cannot take those back.
        It is a record, not a cache: losing it forgets only that, and a damaged one is
        believed in nothing, said once, and written anew after every log is verified again;
        one that cannot be read (its permissions, the disk) is said on every run and left as it is.
        .It Pa cache.bin , Pa cache-circle.bin , Pa cache-linked.bin
        The circle's folded state and a digest of the notification feed, each with the
        identity of every file it was made from, so that a run reads only what changed:
        this device's part, everyone else's, and the part of it a check-in reads (those
        linked with you).
        Derived: they may be deleted at any time and are rebuilt.
        .It Pa phone.json
        The ntfy topic this device sends your reminders and missed check-in notices to
        with an "I'm OK" button
        .Pq Cm checkin inbox --phone ,
        and the topics it sends your external responders' alarms to with an "I'm on it" button
        .Pq Cm contacts edit --button-topic .
        Kept on this machine only, never in the circle.
        .It Pa state.bin
        This device's duress setting
        .Pq Cm checkin duress :
        a salt, a PBKDF2-HMAC-SHA-512 hash of the word and its rounds, the responders left
        out, and the alarms and all-clears to send or sent, by contact id, time and a
        fingerprint of each channel.
        Binary, with no word, name or address in it; kept on this machine only, never in
        the circle.
        .It Pa health.json
        How each channel, heartbeat URL and inbox has been doing on this machine, for
        .Cm status
        and
        .Cm doctor .
        Not durable; losing it loses only that history.
        .It Pa circle/
        The circle: where members' records live, unless
        .Nm
        .Cm init Fl -circle
        chose another folder (one that a sync tool keeps in step between machines).
        .It Pa circle/members/ Ns Ar member Ns Pa / Ns Ar device Ns Pa /log.json
        The events this device recorded for this member (check-ins, settings), and
        .Pa feed.json
        and
        .Pa archive/
        beside it, each signed with this device's key.
        Only this device writes them; everyone in the circle reads them, and believes them
        only when a device of that member signed them.
        Beside the log and the feed lie
        .Pa log.json.bak
        and
        .Pa feed.json.bak ,
        the versions before last, which the next write reuses; they are never synced.
        .It Pa *.bak
        The last good copy of a file, kept next to it
        .Po
        .Pa identity.json.bak ,
        .Pa log.json.bak
        .Pc .
        A damaged file is never overwritten: a command that finds one stops, names the
        file, line and column, and points at its best backup.
        .It Pa .*.tmp.*
        A file being written; one left behind by a crash is removed by the next write that is
        not a check-in (cron's
        .Cm notify deliver ,
        within minutes).
        .El
        .Pp
        Only
        .Pa cache.bin ,
        .Pa cache-circle.bin
        and
        .Pa cache-linked.bin
        may be deleted at any time (and a temporary file once no lifesignal is running):
        everything else is a record, or the only copy of one.
        A sync engine must not carry the backups, temporary files, the lock or the
        caches:
        .Nm
        .Cm circle sync
        writes the ignore patterns for git and Syncthing.

        """

    /// EXAMPLES: a first run, a script, a crontab line and jq.
    static let examples = """
        .Sh EXAMPLES
        The first check-in on a new machine sets up a profile (a 24h interval, reminded
        30m before the deadline):
        .Bd -literal -offset indent
        $ lifesignal checkin --note "hiking the ridge trail"
        $ lifesignal checkin interval 8h
        $ lifesignal status
        .Ed
        .Pp
        In a script, branch on the exit status of
        .Cm status :
        .Bd -literal -offset indent
        lifesignal status --quiet
        case $? in
            0) ;;                                   # on time
            3) notify-send "lifesignal: check in soon" ;;
            4) notify-send "lifesignal: you are overdue" ;;
            *) echo "lifesignal failed" >&2 ;;
        esac
        .Ed
        .Pp
        In a crontab
        .Pq Xr crontab 5 :
        cron runs with a short
        .Ev PATH
        and no
        .Ev XDG_DATA_HOME ,
        so name the data directory; cron mails what a job prints, so this line mails the
        dashboard only when a check-in is due or overdue.
        lifesignal takes its own lock, so it needs no
        .Xr flock 1
        around it.
        .Bd -literal -offset indent
        PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin
        LIFESIGNAL_HOME=/home/alice/.local/share/lifesignal
        */5 * * * * lifesignal notify deliver
        0 8,20 * * * lifesignal status --quiet || lifesignal status
        .Ed
        .Pp
        The first line delivers what is due: missed check-ins, alerts, reminders and
        all-clears.
        For a circle kept in git, make it
        .Dl */5 * * * * lifesignal circle sync && lifesignal notify deliver
        and run
        .Nm
        .Cm doctor
        once in cron's environment to see what cron sees.
        .Pp
        Read one value with
        .Xr jq 1 :
        .Bd -literal -offset indent
        $ lifesignal checkin status --json | jq -r .deadline
        2026-03-02T09:00:00Z
        $ lifesignal status --json | jq .checkIn.secondsLeft
        86400
        .Ed

        """

    /// SHELL COMPLETION: where each shell looks for the scripts.
    static let shellCompletion = """
        .Sh SHELL COMPLETION
        .Nm
        .Cm completion Ar shell
        prints the completion script for bash, zsh or fish; the same files are in the
        source tree's
        .Pa completions/
        folder.
        Install them for yourself with
        .Bd -literal -offset indent
        lifesignal completion bash > ~/.local/share/bash-completion/completions/lifesignal
        lifesignal completion zsh > ~/.zsh/completions/_lifesignal
        lifesignal completion fish > ~/.config/fish/completions/lifesignal.fish
        .Ed
        .Pp
        bash loads the file through the bash-completion package
        .Po
        system-wide:
        .Pa /usr/share/bash-completion/completions/lifesignal
        .Pc ;
        without it, source the file from
        .Pa ~/.bashrc .
        zsh finds
        .Pa _lifesignal
        in any directory of
        .Va fpath
        that is added before
        .Ic compinit
        runs
        .Po
        system-wide:
        .Pa /usr/local/share/zsh/site-functions
        .Pc .
        fish also reads
        .Pa /usr/share/fish/vendor_completions.d/lifesignal.fish .

        """

    /// SEE ALSO: the tools the examples use.
    static let seeAlso = """
        .Sh SEE ALSO
        .Xr crontab 1 ,
        .Xr flock 1 ,
        .Xr jq 1 ,
        .Xr crontab 5

        """
}
