import LifeSignalApp
import LifeSignalCore

/// How the use cases' refusals read to a person. The application layer says what was wrong as
/// data (`AppError`); this is where it becomes a sentence and a `CLIError` (and so an exit code).
extension AppError {
    /// The CLI error for this, on the command at `path` at the time `now`.
    func cliError(path: [String], now: Timestamp) -> CLIError {
        switch self {
        case .store(let error): return .store(error)
        case .unavailable(let problem): return .unavailable(problem.message)
        case .sentButNotRecorded(let error, let sent, let due):
            let notifications = due == 1 ? "1 notification that was due" : "\(due) notifications that were due"
            let again = "once the disk is fixed (receivers can drop duplicates by their id)"
            switch sent {
            case _ where due == 0: return .store(error)
            case 0:
                return .storeWithNote(
                    error, "None of the \(notifications) could be sent either; they are tried again \(again).")
            case due:
                return .storeWithNote(
                    error,
                    "Still, \(notifications) \(due == 1 ? "was" : "were") sent; since that could not be recorded, they will be sent again \(again)."
                )
            default:
                return .storeWithNote(
                    error,
                    "Still, \(sent) of the \(notifications) were sent; since that could not be recorded, all are sent again \(again)."
                )
            }
        case .refused(let refusal):
            // Options that do not fit the contact they were given for are usage errors.
            switch refusal {
            case .contact(.memberNamesThemselves), .contact(.addressesAreForExternals):
                return .usage(message: refusal.message(now: now), command: path)
            case .setting, .setUp, .contact, .ping, .feed, .sync, .devices:
                return .invalidValue(refusal.message(now: now))
            }
        }
    }
}

extension Unavailable {
    var message: String {
        switch self {
        case .qrencodeMissing:
            return
                "qrencode is not installed, so no QR code can be drawn; install it (e.g. apt install qrencode) or share the code above"
        case .qrencodeFailed(let said): return "qrencode failed: \(said); the code above still works"
        case .qrencodeCannotRun(let reason): return "could not run qrencode: \(reason)"
        case .git(let problem):
            return
                "\(problem). Nothing of yours was lost: your records stay committed here and the next 'lifesignal circle sync' tries again"
        }
    }
}

extension SyncRefusal {
    var message: String {
        switch self {
        case .notARepository(let circle):
            return
                "\(circle) is neither a git work tree nor a Syncthing folder, so 'circle sync' has nothing to drive. To share it through git: cd \(circle) && git init && git remote add origin URL (or clone the shared repository and run 'lifesignal init --circle' on the clone); with Syncthing, share the folder and it syncs by itself"
        case .noRemote(let circle):
            return
                "the git work tree \(circle) has no remote 'origin'; add it with: git -C \(circle) remote add origin URL"
        case .detachedHead(let circle):
            return "the git work tree \(circle) is on no branch; check one out with: git -C \(circle) switch main"
        case .syncthing(let problem):
            return
                "\(problem). Nothing was changed; check the URL (Syncthing's GUI address, e.g. http://127.0.0.1:8384) and that the key file holds the API key shown in Syncthing's settings"
        case .holdTooShort(let hold, let minimum):
            return
                "a hold of \(hold.short) is shorter than the \(minimum.short) a watcher already waits for the person's own device to tell their responders; give \(minimum.short) or more (the default is \(SyncView.defaultHold.short))"
        }
    }
}

extension Refusal {
    func message(now: Timestamp) -> String {
        switch self {
        case .setting(let error): return error.message
        case .sync(let refusal): return refusal.message
        case .setUp(let refusal): return refusal.message
        case .contact(let refusal): return refusal.message
        case .ping(let refusal): return refusal.message(now: now)
        case .feed(let refusal): return refusal.message
        case .devices(let refusal): return refusal.message
        }
    }
}

