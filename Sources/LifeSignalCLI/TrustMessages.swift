import LifeSignalApp
import LifeSignalCore

/// How the doubts and refusals about who speaks for whom read (see `Speakers`): what is
/// ignored, why, and the way out.
extension Warning {
    /// The message of one of the trust warnings (the others are worded in AppMessages.swift).
    var trustMessage: String? {
        switch self {
        case .watchersNotConfirmed(let named, let twice):
            let list = named.map { TerminalText.safeLine($0.name) }.joined(separator: ", ")
            let one = named.count == 1
            let them = one ? (named.first.map { TerminalText.argument($0.argument) } ?? "them") : "NAME"
            return
                "\(list) \(one ? "says" : "say") they watch over you, but you never added or confirmed \(one ? "them" : "any of them"): they are told of your missed check-ins and alerts, but their 'I'm on it' and vouches stop none of your alarms. Anyone who can write the circle folder can make such a link. If you know \(one ? "them" : "one") and want them, run 'lifesignal contacts confirm \(them)'; if not, 'lifesignal contacts remove \(them)'."
                + Warning.toldTwice(
                    twice, until: "you confirm or remove \(one ? "them" : "each")", from: "their device", "yours")
        case .notConfirmedBy(let names, let me, let twice):
            let list = names.map(TerminalText.safeLine).joined(separator: ", ")
            let one = names.count == 1
            return
                "\(list) \(one ? "has" : "have") not confirmed that you watch over \(one ? "them" : "each of them"): you are told of their missed check-ins and alerts, but your 'I'm on it' does not stop their escalation and you cannot vouch for them. Ask \(one ? "them" : "each") to run 'lifesignal contacts confirm \(TerminalText.argument(me))' on their device."
                + Warning.toldTwice(twice, until: one ? "they do" : "they all do", from: "your device", "theirs")
        case .recordsNotSigned(let name, let device, let path, let standing, let kept):
            let ignored = kept ? "ignored; what was verified of it before stands" : "ignored"
            return
                "records in \(name)'s folder are not signed by any device of \(name)'s (\(path), device \(device): \(standing.reason)): \(ignored). Whoever can write the circle folder may be trying to speak for \(name); ask \(name) to check 'lifesignal circle devices' on one of their machines. If these are \(name)'s real records (you never scanned their code, and another key was taken for them first), their code settles it: 'lifesignal contacts add CODE' with the code 'lifesignal contacts code' prints on their device."
        case .deviceNotYours(let device, let path, let standing, let waiting):
            if waiting {
                return
                    "device \(device) asks to be enrolled with the code this device made; it is accepted on this device's next write ('lifesignal notify deliver' here, or cron), and counts from then on."
            }
            return
                "a device that is not yours claims to be you: \(path) (device \(device): \(standing.reason)). Its records are ignored here, and by every member who took your key from your code; a member who never scanned your code (you added them, or your link predates signed records) may have taken this one first: ask them to run 'lifesignal contacts add' with your code ('lifesignal contacts code'), which settles it. If you set up a new device, enroll it ('lifesignal circle enroll' here, then 'lifesignal init --circle DIR --member CODE' there); if not, someone who can write your circle folder is trying to speak for you: check who has access to it."
        case .recordsRolledBack(let name, let device, let path, let seq, let verified, let kept):
            let whose = name.map { "\($0)'s" } ?? "your"
            let stands =
                kept
                ? "what was verified here before stands until that device writes again"
                : "nothing of that device counts here until it writes again"
            return
                "an older copy of \(whose) records was put back in the circle (\(path), device \(device): it holds \(seq) records, fewer than the \(verified) verified here before): a sync or the git host rolled it back. It is not believed; \(stands)."
        case .thisDeviceRevoked(let by, let at):
            return
                "this device was revoked by your device \(by) on \(Self.utc(at)): what it records counts for nobody in your circle. If that was a mistake, set this machine up again with an enrollment code from another of your devices ('lifesignal circle enroll')."
        case .moreNotBelieved(let name, let count):
            let folder = name.map { "\($0)'s folder" } ?? "your folder"
            return
                "and \(count) more logs in \(folder) count for nothing, for reasons like those above; they are not named one by one. 'lifesignal circle devices' lists them all; someone who can write the circle folder may have put them there."
        case .devicesContested(let name, let groups, let taken):
            let sets = groups.map { "{" + $0.map { String($0.prefix(8)) }.joined(separator: ", ") + "}" }
            let counted =
                taken.map { set in
                    "Until it is settled, lifesignal counts the devices {\(set.map { String($0.prefix(8)) }.joined(separator: ", "))}, the ones that checked in least recently, so that nobody can make a silent \(name) look fine"
                } ?? "None of them has checked in, so none counts"
            return
                "\(groups.count) sets of devices claim to be \(name), and neither vouches for the other: \(sets.joined(separator: " and ")). One of them is someone else's, and you never scanned \(name)'s code to tell which. \(counted). Settle it: ask \(name) for their code, by a way other than this circle ('lifesignal contacts code' on their device), and run 'lifesignal contacts add CODE' with it."
        case .devicesRevokedEachOther(let name, let devices, let thisDevice):
            let which = devices.map { String($0.prefix(8)) }.joined(separator: " and ")
            guard let name else {
                let whose = thisDevice ? "this device and your other device" : "your devices"
                return
                    "\(whose) (\(which)) revoked each other, each before it saw the other's revocation: neither counts for you in your circle, so your check-ins count for nothing there until you settle it. With your recovery code, on a machine you hold: 'lifesignal init --circle DIR --member RECOVERY-CODE' in a new data directory, then 'lifesignal circle revoke' the lost device there."
            }
            return
                "\(name)'s devices \(which) revoked each other, each before it saw the other's revocation: neither counts, so \(name)'s new check-ins count for nothing here until \(name) settles it with their recovery code ('lifesignal init --circle DIR --member RECOVERY-CODE' on a machine they hold, then 'lifesignal circle revoke' the lost device). One of these devices may be in someone else's hands: ask \(name) which, by a way other than this circle."
        case .olderVersion(let name, let device):
            let whose = name.map { "\($0)'s device \(device)" } ?? "your device \(device)"
            return
                "\(whose) runs an older lifesignal that does not sign its records: they are believed as before until it signs. Upgrade lifesignal there."
        case .keysPinnedOnFirstSight(let names):
            return
                "took the device keys of \(names.joined(separator: ", ")) on first sight: you never scanned a code of theirs (they added you, or the link predates signed records), so there was no key to compare with. Compare the fingerprints in 'lifesignal circle devices' with theirs (on their machine) once."
        case .tapIgnored(let name, let at, let verdict):
            let why: String
            switch verdict {
            case .counts: why = "it counts"
            case .unknown: why = "its token is not one that a device of \(name)'s handed out"
            case .used(let first): why = "its token was used already, at \(Self.utc(first))"
            case .expired(let issued):
                why = "its token was handed out on \(Self.utc(issued)) and was good for \(PhoneCheckIns.validity.short)"
            case .withdrawn(let at):
                why =
                    "its button was withdrawn at \(Self.utc(at)), when the topic it was sent to changed or became readable by the circle"
            }
            return
                "a check-in posted to \(name)'s inbox at \(Self.utc(at)) changed nothing: \(why). A replay or a forgery does no harm; if \(name) tapped an old button, they should check in again."
        case .enrollmentCodeUsedTwice(let devices):
            return
                "the enrollment code this device made was used by more than one device (\(devices.joined(separator: ", "))), so someone else saw it: none was enrolled, and the code is forgotten. To enroll your new device, make a new code ('lifesignal circle enroll') and set it up again in a new --home."
        case .ownLogDamaged(let damage, let rewritten):
            let after =
                rewritten
                ? "this write wrote them again from that copy and kept the damaged file as \(damage.keptAs)"
                : "the next change (a check-in, or cron's 'lifesignal notify deliver') writes them again from that copy and keeps the damaged file aside"
            return
                "this device's own records (\(damage.path)) are damaged: \(damage.problem). They were not believed; the copy this device signed, \(damage.copy) (through record \(damage.seq)), was read in their place, and \(after). Anything recorded after that copy is lost; check the disk (a flipped bit) or who edited the file."
        case .trustMemoryDamaged(let path):
            return
                "what this device verified before (\(path)) was damaged or could not be read, so none of it was believed: every log was verified again from the circle, and the file is written anew if it can be read (one that cannot, for its permissions or the disk, is left as it is and said again until that is fixed). Only a rollback of someone's records made before now could go unseen meanwhile; if it happens again, check the disk."
        case .recordsLeftOut, .moreLeftOut, .cannotSign, .newerRecords, .foreignRecords, .publishedCopy,
            .historyIncomplete,
            .neverCheckedIn, .noResponders, .respondersUnreachable, .noDelivery, .channelFailing, .heartbeatFailing,
            .staleRecords, .cannotConfirm, .checkInAheadOfClock, .futureCheckIn, .ownRecordsRestored,
            .toldOnlyByThisDevice:
            return nil
        }
    }

