import LifeSignalChannels
import LifeSignalCore
import LifeSignalStore

/// `lifesignal contacts`: my invite code, and the people I watch over or who watch over me —
/// members of the circle (linked by code, roles on both sides) and external people reached
/// through delivery channels.
enum ContactsCommand {
    static let spec = CommandSpec(
        name: "contacts",
        abstract: "Manage your responders and dependents.",
        discussion: """
            A responder watches over you: they are told of your alerts and missed check-ins. A dependent is someone you watch over and may ping. Between members of the circle the roles are reciprocal: if you are my responder, I am your dependent.
            """,
        subcommands: [codeSpec, addSpec, listSpec, showSpec, editSpec, removeSpec])

    static let codeSpec = CommandSpec(
        name: "code",
        abstract: "Show your invite code, for others to add you with 'contacts add'.",
        options: [
            .flag("qr", "Also draw it as a QR code in the terminal (needs qrencode)."),
            .flag("reset", "Issue a new code; the old one stops working."),
        ],
        run: { invocation, session throws(CLIError) in try code(invocation, &session) })

    static let addSpec = CommandSpec(
        name: "add",
        abstract: "Add a member by their invite code, or an external person by name.",
        discussion: """
            A member: lifesignal contacts add lifesignal://CODE --responder (they watch over you), --dependent (you watch over them), or both. The relation appears on both sides with reciprocal roles.

            An external person, who has no lifesignal, can be a responder: lifesignal contacts add "Sam Lee" --responder --notify mailto:sam@example.org. Channels: desktop:, mailto:ADDRESS, ntfy:https://HOST/TOPIC, https://… (a webhook), apprise:URL, exec:COMMAND.
            """,
        arguments: [
            ArgumentSpec(
                name: "code-or-name", kind: .text, optional: false,
                help: "An invite code (lifesignal://… or the bare code), or the name of an external person.")
        ],
        options: roleOptions + addressOptions,
        run: { invocation, session throws(CLIError) in try add(invocation, &session) })

    static let roleOptions: [OptionSpec] = [
        .flag("responder", "They watch over you: they are told of your alerts and missed check-ins."),
        .flag("dependent", "You watch over them and may ping them (members only)."),
    ]