extension Rules.SettingError {
    /// A reminder lead that an interval accepts: the default when it is shorter, else half the
    /// interval in whole minutes.
    static func fittingReminder(for interval: TimeSpan) -> TimeSpan {
        if let lead = Rules.defaultReminder, lead < interval { return lead }
        return TimeSpan(seconds: max(60, interval.seconds / 2 / 60 * 60))
    }

    var message: String {
        switch self {
        case .intervalOutOfRange(let span):
            return
                "an interval of \(span) is outside the accepted range \(Rules.intervalRange.lowerBound)–\(Rules.intervalRange.upperBound); choose e.g. 8h, 16h, 24h or 48h"
        case .reminderNotShorter(let reminder, let interval):
            let fits = Self.fittingReminder(for: interval)
            return
                "the reminder (\(reminder) before the deadline) must be shorter than the interval (\(interval)); set a shorter reminder first with 'lifesignal checkin reminder \(fits)' (with init: --reminder \(fits)), or turn it off with 'lifesignal checkin reminder off'"
        case .notInFuture(let time):
            return
                "\(time.rfc3339) is not in the future; give a later time (2026-12-24T18:00:00Z) or a duration from now (3h, 14d)"
        case .pauseTooLong(let span, let limit):
            return
                "a pause of \(span.short) is longer than \(limit.short): for that long nobody would be told if something happened to you. If that is what you want, add --yes (or raise the limit with 'lifesignal checkin pause-limit')"
        case .tripTooLong(let span, let limit):
            return
                "a trip of \(span.short) is longer than \(limit.short): if something happened to you on the way, nobody would be told until its end. Check the time you gave; if that is what you want, add --yes (or raise the limit with 'lifesignal checkin pause-limit')"
        case .notPaused:
            return "your check-ins are not paused; see where you stand with 'lifesignal checkin status'"
        case .emergencyNoteTooLong(let count):
            return
                "the emergency note has \(count) characters; keep it to \(ProfileDetails.noteLimit), what a responder needs at a glance (e.g. \"diabetic; spare key with the neighbour at no. 12\")"
        case .privateTopicInCircle(let url):
            return
                "'\(TerminalText.safeLine(url))' is a phone or button topic of this device: in the circle folder, everyone in your circle could read the tokens of its buttons. Use another topic here, or first remove that one ('lifesignal checkin inbox …' without --phone, or 'lifesignal contacts edit NAME --button-topic off')"
        case .notAPhoneTopic(let url, let problem):
            return
                "'\(TerminalText.safeLine(url))' cannot be your phone topic: \(problem). Give an ntfy topic that only your phone subscribes to, with a long random name nobody else knows (ntfy:https://ntfy.sh/ followed by at least \(Address.privateTopicLength) random letters and digits)"
        case .notAnInbox(let url, let problem):
            return
                "'\(TerminalText.safeLine(url))' cannot be your inbox: \(problem). Give an ntfy topic URL with a long, secret topic name, e.g. ntfy:https://ntfy.sh/alice-7f3k9q2m (anyone who knows it can post there, and only your one-time tokens count)"
        case .repeatOutOfRange(let span):
            return
                "alarms cannot repeat every \(span.short): choose from \(Repeats.shortest.short) to \(Repeats.longest.short) (e.g. 1h, the default, or 30m), or 'off' to tell each alarm once"
        case .graceTooLong(let span):
            return
                "a grace of \(span.short) is longer than \(Escalation.longestGrace.short): for that long after a missed deadline nobody but you would be told. Choose e.g. 30m or 2h, or 'off'"
        case .escalationOutOfRange(let span):
            return
                "tiers cannot be \(span.short) apart: choose from \(Escalation.delays.lowerBound.short) to \(Escalation.delays.upperBound.short) (e.g. 1h, the default, or 30m)"
        case .unusableZone(let zone, let reason):
            return
                "the time zone '\(zone)' cannot be used: \(reason). Give a zone name such as Europe/London or America/New_York with --tz (the names are the files under /usr/share/zoneinfo; install tzdata if there are none)"
        }
    }
}

