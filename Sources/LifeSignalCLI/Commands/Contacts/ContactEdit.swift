import LifeSignalApp
import LifeSignalCore

/// `lifesignal contacts add`, `edit` and `remove`: the commands that change who is on my list.
enum ContactEditCommands {
    static let responder = OptionSpec.flag(
        "responder", "They watch over you: they are told of your alerts and missed check-ins.")
    static let dependent = OptionSpec.flag("dependent", "You watch over them and may ping them (members only).")
    static let noResponder = OptionSpec.flag("no-responder", "Remove the responder role.")
    static let noDependent = OptionSpec.flag("no-dependent", "Remove the dependent role.")
    static let tier = OptionSpec.value(
        "tier", "n", .count,
        "A responder's tier: 1 (the default) is told when your grace ends, 2 and up later if nobody has acknowledged.")
    static let name = OptionSpec.value(
        "name", "name", .prose("name"), "A new name (external contacts only; members name themselves).")
    static let notify = OptionSpec.values(
        "notify", "uri", .channel, "A channel to reach an external contact (repeatable).")
    static let email = OptionSpec.values(
        "email", "address", .email, "An e-mail address; alerts are mailed to it (repeatable).")
    static let phone = OptionSpec.values(
        "phone", "number", .phone, "A phone number in international form, e.g. +44 20 7946 0958 (repeatable).")
    static let buttonTopic = OptionSpec.value(
        "button-topic", "topic", .text,
        "An ntfy topic only this responder subscribes to: 'new' makes one with a random name (or give ntfy:https://HOST/LONG-RANDOM-NAME). Kept on this machine only: while you have an inbox, this device also sends the alarms about you there, each with an \"I'm on it\" button. 'off' removes it."
    )

    static let duress = OptionSpec.value(
        "duress", "on|off", .choice(["on", "off"]),
        "Whether a duress check-in made on this device tells this responder (on by default; kept on this device only).")

    static let addSpec = CommandSpec(
        name: "add",
        abstract: "Add a member by their invite code, or an external person by name.",
        discussion: """
            A member: lifesignal contacts add lifesignal://CODE --responder (they watch over you), --dependent (you watch over them), or both. The relation appears on both sides with reciprocal roles. The code carries the key of their device, which settles who they are; adding the code of someone already linked with you (they added you) takes their key from it once.

            An external person, who has no lifesignal, can be a responder: lifesignal contacts add "Sam Lee" --responder --notify mailto:sam@example.org. Channels: desktop:, mailto:ADDRESS, ntfy:https://HOST/TOPIC, https://… (a webhook), apprise:URL, exec:COMMAND.
            """,
        arguments: [
            ArgumentSpec(
                name: "code-or-name", kind: .codeOrName, optional: false,
                help: "An invite code (lifesignal://… or the bare code), or the name of an external person.")
        ],
        options: [responder, dependent, notify, email, phone],
        rules: [
            .atLeastOne(
                ["--responder", "--dependent"],
                message:
                    "You must select at least one role (Responder or Dependent) to add this contact: add --responder, --dependent or both."
            )
        ],
        examples: [
            "lifesignal contacts add lifesignal://1b4e28ba-2fa1-11d2-883f-0016b3e4a2f5 --dependent",
            "lifesignal contacts add Sam --responder --email sam@example.org --notify ntfy:https://ntfy.sh/sam-alerts",
        ],
        run: add)

    static let editSpec = CommandSpec(
        name: "edit",
        abstract: "Change a contact's roles, or an external contact's name and addresses.",
        discussion:
            "Role changes are seen by both sides. Removing the dependent role cancels your pending ping to them. --notify, --email and --phone replace that list of an external contact.\n\n--button-topic gives an external responder an \"I'm on it\" button, when you have an inbox ('lifesignal checkin inbox'): a tap holds the repeats and the further tiers for \(Escalation.acknowledgementHold.short), as any acknowledgement does, and everyone told hears they are on it. Their channels are in the circle folder, where anyone in your circle could read a button's token, so the button comes as a message of its own on a topic kept on this machine only, which must be in no channel or inbox of your circle; their channels get every alarm as before, so a wrong button topic costs only the button. Set it on each of your devices that should send it; 'lifesignal notify test NAME' tries it. A watcher's device that tells them while yours are dark sends no button (the topic and the tokens are this machine's): its message says to tell that watcher instead, whose own 'I'm on it' counts.",
        arguments: [ContactsCommand.contactArgument],
        options: [
            responder, dependent, noResponder, noDependent, name, notify, email, phone, tier, buttonTopic, duress,
        ],
        rules: [.contradict("--responder", "--no-responder"), .contradict("--dependent", "--no-dependent")],
        run: edit)

    static let removeSpec = CommandSpec(
        name: "remove",
        abstract: "Remove a contact (on both sides, for a member).",
        discussion:
            "Asks first on a terminal, naming whom the argument matched; scripts pass --yes or the contact's full id.",
        arguments: [ContactsCommand.contactArgument],
        options: [.yes],
        run: remove)