    /// " Until …, Sam may hear of each of their alarms twice: from X and from Y." (issue #43), or
    /// nothing when no external responder would.
    static func toldTwice(_ names: [String], until: String, from one: String, _ other: String) -> String {
        guard !names.isEmpty else { return "" }
        let list = names.map(TerminalText.safeLine).joined(separator: ", ")
        return " Until \(until), \(list) may hear of each alarm twice: from \(one) and from \(other)."
    }

    /// The same, as the end of a `doctor` finding about a watcher the person never confirmed.
    static func toldTwiceClause(_ names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let list = names.map(TerminalText.safeLine).joined(separator: ", ")
        return
            "; until you confirm or remove them, \(list) may hear of each alarm twice (from their device and from yours)"
    }
}

extension Speakers.Standing {
    /// Why a log does not count, in words.
    var reason: String {
        switch self {
        case .trusted: return "signed by a device that speaks for them"
        case .olderVersion: return "not signed, written by an older lifesignal"
        case .notSigned: return "not signed, although their devices sign"
        case .badSignature(let problem): return problem
        case .notEnrolled: return "signed by a key none of their devices enrolled"
        case .revoked(let stamp):
            return "revoked by device \(stamp.device) on \(Warning.utc(stamp.at)), and written to since"
        case .retired(let stamp):
            return
                "revoked by device \(stamp.device) on \(Warning.utc(stamp.at)); what it wrote before still counts while it writes nothing more"
        case .undecided:
            return
                "their signed devices do not vouch for each other, and no key was pinned to tell which are theirs"
        case .rolledBack(let seq, let verified):
            return
                "it holds \(seq) records, fewer than the \(verified) verified here before: an older copy was put back (a sync or the git host rolled it back)"
        }
    }
}