extension SetUpRefusal {
    var message: String {
        switch self {
        case .alreadySetUp(let member):
            return
                "this data directory is already set up (member \(member)); use a new data directory (--home) for another device"
        case .circleLinkBroken(let path):
            return
                "\(TerminalText.safeLine(path)) is a link to a folder that is not there (a drive not mounted, a folder moved): mount or mend it, or give another --circle. Nothing was changed"
        case .circleNotAFolder(let path):
            return
                "\(TerminalText.safeLine(path)) is a file, not a folder: --circle takes the folder your circle shares (Syncthing, git, a shared drive). Nothing was changed"
        case .inviteCodeMakesNoDevice, .memberNotInCircle, .recoveryCodeNotCurrent, .notACode:
            return trustMessage ?? ""
        }
    }
}

extension ContactRefusal {
    var message: String {
        switch self {
        case .notFound(let text, let contacts):
            let names = contacts.map(\.name)
            let hint =
                Suggest.closest(to: text, among: names).map { " Did you mean '\($0)'?" }
                ?? (names.isEmpty ? " You have no contacts yet." : " See 'lifesignal contacts list'.")
            return "No contact matches '\(text)'." + hint
        case .ambiguous(let text, let candidates):
            let list = candidates.map { contact in
                let doubt = Render.unconfirmed(contact).map { "  (\($0))" } ?? ""
                return "  \(contact.name)  \(contact.id)\(doubt)"
            }.joined(separator: "\n")
            return "'\(text)' matches more than one contact; give more of the id:\n\(list)"
        case .unknownCode(let text):
            return
                "No LifeSignal user found for this QR code: \(text). The code may have been reset, or their records have not reached your circle folder yet (check the sync)."
        case .codeNotSigned(let text):
            return
                "the records in the circle for the code \(TerminalText.safeLine(text)) are not signed by the device that gave you this code, so they may not be the person's: someone who can write the circle folder may have copied it. Ask them for their code again ('lifesignal contacts code') and check that their records have synced."
        case .cannotAddSelf: return "Cannot add yourself as a contact."
        case .alreadyLinked(let name, let unconfirmed):
            guard unconfirmed else { return "\(name) is already in your contacts." }
            return
                "\(name) is already in your contacts: they linked with you, saying they watch over you. To confirm it, run 'lifesignal contacts confirm \(TerminalText.argument(name))'."
        case .duplicateExternalName(let name):
            return
                "You already have a contact named \(name); choose another name or edit that one with 'lifesignal contacts edit'."
        case .noRoleLeft(let name):
            return
                "This contact must have at least one role. To remove \(name) completely, use 'lifesignal contacts remove \(name)'."
        case .memberNamesThemselves(let name):
            return "--name is for external contacts; \(name) names themselves in their own lifesignal."
        case .addressesAreForExternals(let name):
            return
                "--notify, --email, --phone and --button-topic are for external contacts; \(name) is a member of your circle."
        case .notAButtonTopic(let url, let problem):
            return
                "'\(TerminalText.safeLine(url))' cannot be a button topic: \(problem). Give an ntfy topic that only this person subscribes to, with a long random name nobody else knows (ntfy:https://ntfy.sh/ followed by at least \(Address.privateTopicLength) random letters and digits)"
        case .tierOutOfRange(let tier): return "a tier is 1 to 9, not \(tier)."
        case .tierIsForResponders(let name):
            return
                "--tier orders your responders; \(name) is not one of them. Give them the responder role too with --responder."
        case .externalCannotBeDependent:
            return
                "An external contact can be a responder but not a dependent: they have no lifesignal whose check-ins you could watch."
        case .confirmIsForWatchers(let name, let external, let theyWaitForYou):
            if external {
                return
                    "\(name) is an external contact, whom you added yourself: only a member who says they watch over you can need your confirmation. See 'lifesignal contacts list'"
            }
            if theyWaitForYou {
                return
                    "\(name) does not say they watch over you: you watch over them, and only they can confirm that, on their device ('lifesignal contacts confirm' with your name)"
            }
            return
                "\(name) does not say they watch over you, so there is nothing of theirs to confirm: you watch over them. See 'lifesignal contacts show \(name)'"
        case .vouchNeedsConfirmation(let name):
            return
                "\(name) has not confirmed that you watch over them, so your vouch would end nothing: anyone who can write the circle folder can claim to watch over someone. Reach \(name) and ask them to check in, or to run 'lifesignal contacts confirm' with your name on their device; 'lifesignal notify ack' does not count for them either until then"
        case .vouchIsForDependents(let name, let external):
            if external {
                return
                    "you can vouch only for someone you watch over; \(name) is an external contact, who has no lifesignal and no check-ins to vouch for"
            }
            return
                "you can vouch only for someone you watch over, and you do not watch over \(name); link as their responder first ('lifesignal contacts add CODE --dependent' with their code)"
        case .notMissed(let name, let deadline):
            let when = deadline.map { " (their deadline is \(Warning.utc($0)))" } ?? ""
            return
                "\(name) has not missed a check-in\(when): a vouch ends a miss, and there is none to end. If you want to know how they are, ping them: lifesignal ping send \(name)"
        case .vouchTooLate(let name, let deadline, let window):
            return
                "\(name) missed the check-in due \(Warning.utc(deadline)) more than \(window.short) ago, and a vouch is for a miss happening now: it would end nothing. Reach \(name) and ask them to check in themselves, or tell those watching over them what you know"
        case .vouchedTooOften(let name, let count):
            return
                "\(name)'s last \(count) missed check-ins were each ended by a vouch, so this one cannot be: nobody may keep a switch quiet for long. Reach \(name) and ask them to check in themselves ('lifesignal checkin', or the \"I'm OK\" button on their phone)"
        }
    }
}