    static let confirmSpec = CommandSpec(
        name: "confirm",
        abstract: "Confirm a member who linked with you, so that their 'I'm on it' and vouches count.",
        discussion: """
            A member who adds your code links you both, but on their word alone: your invite code lies in the circle, so anyone who can write the circle folder could claim to watch over you. Until you confirm them (or add them yourself), they are told of your missed check-ins and alerts, but their 'I'm on it' does not stop your escalation, they cannot vouch for you, and a message they relayed for you does not stop others from sending it too: your external responders may hear of each alarm twice, from their device and from yours. 'lifesignal status' and 'lifesignal doctor' name whom you have not confirmed, and who may hear twice; remove a stranger with 'lifesignal contacts remove'.
            """,
        arguments: [ContactsCommand.contactArgument],
        run: confirm)

    static func confirm(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let result = try session.call(line.path) { app throws(AppError) in try app.confirmContact(text) }
        try session.output.json(Confirmed(contact: result.contact, already: result.already))
        let name = TerminalText.safeLine(result.contact.name)
        try session.output.line(
            result.already
                ? "You had already confirmed \(name) (you linked or confirmed them yourself); nothing changed."
                : "Confirmed \(name): their 'I'm on it', vouches and deliveries now count for your alarms.")
        return .ok
    }

    static func add(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let target = line.text(argument: 0) ?? ""
        let roles = Roles(responder: line.flag(responder), dependent: line.flag(dependent))
        guard PassedCode.isInvite(target) else { return try addExternal(target, roles, line, &session) }
        if !line.values(notify).isEmpty || !line.values(email).isEmpty || !line.values(phone).isEmpty {
            throw .usage(
                message:
                    "--notify, --email and --phone are for external contacts; a member is reached through their own lifesignal.",
                command: line.path)
        }
        let added = try session.call(line.path) { app throws(AppError) in
            try app.addMember(invite: target, roles: roles)
        }
        let contact = added.contact
        try session.output.json(contact)
        if added.keyOnly {
            try session.output.line(
                "\(contact.name) is already in your contacts. Their device key is now the one from this code: records in their folder signed by any other key count for nothing here."
            )
            if contact.roles.responder && !contact.confirmedByMe {
                try session.output.line(
                    "They say they watch over you: to confirm it, run 'lifesignal contacts confirm \(TerminalText.argument(contact.name))'."
                )
            }
            return .ok
        }
        try session.output.line("\(contact.name) has been added to your contacts as \(roles.text.lowercased()).")
        try session.output.line(reciprocalSentence(contact.name, roles))
        if roles.dependent && !contact.confirmedByThem {
            let twice = try session.call(line.path) { app throws(AppError) in
                try app.toldTwice(whileUnconfirmed: contact.id)
            }
            try session.output.line(
                "Ask \(contact.name) to confirm you ('lifesignal contacts confirm' with your name, on their device): until then your 'I'm on it' and vouches do not count for them. You are told of their missed check-ins and alerts from now on."
                    + Warning.toldTwice(twice, until: "they do", from: "your device", "theirs"))
        }
        return .ok
    }

    private static func addExternal(_ target: String, _ roles: Roles, _ line: Invocation, _ session: inout Session)
        throws(CLIError) -> ExitCode
    {
        if roles.dependent {
            throw .usage(
                message:
                    "An external contact can be a responder but not a dependent: they have no lifesignal whose check-ins you could watch. If '\(target)' was meant as an invite code, it is not one (codes look like lifesignal://297ac32e-6e0d-42f0-b81a-d9a5f8bd3d61/4a49241d254243192347b16bc2d510be, as 'lifesignal contacts code' shows them).",
                command: line.path)
        }
        let external = ExternalContact(
            name: target.trimmingWhitespace, notify: line.texts(notify), email: line.texts(email),
            phone: line.texts(phone).map(Address.normalizedPhone))
        if external.notify.isEmpty && external.email.isEmpty {
            throw .usage(
                message:
                    "An external contact needs a way to be reached: give --notify URI (e.g. mailto:sam@example.org or ntfy:https://ntfy.sh/TOPIC) or --email ADDRESS.",
                command: line.path)
        }
        let contact = try session.call(line.path) { app throws(AppError) in try app.addExternal(external) }
        try session.output.json(contact)
        try session.output.line("\(contact.name) has been added to your contacts as an external responder.")
        try session.output.line(
            "Your alerts and missed check-ins will go to: \(external.channels.joined(separator: ", ")).")
        return .ok
    }

    static func reciprocalSentence(_ name: String, _ roles: Roles) -> String {
        switch (roles.responder, roles.dependent) {
        case (true, true):
            return
                "You watch over each other: each of you sees the other's status and is told of alerts and missed check-ins."
        case (true, false):
            return
                "\(name) can see your status and will be told of your alerts and missed check-ins; you are their dependent."
        default: return "You can see \(name)'s status and ping them; you are their responder."
        }
    }