    static let addressOptions: [OptionSpec] = [
        .values("notify", "uri", .text, "A channel to reach an external contact (repeatable)."),
        .values("email", "address", .text, "An e-mail address; alerts are mailed to it (repeatable)."),
        .values("phone", "number", .text, "A phone number in international form, e.g. +44 20 7946 0958 (repeatable)."),
    ]

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "List your contacts with their roles and, for dependents, their live status.",
        discussion:
            "Dependents come first, in the app's order: alert active, then non-responsive, then pinged, then by time left.",
        options: [
            .flag("responders", "Only responders."),
            .flag("dependents", "Only dependents."),
        ],
        run: { invocation, session throws(CLIError) in try list(invocation, &session) })

    static let showSpec = CommandSpec(
        name: "show",
        abstract: "Show one contact in full.",
        arguments: [contactArgument],
        run: { invocation, session throws(CLIError) in try show(invocation, &session) })

    static let editSpec = CommandSpec(
        name: "edit",
        abstract: "Change a contact's roles, or an external contact's name and addresses.",
        discussion:
            "Role changes are seen by both sides. Removing the dependent role cancels your pending ping to them. --notify, --email and --phone replace that list of an external contact.",
        arguments: [contactArgument],
        options: roleOptions + [
            .flag("no-responder", "Remove the responder role."),
            .flag("no-dependent", "Remove the dependent role."),
            .value("name", "name", .text, "A new name (external contacts only; members name themselves)."),
        ] + addressOptions,
        run: { invocation, session throws(CLIError) in try edit(invocation, &session) })

    static let removeSpec = CommandSpec(
        name: "remove",
        abstract: "Remove a contact (on both sides, for a member).",
        arguments: [contactArgument],
        run: { invocation, session throws(CLIError) in try remove(invocation, &session) })

    static let contactArgument = ArgumentSpec(
        name: "contact", kind: .contact, optional: false, help: "A name, an id, or the first characters of an id.")

    // MARK: - code

    static func code(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let now = session.now
        let (code, reset) = try session.update { transaction in
            let current = transaction.memberState.code?.value
            if invocation.flag("reset") || current == nil {
                var generator = SystemRandomNumberGenerator()
                let fresh = Identifier.make(using: &generator)
                transaction.record(CodeSet(code: fresh), at: now)
                return (fresh, current != nil)
            }
            return (current ?? "", false)
        }
        let uri = "lifesignal://\(code)"
        try session.output.json(["code": .string(uri), "reset": .bool(reset)])
        if reset { try session.output.line("Your invite code has been reset. Previous codes are no longer valid.") }
        try session.output.line(uri)
        if invocation.flag("qr"), !session.global.json, !session.global.quiet {
            try drawQR(uri, session: &session)
        }
        return .ok
    }

    static func drawQR(_ text: String, session: inout Session) throws(CLIError) {
        let environment = ["PATH": session.context.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        do {
            let result = try ChildProcess.run(
                ["qrencode", "-t", "UTF8", "-m", "2", text], environment: environment, timeout: 10)
            guard result.succeeded else {
                throw CLIError.unavailable(
                    "qrencode failed: \(String(decoding: result.stderr, as: UTF8.self).trimmingWhitespace); the code above still works"
                )
            }
            try session.output.raw(String(decoding: result.stdout, as: UTF8.self))
        } catch let error as CLIError {
            throw error
        } catch ChildProcess.Failure.notFound {
            throw .unavailable(
                "qrencode is not installed, so no QR code can be drawn; install it (e.g. apt install qrencode) or share the code above"
            )
        } catch {
            throw .unavailable("could not run qrencode: \(error)")
        }
    }

    /// The code a person typed: `lifesignal://UUID` or the bare UUID, any case.
    static func parseCode(_ text: String) -> String? {
        var code = text.trimmingWhitespace.lowercased()
        if code.hasPrefix("lifesignal://") { code.removeFirst("lifesignal://".count) }
        return Identifier.isValid(code) ? code : nil
    }

    // MARK: - add

    static func add(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let target = invocation.argument(0) ?? ""
        let roles = Roles(responder: invocation.flag("responder"), dependent: invocation.flag("dependent"))
        guard !roles.isEmpty else {
            throw .usage(
                message:
                    "You must select at least one role (Responder or Dependent) to add this contact: add --responder, --dependent or both.",
                command: invocation.path)
        }
        let now = session.now
        if let code = parseCode(target) {
            if !invocation.values("notify").isEmpty || !invocation.values("email").isEmpty
                || !invocation.values("phone").isEmpty
            {
                throw .usage(
                    message:
                        "--notify, --email and --phone are for external contacts; a member is reached through their own lifesignal.",
                    command: invocation.path)
            }
            let contact = try session.update { transaction in
                let circle = transaction.circle
                let me = transaction.member
                guard let other = circle.member(withCode: code) else {
                    throw CLIError.invalidValue(
                        "No LifeSignal user found for this QR code: \(target). The code may have been reset, or their records have not reached your circle folder yet (check the sync)."
                    )
                }
                if other == me { throw CLIError.invalidValue("Cannot add yourself as a contact.") }
                if circle.roles(of: me, toward: other) != nil {
                    throw CLIError.invalidValue("This user is already in your contacts.")
                }
                transaction.record(RelationSet(member: other, roles: roles), at: now)
                return transaction.circle.contacts(of: me).first { $0.id == other }
            }
            guard let contact else { return .ok }
            let json: JSON = ["contact": Render.contactJSON(contact, circle: nil, session: session)]
            try session.output.json(json)
            try session.output.line("\(contact.name) has been added to your contacts as \(roles.text.lowercased()).")
            try session.output.line(reciprocalSentence(contact.name, roles))
            return .ok
        }
        // An external person.
        if roles.dependent {
            throw .usage(
                message:
                    "An external contact can be a responder but not a dependent: they have no lifesignal whose check-ins you could watch. If '\(target)' was meant as an invite code, it is not one (codes look like lifesignal://1b4e28ba-2fa1-11d2-883f-0016b3e4a2f5).",
                command: invocation.path)
        }
        if let problem = Rules.problem(withText: target, field: "name") {
            throw .usage(message: "The value for '<code-or-name>' is invalid: \(problem).", command: invocation.path)
        }
        let external = try externalContact(name: target.trimmingWhitespace, invocation: invocation, base: nil)
        let contact = try session.update { transaction in
            let me = transaction.member
            if transaction.circle.contacts(of: me).contains(where: {
                $0.name.lowercased() == external.name.lowercased()
            }) {
                throw CLIError.invalidValue(
                    "You already have a contact named \(external.name); choose another name or edit that one with 'lifesignal contacts edit'."
                )
            }
            var generator = SystemRandomNumberGenerator()
            let id = Identifier.make(using: &generator)
            transaction.record(ExternalSet(id: id, contact: external), at: now)
            return transaction.circle.contacts(of: me).first { $0.id == id }
        }
        guard let contact else { return .ok }
        let json: JSON = ["contact": Render.contactJSON(contact, circle: nil, session: session)]
        try session.output.json(json)
        try session.output.line("\(contact.name) has been added to your contacts as an external responder.")
        try session.output.line(
            "Your alerts and missed check-ins will go to: \(channels(of: external).joined(separator: ", ")).")
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

    /// Where an external contact's notifications go: their channels and their e-mail addresses.
    static func channels(of contact: ExternalContact) -> [String] {
        contact.notify + contact.email.map { "mailto:\($0)" }
    }

    /// Builds and checks an external contact from the address options, over `base` (edit).
    static func externalContact(name: String, invocation: Invocation, base: ExternalContact?) throws(CLIError)
        -> ExternalContact
    {
        var contact = base ?? ExternalContact(name: name, notify: [], email: [], phone: [])
        contact.name = name
        let notify = invocation.values("notify")
        let email = invocation.values("email")
        let phone = invocation.values("phone")
        for uri in notify {
            if let problem = Address.problem(withChannel: uri) {
                throw .usage(
                    message: "The value '\(uri)' is invalid for '--notify <uri>': \(problem).", command: invocation.path
                )
            }
        }
        for address in email {
            if let problem = Address.problem(withEmail: address) {
                throw .usage(
                    message: "The value '\(address)' is invalid for '--email <address>': \(problem).",
                    command: invocation.path)
            }
        }
        for number in phone {
            if let problem = Address.problem(withPhone: number) {
                throw .usage(
                    message: "The value '\(number)' is invalid for '--phone <number>': \(problem).",
                    command: invocation.path)
            }
        }
        if base == nil || !notify.isEmpty { contact.notify = notify }
        if base == nil || !email.isEmpty { contact.email = email }
        if base == nil || !phone.isEmpty { contact.phone = phone.map(Address.normalizedPhone) }
        if contact.notify.isEmpty && contact.email.isEmpty {
            throw .usage(
                message:
                    "An external contact needs a way to be reached: give --notify URI (e.g. mailto:sam@example.org or ntfy:https://ntfy.sh/TOPIC) or --email ADDRESS.",
                command: invocation.path)
        }
        return contact
    }

    // MARK: - list and show

    static func list(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let circle = try session.snapshot(store).state
        let me = store.identity.member
        var contacts = Render.orderedContacts(circle.contacts(of: me), circle: circle, me: me, now: session.now)
        if invocation.flag("responders") { contacts = contacts.filter { $0.roles.responder } }
        if invocation.flag("dependents") { contacts = contacts.filter { $0.roles.dependent } }
        let json: JSON = [
            "contacts": .array(contacts.map { Render.contactJSON($0, circle: (circle, me), session: session) })
        ]
        try session.output.json(json)
        if contacts.isEmpty {
            let what =
                invocation.flag("responders")
                ? "No responders yet." : invocation.flag("dependents") ? "No dependents yet." : "No contacts yet."
            try session.output.line(
                what + " Add one with 'lifesignal contacts add'; share your code with 'lifesignal contacts code'.")
            return .ok
        }
        let nameWidth = min(24, max(4, contacts.map(\.name.count).max() ?? 4)) + 2
        try session.output.line(session.output.bold("Name".padding(to: nameWidth) + "Roles".padding(to: 23) + "Status"))
        for contact in contacts {
            var roles = contact.roles.text
            if contact.kind == .external { roles += " (ext.)" }
            var status = ""
            if contact.roles.dependent,
                let dependent = Render.dependentStatus(contact.id, circle: circle, me: me, now: session.now)
            {
                status = Render.colored(dependent, session.output)
            }
            try session.output.line(contact.name.padding(to: nameWidth) + roles.padding(to: 23) + status)
        }
        return .ok
    }

    static func show(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let store = try session.openStore()
        let circle = try session.snapshot(store).state
        let me = store.identity.member
        let contact = try find(invocation.argument(0) ?? "", in: circle.contacts(of: me), path: invocation.path)
        let json: JSON = ["contact": Render.contactJSON(contact, circle: (circle, me), session: session)]
        try session.output.json(json)
        var rows: [(String, String)] = [
            ("Name", contact.name), ("Id", contact.id),
            ("Kind", contact.kind == .member ? "member of your circle" : "external"),
        ]
        rows.append(("Roles", contact.roles.text))
        if let external = contact.external {
            rows.append(("Notify", channels(of: external).joined(separator: ", ")))
            if !external.phone.isEmpty { rows.append(("Phone", external.phone.joined(separator: ", "))) }
        } else {
            let state = circle.members[contact.id] ?? MemberState()
            let checkIn = CheckInStatus(member: state, now: session.now)
            if contact.roles.dependent,
                let status = Render.dependentStatus(contact.id, circle: circle, me: me, now: session.now)
            {
                rows.append(("Status", Render.colored(status, session.output)))
            }
            rows.append(("Last check-in", checkIn.lastCheckIn.map { session.when($0.at) } ?? "Never"))
            if let deadline = checkIn.deadline { rows.append(("Deadline", session.when(deadline))) }
            rows.append(("Interval", checkIn.interval.description))
            if let ping = circle.pendingPing(from: me, to: contact.id), let sent = ping.sent {
                rows.append(("You pinged", "\(session.when(sent.at)), pending"))
            }
            if let ping = circle.pendingPing(from: contact.id, to: me), let sent = ping.sent {
                rows.append(
                    ("Pinged you", "\(session.when(sent.at)); answer with 'lifesignal ping respond \(contact.name)'"))
            }
        }
        for (label, value) in rows { try session.output.line(label.padding(to: 16) + value) }
        return .ok
    }

    // MARK: - edit and remove

    static func edit(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        for (on, off) in [("responder", "no-responder"), ("dependent", "no-dependent")]
        where invocation.flag(on) && invocation.flag(off) {
            throw .usage(message: "--\(on) and --\(off) contradict each other; give one.", command: invocation.path)
        }
        let now = session.now
        let text = invocation.argument(0) ?? ""
        let (contact, changes) = try session.update { transaction in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try find(text, in: circle.contacts(of: me), path: invocation.path)
            var roles = contact.roles
            if invocation.flag("responder") { roles.responder = true }
            if invocation.flag("no-responder") { roles.responder = false }
            if invocation.flag("dependent") { roles.dependent = true }
            if invocation.flag("no-dependent") { roles.dependent = false }
            if roles.isEmpty {
                throw CLIError.invalidValue(
                    "This contact must have at least one role. To remove \(contact.name) completely, use 'lifesignal contacts remove \(contact.name)'."
                )
            }
            var changes: [String] = []
            switch contact.kind {
            case .member:
                if invocation.value("name") != nil {
                    throw CLIError.usage(
                        message:
                            "--name is for external contacts; \(contact.name) names themselves in their own lifesignal.",
                        command: invocation.path)
                }
                if !invocation.values("notify").isEmpty || !invocation.values("email").isEmpty
                    || !invocation.values("phone").isEmpty
                {
                    throw CLIError.usage(
                        message:
                            "--notify, --email and --phone are for external contacts; \(contact.name) is a member of your circle.",
                        command: invocation.path)
                }
                if roles != contact.roles {
                    if contact.roles.dependent && !roles.dependent,
                        let ping = circle.pendingPing(from: me, to: contact.id)
                    {
                        transaction.record(
                            PingEnded(id: ping.id, from: me, to: contact.id, end: .roleRemoved), at: now)
                        changes.append("your pending ping to \(contact.name) was cancelled")
                    }
                    if contact.roles.responder && !roles.responder,
                        let ping = circle.pendingPing(from: contact.id, to: me)
                    {
                        transaction.record(
                            PingEnded(id: ping.id, from: contact.id, to: me, end: .roleRemoved), at: now)
                        changes.append("\(contact.name)'s pending ping to you was cancelled")
                    }
                    transaction.record(RelationSet(member: contact.id, roles: roles), at: now)
                    changes.insert("roles are now \(roles.text)", at: 0)
                }
            case .external:
                if roles.dependent {
                    throw CLIError.invalidValue(
                        "An external contact can be a responder but not a dependent: they have no lifesignal whose check-ins you could watch."
                    )
                }
                let name = invocation.value("name")?.trimmingWhitespace ?? contact.name
                if let problem = Rules.problem(withText: name, field: "name") {
                    throw CLIError.usage(
                        message: "The value for '--name <name>' is invalid: \(problem).", command: invocation.path)
                }
                let updated = try externalContact(name: name, invocation: invocation, base: contact.external)
                if updated != contact.external {
                    transaction.record(ExternalSet(id: contact.id, contact: updated), at: now)
                    changes.append("details updated")
                }
            }
            return (transaction.circle.contacts(of: me).first { $0.id == contact.id } ?? contact, changes)
        }
        let json: JSON = [
            "contact": Render.contactJSON(contact, circle: nil, session: session), "changed": .bool(!changes.isEmpty),
        ]
        try session.output.json(json)
        try session.output.line(
            changes.isEmpty
                ? "Nothing changed for \(contact.name)."
                : "Updated \(contact.name): \(changes.joined(separator: "; ")).")
        return .ok
    }

    static func remove(_ invocation: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let now = session.now
        let text = invocation.argument(0) ?? ""
        let (contact, cancelled) = try session.update { transaction in
            let me = transaction.member
            let circle = transaction.circle
            let contact = try find(text, in: circle.contacts(of: me), path: invocation.path)
            var cancelled = 0
            switch contact.kind {
            case .member:
                for (from, to) in [(me, contact.id), (contact.id, me)] {
                    if let ping = circle.pendingPing(from: from, to: to) {
                        transaction.record(PingEnded(id: ping.id, from: from, to: to, end: .roleRemoved), at: now)
                        cancelled += 1
                    }
                }
                transaction.record(RelationSet(member: contact.id, roles: nil), at: now)
            case .external:
                transaction.record(ExternalSet(id: contact.id, contact: nil), at: now)
            }
            return (contact, cancelled)
        }
        let json: JSON = [
            "removed": Render.contactJSON(contact, circle: nil, session: session),
            "pingsCancelled": .int(Int64(cancelled)),
        ]
        try session.output.json(json)
        try session.output.line(
            "Removed \(contact.name) from your contacts."
                + (contact.kind == .member ? " They will see that you are no longer linked." : ""))
        if cancelled > 0 { try session.output.line("Pending pings between you were cancelled.") }
        return .ok
    }

    /// Looks a contact up and turns a miss into a message that helps.
    static func find(_ text: String, in contacts: [Contact], path: [String]) throws(CLIError) -> Contact {
        do {
            return try ContactLookup.find(text, in: contacts)
        } catch {
            switch error {
            case .notFound(let text):
                let names = contacts.map(\.name)
                let hint =
                    Suggest.closest(to: text, among: names).map { " Did you mean '\($0)'?" }
                    ?? (names.isEmpty ? " You have no contacts yet." : " See 'lifesignal contacts list'.")
                throw .invalidValue("No contact matches '\(text)'." + hint)
            case .ambiguous(let text, let candidates):
                let list = candidates.map { "  \($0.name)  \($0.id)" }.joined(separator: "\n")
                throw .invalidValue("'\(text)' matches more than one contact; give more of the id:\n\(list)")
            }
        }
    }
}