extension PingRefusal {
    func message(now: Timestamp) -> String {
        switch self {
        case .external(let name):
            return
                "Only members of your circle can be pinged; \(name) is an external contact with no lifesignal to answer from."
        case .notDependent(let name):
            return
                "This contact must have the Dependent role to be pinged. Add it with 'lifesignal contacts edit \(name) --dependent' (they will see you as their responder)."
        case .alreadyPending(let name, let sent):
            return
                "You already pinged \(name) \(DependentStatus.ago(sent, now)) and that ping is still pending. Clear it with 'lifesignal ping clear \(name)' to send a new one."
        case .noneFrom(let name): return "No active ping found from \(name)."
        case .noneTo(let name): return "You have no pending ping to \(name)."
        }
    }
}

extension FeedRefusal {
    var message: String {
        switch self {
        case .notFound(let text):
            return "No notification has the id '\(text)'; see the ids with 'lifesignal notify list --all'."
        case .ambiguous(let text, let count): return "'\(text)' matches \(count) notifications; give more of the id."
        case .noChannels(let name?): return "\(name) has no channels to test."
        case .noChannels(nil):
            return
                "You have no channels yet; add one with 'lifesignal notify prefs --channel URI' (e.g. desktop:, mailto:you@example.org, ntfy:https://ntfy.sh/TOPIC)."
        case .notConfirmed(let name):
            return
                "\(name) has not confirmed that you watch over them, so your 'I'm on it' would stop nothing: their other responders go on being told. Reach \(name) yourself; to make your acknowledgements count, ask them to run 'lifesignal contacts confirm' with your name on their device."
        case .notAcknowledgeable(let text):
            return
                "notification \(text) is not about someone's missed check-in or alert; acknowledge one of those (see 'lifesignal notify list --category alerts' and '--category check-ins')."
        case .noHeartbeat(let url, let known):
            let list = known.isEmpty ? "you have none" : "yours: " + known.joined(separator: ", ")
            return
                "\(url) is not one of your heartbeat URLs (\(list)); see them with 'lifesignal notify heartbeat list'."
        }
    }
}

