import LifeSignalApp
import LifeSignalCore

/// A command's result, as its `--json` document. `Output.json` takes nothing else, so every
/// document is the one rendering of a result type, written beside its human lines: in the
/// command's file when one command prints it, here when several do.
protocol JSONRendered {
    var json: JSON { get }
}

/// A result whose document counts from the run's time (an active alert's duration).
protocol JSONRenderedAt {
    func json(now: Timestamp) -> JSON
}

/// A check-in status, as `status`, `checkin`, `checkin status` and every settings command give it.
extension CheckInStatus: JSONRendered {
    var json: JSON {
        [
            "state": .string(phase.rawValue),
            "lastCheckIn": lastCheckIn.json {
                [
                    "at": .string($0.at.rfc3339), "note": .optional($0.note), "device": .string($0.stamp.device),
                    "fromPhone": .bool($0.fromPhone),
                ]
            },
            "deadline": .optional(deadline?.rfc3339), "secondsLeft": .optional(timeLeft?.seconds),
            "reminderAt": .optional(reminderAt?.rfc3339), "intervalSeconds": .int(interval.seconds),
            "reminderSeconds": .optional(reminder?.seconds), "repeatSeconds": .optional(repeatEvery?.seconds),
            "vouch": vouch.json {
                [
                    "by": .string($0.by), "at": .string($0.at.rfc3339), "missed": .string($0.deadline.rfc3339),
                    "note": .optional($0.note),
                ]
            },
            "vouchedInARow": .int(Int64(vouchedInARow)), "clockBehind": .bool(clockBehind),
            // Which schedule is in force, its details, and what happens next.
            "schedule": .string(
                pause != nil ? "paused" : trip != nil ? "trip" : schedule != nil ? "daily" : "interval"),
            "daily": schedule.json {
                [
                    "times": .array($0.times.map { .string($0.description) }),
                    "days": .array($0.days.map { .string(DailySchedule.dayNames[Int($0)]) }), "zone": .string($0.zone),
                ]
            },
            "next": next.json { ["event": .string($0.what), "at": .string($0.at.rfc3339)] },
            "pause": pause.json {
                [
                    "since": .string($0.stamp.at.rfc3339), "until": .string($0.value.until.rfc3339),
                    "note": .optional($0.value.note),
                ]
            },
            "trip": trip.json {
                [
                    "since": .string($0.stamp.at.rfc3339), "deadline": .string($0.value.deadline.rfc3339),
                    "note": .optional($0.value.note),
                ]
            },
            "futureCheckIn": futureCheckIn.json { ["at": .string($0.at.rfc3339), "device": .string($0.stamp.device)] },
        ]
    }
}

extension Optional {
    /// The value rendered, or null when there is none.
    func json(_ render: (Wrapped) -> JSON) -> JSON { map(render) ?? .null }
}

/// Shared pieces of output: how a check-in status looks to a person, and the parts of
/// documents several commands print (an alert, a ping, a contact, a warning).
enum Render {
    /// What the countdown runs from besides the last check-in: a pause, a trip, a vouch.
    static func countdownSource(_ status: CheckInStatus, session: Session) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let pause = status.pause {
            var text = "until \(session.when(pause.value.until)); then the countdown restarts"
            if let note = pause.value.note { text += "  “\(note)”" }
            rows.append(("Paused", text))
        }
        if let trip = status.trip {
            var text = "deadline \(session.local(trip.value.deadline)), until your next check-in"
            if trip.value.note != nil { text += "; its note goes to your responders only if you miss it" }
            rows.append(("Trip", text))
        }
        if let vouch = status.vouch {
            let note = vouch.note.map { "  “\($0)”" } ?? ""
            rows.append(
                ("Vouched", "\(session.when(vouch.at)), after the miss due \(session.local(vouch.deadline))\(note)"))
        }
        return rows
    }

    /// The lines of a check-in status, label column aligned.
    static func checkInLines(_ status: CheckInStatus, session: Session) -> [String] {
        let o = session.output
        var rows: [(String, String)] = []
        switch status.phase {
        case .noCheckIn: rows.append(("Status", o.yellow("no check-in yet")))
        case .ok: rows.append(("Status", o.green("on time")))
        case .dueSoon: rows.append(("Status", o.yellow("due soon")))
        case .overdue: rows.append(("Status", o.red(o.bold("OVERDUE"))))
        case .paused: rows.append(("Status", o.yellow("paused")))
        }
        rows += countdownSource(status, session: session)
        if let last = status.lastCheckIn {
            var text = session.when(last.at)
            if last.fromPhone { text += ", from the phone (the \"I'm OK\" button)" }
            if let note = last.note { text += "  “\(note)”" }
            rows.append(("Last check-in", text))
        }
        if let deadline = status.deadline, let left = status.timeLeft {
            rows.append(("Deadline", session.when(deadline)))
            if left.seconds < 0 {
                rows.append(("Overdue by", o.red((-left).short)))
            } else {
                rows.append(("Time left", left.short))
            }
        }
        if let reminder = status.reminder {
            if let at = status.reminderAt {
                rows.append(("Reminder", "\(session.when(at)), \(reminder) before the deadline"))
            } else {
                rows.append(("Reminder", "\(reminder) before the deadline"))
            }
        } else {
            rows.append(("Reminder", "off"))
        }
        if let schedule = status.schedule {
            rows.append(("Schedule", "by \(schedule.description)"))
        } else {
            rows.append(("Interval", status.interval.description))
        }
        var lines = rows.map { label, value in label.padding(to: 16) + value }
        if status.phase == .noCheckIn {
            lines.append("Run 'lifesignal checkin' to start your countdown.")
        } else if status.phase == .overdue {
            lines.append("Check in now with 'lifesignal checkin'.")
        }
        return lines
    }

    /// The exit code a status command returns for a phase.
    static func exitCode(for phase: CheckInStatus.Phase) -> ExitCode {
        switch phase {
        case .noCheckIn, .ok, .paused: return .ok
        case .dueSoon: return .dueSoon
        case .overdue: return .overdue
        }
    }

}