    static func edit(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var edit = App.ContactEdit()
        if line.flag(responder) { edit.responder = true }
        if line.flag(noResponder) { edit.responder = false }
        if line.flag(dependent) { edit.dependent = true }
        if line.flag(noDependent) { edit.dependent = false }
        edit.name = line.text(name)?.trimmingWhitespace
        edit.notify = line.texts(notify)
        edit.email = line.texts(email)
        edit.phone = line.texts(phone)
        edit.tier = line.value(tier)?.count.map(Int64.init)
        edit.buttonTopic = line.text(buttonTopic).map { text -> String? in text == "off" ? nil : Address.ntfyTopic(text)
        }
        let text = line.text(argument: 0) ?? ""
        if let told = line.text(duress).map({ $0 == "on" }) {
            let contact = try session.call(line.path) { app throws(AppError) in try app.setDuress(of: text, told: told)
            }
            let name = TerminalText.safeLine(contact.name)
            guard edit.changesAnything else {
                try session.output.json(Edited(contact: contact, changes: []))
                try session.output.line(
                    told
                        ? (contact.roles.responder && contact.confirmedByMe
                            ? "\(name) is told of a duress check-in made on this device."
                            : "\(name) will be told of a duress check-in made on this device once they are your confirmed responder.")
                        : "\(name) is left out of a duress check-in made on this device.")
                return .ok
            }
        }
        let (contact, changes) = try session.call(line.path) { app throws(AppError) in
            try app.editContact(text, edit)
        }
        try session.output.json(Edited(contact: contact, changes: changes))
        let said = changes.map { change in
            switch change {
            case .roles(let roles): return "roles are now \(roles.text)"
            case .cancelledMyPing(let name): return "your pending ping to \(name) was cancelled"
            case .cancelledTheirPing(let name): return "\(name)'s pending ping to you was cancelled"
            case .details: return "details updated"
            case .confirmed:
                return
                    "this confirms that they watch over you: their 'I'm on it', vouches and deliveries now count for your alarms"
            case .tier(let tier):
                return tier == 1
                    ? "tier 1: told when your grace ends"
                    : "tier \(tier): told if nobody acknowledges your missed check-in \(tier - 1) escalation delay(s) after tier 1"
            case .buttonTopic(nil, _):
                return "no button topic on this device: the alarms about you reach them without a button"
            case .buttonTopic(let topic?, let inbox):
                return
                    "this device also sends them the alarms about you at ntfy:\(TerminalText.safeLine(topic)) (kept on this machine only), each with an \"I'm on it\" button"
                    + (inbox ? "" : ", once you have an inbox ('lifesignal checkin inbox ntfy:https://HOST/TOPIC')")
            }
        }
        try session.output.line(
            said.isEmpty
                ? "Nothing changed for \(contact.name)."
                : "Updated \(contact.name): \(said.joined(separator: "; ")).")
        return .ok
    }

    static func remove(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let found = try session.call(line.path) { app throws(AppError) in try app.contact(text) }.contact
        // A full id says exactly whom; anything less is confirmed first.
        if text.lowercased() != found.id.lowercased() {
            let kind = found.kind == .member ? "member" : "external"
            let question = "Remove \(found.name) (\(found.roles.text.lowercased()), \(kind)) from your contacts?"
            guard
                try session.confirm(
                    question, action: "remove \(found.name) (\(found.id))", line: line,
                    yes: line.flag(.yes), otherwise: ", or give the full id: lifesignal contacts remove \(found.id)")
            else {
                try session.output.line("Nothing was removed.")
                return .ok
            }
        }
        let id = found.id
        let (contact, cancelled) = try session.call(line.path) { app throws(AppError) in try app.removeContact(id) }
        try session.output.json(Removed(contact: contact, pingsCancelled: cancelled))
        try session.output.line(
            "Removed \(contact.name) from your contacts."
                + (contact.kind == .member ? " They will see that you are no longer linked." : ""))
        if cancelled > 0 { try session.output.line("Pending pings between you were cancelled.") }
        return .ok
    }

    /// A contact after `contacts edit`, and whether anything changed.
    struct Edited: JSONRendered {
        var contact: Contact
        var changes: [App.EditChange]

        var json: JSON { ["contact": .object(Render.contactJSON(contact)), "changed": .bool(!changes.isEmpty)] }
    }

    /// The contact `contacts remove` removed, and how many pings between us went with them.
    struct Confirmed: JSONRendered {
        var contact: Contact
        var already: Bool

        var json: JSON { ["confirmed": .object(Render.contactJSON(contact)), "alreadyConfirmed": .bool(already)] }
    }

    struct Removed: JSONRendered {
        var contact: Contact
        var pingsCancelled: Int

        var json: JSON {
            ["removed": .object(Render.contactJSON(contact)), "pingsCancelled": .int(Int64(pingsCancelled))]
        }
    }
}

/// The contact `contacts add` added (a member or an external person).
extension Contact: JSONRendered {
    var json: JSON { ["contact": .object(Render.contactJSON(self))] }
}