extension Warning {
    var message: String {
        switch self {
        case .recordsLeftOut(let problem):
            return
                "left out another device's records, which cannot be read: \(problem.summary). They are read again once that device or the sync rewrites the file."
        case .moreLeftOut(let count):
            return
                "and \(count) more of other devices' files cannot be read either; they were left out too. 'lifesignal doctor' checks the circle; look at the folder your circle syncs."
        case .newerRecords(let log):
            let what = log.events > 0 ? "\(log.events) event(s)" : "records"
            return
                "device \(log.device) of member \(log.member) holds \(what) written by \(log.writer ?? "a newer lifesignal") that this lifesignal \(Release.version) does not know; they are kept but not counted. Upgrade lifesignal to count them."
        case .foreignRecords(let log):
            let what = log.kinds.joined(separator: ", ")
            return
                "the records of device \(log.device) in member \(log.member)'s folder (members/\(log.member)/\(log.device)/log.json) claim \(what) about other members; a device speaks only for its own member, so they were ignored (the file keeps them). Whoever can write the circle folder wrote them: check who has access to it."
        case .publishedCopy(let problem, let path, let republished):
            return Self.message(problem, path: path, republished: republished)
        case .cannotSign(let error):
            guard case .deviceKey(let path, let problem) = error else { return error.message }
            return
                "this device's signing key \(path) \(problem): every check-in and 'notify deliver' here fails, so nothing due is sent from this machine. \(StoreError.deviceKeyRemedy)."
        case .recordsNotSigned, .deviceNotYours, .thisDeviceRevoked, .devicesRevokedEachOther, .devicesContested,
            .moreNotBelieved,
            .olderVersion,
            .keysPinnedOnFirstSight,
            .enrollmentCodeUsedTwice, .recordsRolledBack, .tapIgnored, .watchersNotConfirmed, .notConfirmedBy,
            .ownLogDamaged, .trustMemoryDamaged:
            return trustMessage ?? ""
        case .checkInAheadOfClock(let at, let clock):
            return
                "this check-in is stamped \(Self.utc(at)), later than this machine's clock (\(Self.utc(clock))): no device counts it until then, so your deadline still counts from your previous check-in. Unset LIFESIGNAL_NOW, or set the clock right."
        case .futureCheckIn(let at, let device, let now, let counting):
            let from = counting.map { "the check-in of \(Self.utc($0))" } ?? "no check-in"
            return
                "a check-in stamped \(Self.utc(at)) by device \(device.prefix(8)) is \((at - now).short) ahead of this clock (\(Self.utc(now))); it does not count until then, so your deadline counts from \(from). Check that device's clock (or LIFESIGNAL_NOW)."
        case .toldOnlyByThisDevice(let name):
            return
                "\(name) can be told only by this device: exec: and desktop: channels run only on the device that set them, never on your other devices or your responders' machines, so when this one is off, \(name) hears nothing. Add an e-mail, ntfy, https or apprise: channel with 'lifesignal contacts edit \(name) --notify URI …'."
        case .ownRecordsRestored(let paths):
            return
                "a commit from the remote had changed this device's own records (\(paths.joined(separator: ", "))); they were put back as this device wrote them. Find out which machine wrote them: another data directory may be using this device's identity."
        case .historyIncomplete(let directory, let first, let last):
            return
                "events \(first)–\(last) of your records are in no archive file, in \(directory) or in the circle's copy, so the history shown lacks what they held. Restore the missing files of that folder from a backup if you have one."
        case .neverCheckedIn:
            return
                "you have never checked in, so there is no deadline and nobody would be told anything; run 'lifesignal checkin' to start your countdown."
        case .noResponders:
            return
                "nobody watches over you: you have no responders, so a missed check-in or an alert reaches nobody. Add one with 'lifesignal contacts add'."
        case .respondersUnreachable(let names):
            return
                "none of your responders can be reached (\(names.joined(separator: ", "))): an external contact needs a channel ('lifesignal contacts edit NAME --notify URI'), a member needs 'lifesignal notify deliver' in the crontab of one of their machines."
        case .noDelivery(let last, let within):
            let when = last.map { "since \(Self.utc($0))" } ?? "ever"
            return
                "no device of yours has run 'lifesignal notify deliver' \(when) (expected within \(within.short)), so nothing due is sent; add it to your crontab (see 'man lifesignal', EXAMPLES) or run 'lifesignal doctor'."
        case .channelFailing(let channel, let since, let error, let waiting):
            let what = waiting == 1 ? "1 notification waits" : "\(waiting) notifications wait"
            return
                "delivery through \(channel) has been failing since \(Self.utc(since)) (\(error)); \(what) for it. Check it with 'lifesignal notify test'."
        case .cannotConfirm(let name, let deadline, let changed, let problem, let relayAt):
            let copy =
                changed.map { "your copy of the circle last changed \(Self.utc($0))" }
                ?? "nothing in your copy of the circle comes from another device"
            let sync = problem.map { " and \($0)" } ?? ""
            return
                "cannot tell whether \(name) missed the check-in due \(Self.utc(deadline)): \(copy)\(sync), so it may not hold a check-in made since. Check the sync ('lifesignal circle status'). \(name)'s responders are told at \(Self.utc(relayAt)) anyway, marked unconfirmed, unless this copy is confirmed current before."
        case .staleRecords(let name, let last):
            return
                "\(name)'s records here last changed \(Self.utc(last)): is the sync running? Check the folder your circle syncs (or 'lifesignal circle sync'), and ask \(name)."
        case .heartbeatFailing(let url, let since, let error):
            return
                "the heartbeat \(url) has been failing since \(Self.utc(since)) (\(error)); the service it reports to may raise a false alarm, or none when it should. Check the URL with 'lifesignal notify heartbeat list'."
        }
    }