extension SetUpRefusal {
    /// The message of a refusal of `init --member` about codes and devices.
    var trustMessage: String? {
        switch self {
        case .inviteCodeMakesNoDevice(let name):
            let whose = name.map { "\($0)'s" } ?? "a member's"
            return
                "that is \(whose) invite code, which links contacts; it does not make a device. To make this machine another device of theirs, run 'lifesignal circle enroll' on one of their devices and use the code it prints here: lifesignal init --circle DIR --member CODE"
        case .memberNotInCircle(let member, let circle):
            return
                "member \(member) has no records in \(circle). Check the folder (it must be the one their devices use) and that their records have synced."
        case .recoveryCodeNotCurrent(let name):
            return
                "this recovery code is not the one \(name)'s devices name: a newer recovery code replaced it, or it was mistyped. Check it, or enroll this machine from one of \(name)'s devices ('lifesignal circle enroll')."
        case .notACode(let text):
            return
                "\(TerminalText.safeLine(text)) is not a code lifesignal reads: give an enrollment code ('lifesignal circle enroll' on one of the member's devices prints one) or a recovery code."
        case .alreadySetUp, .circleNotAFolder, .circleLinkBroken:
            return nil
        }
    }
}

extension DeviceRefusal {
    var message: String {
        switch self {
        case .unknownDevice(let text, let known):
            let list = known.isEmpty ? "none are known here" : "yours: " + known.joined(separator: ", ")
            return
                "\(TerminalText.safeLine(text)) is not one device of yours (\(list)); give its id, or enough of its start to name one (see 'lifesignal circle devices')."
        case .cannotRevokeThisDevice:
            return
                "this device cannot revoke itself: run 'lifesignal circle revoke' on another of your devices (or stop using this one and remove its data directory)."
        case .alreadyRevoked(let device, let at):
            return "device \(device) was revoked already, on \(Warning.utc(at))."
        case .thisDeviceIsRevoked(let by, let at):
            return
                "this device was revoked by your device \(by) on \(Warning.utc(at)), so it speaks for nobody and cannot revoke another: a revocation recorded here would count for nothing. If this device is yours and the other one was lost, settle it with your recovery code: on a machine you hold, 'lifesignal init --circle DIR --member RECOVERY-CODE' in a new data directory, then 'lifesignal circle revoke' the lost device there."
        }
    }
}