extension Render {
    static func colored(_ status: DependentStatus, _ output: Output) -> String {
        switch status.kind {
        case .alert: return output.red(output.bold(status.text))
        case .nonResponsive, .unreadable: return output.red(status.text)
        case .pinged, .paused: return output.yellow(status.text)
        case .countdown, .noCheckIn: return status.text
        }
    }

    /// An alert (null when there is none), as every command shows it.
    static func alertJSON(_ alert: AlertRecord?, now: Timestamp) -> JSON {
        guard let alert, let start = alert.start else { return .null }
        let end = alert.end?.at
        return [
            "id": .string(alert.id), "message": .optional(alert.currentMessage), "startedAt": .string(start.at.rfc3339),
            "endedAt": .optional(end?.rfc3339), "durationSeconds": .int(((end ?? now) - start.at).seconds),
        ]
    }

    /// A ping, as every command shows it.
    static func pingJSON(_ view: PingView) -> JSON {
        [
            "id": .string(view.ping.id), "from": .string(view.ping.from), "to": .string(view.ping.to),
            "direction": .string(view.incoming ? "incoming" : "outgoing"), "with": .string(view.otherName),
            "sentAt": .string(view.sent.at.rfc3339), "state": .string(view.state.rawValue),
            "endedAt": .optional(view.ping.endStamp?.at.rfc3339),
        ]
    }

    static func dependentJSON(_ status: DependentStatus) -> JSON {
        [
            "kind": .string(status.kind.rawValue), "text": .string(status.text),
            "since": .optional(status.since?.rfc3339), "checkIn": status.checkIn.json,
        ]
    }

    /// A contact in JSON; with `status`, a member carries their live status as my dependent
    /// (null when they are not one).
    /// What a contact's link lacks: my confirmation of a responder, theirs of me as their
    /// responder (see 'contacts confirm').
    /// The names of a list, a name two share (anyone may take any name) told apart by the
    /// start of the id.
    static func distinct(names: [(name: String, id: String)]) -> [String] {
        var seen: [String: Int] = [:]
        for entry in names { seen[entry.name.lowercased(), default: 0] += 1 }
        return names.map { (seen[$0.name.lowercased()] ?? 0) > 1 ? "\($0.name) (\($0.id.prefix(8)))" : $0.name }
    }

    static func unconfirmed(_ contact: Contact) -> String? {
        if contact.roles.responder && !contact.confirmedByMe { return "not confirmed by you" }
        if contact.roles.dependent && !contact.confirmedByThem { return "has not confirmed you" }
        return nil
    }

    static func contactJSON(_ contact: Contact, status: DependentStatus?? = nil) -> JSONObject {
        var o = JSONObject([
            ("id", .string(contact.id)), ("name", .string(contact.name)), ("kind", .string(contact.kind.rawValue)),
            ("roles", ["responder": .bool(contact.roles.responder), "dependent": .bool(contact.roles.dependent)]),
            ("since", .string(contact.since.at.rfc3339)),
        ])
        if let tier = contact.tier { o["tier"] = .int(tier) }
        if contact.kind == .member {
            o["confirmed"] = ["byYou": .bool(contact.confirmedByMe), "byThem": .bool(contact.confirmedByThem)]
        }
        if let external = contact.external {
            o["notify"] = .array(external.notify.map(JSON.string))
            o["email"] = .array(external.email.map(JSON.string))
            o["phone"] = .array(external.phone.map(JSON.string))
        }
        if let status, contact.kind == .member {
            o["status"] = status.map(dependentJSON) ?? .null
        }
        return o
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

extension Render {
    static func warningJSON(_ warning: Warning) -> JSON {
        ["code": .string(warning.code), "message": .string(warning.message)]
    }
}