    static func utc(_ time: Timestamp) -> String { time.local(utcOffset: 0) + " UTC" }
}

extension Warning {
    /// What happened to the circle's copy of my records, and what was (or will be) done.
    static func message(_ problem: PublishedCopy, path: String, republished: Bool) -> String {
        let fix =
            republished
            ? "this machine's own copy was published again, so your circle sees all of your records"
            : "the next write ('lifesignal checkin', 'lifesignal notify deliver') publishes this machine's own copy again"
        switch problem {
        case .missing:
            return "your records were missing from the circle (\(path)); \(fix)."
        case .older(let published, let own):
            return
                "the circle held an older copy of your records (\(path): \(published) events, this machine has \(own)), put back by a sync tool or a restore; \(fix)."
        case .damaged(let error):
            return "the circle's copy of your records is damaged (\(error.summary)); \(fix)."
        case .notOurs(let published):
            return
                "the circle's copy of your records (\(path), \(published) events) is not this machine's: it is ahead of this machine's own copy or differs from it. Another data directory writes as this device, this one was restored from an older backup, or someone who can write the circle folder changed it; \(fix). If another data directory acts as this device, give it a device of its own ('lifesignal init --circle DIR --member CODE' with a new --home)."
        case .notWritten(let since, let error):
            return
                "this machine could not write your records into the circle from \(utc(since))\(error.map { " (\(TerminalText.safeLine($0)))" } ?? ""), so the circle's copy (\(path)) \(republished ? "was" : "is") behind this machine's; \(fix)."
        case .notAFolder:
            return
                "your device's folder in the circle (\(Paths.parent(of: path))) was a symbolic link or a file, and lifesignal reads and writes nothing in the circle through one; \(fix) into a real folder in its place."
        }
    }
}
