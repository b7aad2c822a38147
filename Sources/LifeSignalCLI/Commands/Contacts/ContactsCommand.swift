import LifeSignalApp
import LifeSignalCore

/// `lifesignal contacts`: my invite code, and the people I watch over or who watch over me —
/// members of the circle (linked by code, roles on both sides) and external people reached
/// through delivery channels. Adding and editing are in `ContactEditCommands`.
enum ContactsCommand {
    static let spec = CommandSpec(
        name: "contacts",
        abstract: "Manage your responders and dependents.",
        discussion: """
            A responder watches over you: they are told of your alerts and missed check-ins. A dependent is someone you watch over and may ping. Between members of the circle the roles are reciprocal: if you are my responder, I am your dependent.
            """,
        subcommands: [
            codeSpec, ContactEditCommands.addSpec, listSpec, showSpec, ContactEditCommands.editSpec,
            ContactEditCommands.confirmSpec, ContactEditCommands.removeSpec, VouchCommand.spec,
        ])

    static let qr = OptionSpec.flag("qr", "Also draw it as a QR code in the terminal (needs qrencode).")
    static let reset = OptionSpec.flag("reset", "Issue a new code; the old one stops working.")

    static let codeSpec = CommandSpec(
        name: "code",
        abstract: "Show your invite code, for others to add you with 'contacts add'.",
        options: [qr, reset],
        run: code)

    static let responders = OptionSpec.flag("responders", "Only responders.")
    static let dependents = OptionSpec.flag("dependents", "Only dependents.")

    static let listSpec = CommandSpec(
        name: "list",
        abstract: "List your contacts with their roles and, for dependents, their live status.",
        discussion:
            "Dependents come first, in the app's order: alert active, then non-responsive, then pinged, then by time left.",
        options: [responders, dependents],
        run: list)

    static let contactArgument = ArgumentSpec(
        name: "contact", kind: .contact, optional: false, help: "A name, an id, or the first characters of an id.")

    static let showSpec = CommandSpec(
        name: "show",
        abstract: "Show one contact in full.",
        arguments: [contactArgument],
        run: show)

    static func code(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let reset = line.flag(Self.reset)
        let (code, wasReset) = try session.call(line.path) { app throws(AppError) in try app.inviteCode(reset: reset) }
        let uri = code
        try session.output.json(InviteCode(code: uri, reset: wasReset))
        if wasReset {
            try session.output.line("Your invite code has been reset. Previous codes are no longer valid.")
        }
        try session.output.line(uri)
        if line.flag(qr), !session.global.json, !session.global.quiet {
            let drawing = try session.call(line.path) { app throws(AppError) in try app.qrCode(uri) }
            try session.output.raw(drawing)
        }
        return .ok
    }

    static func list(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        var views = try session.call(line.path) { app throws(AppError) in try app.contacts() }
        if line.flag(responders) { views = views.filter { $0.contact.roles.responder } }
        if line.flag(dependents) { views = views.filter { $0.contact.roles.dependent } }
        try session.output.json(Listed(views: views))
        if views.isEmpty {
            let what =
                line.flag(responders)
                ? "No responders yet." : line.flag(dependents) ? "No dependents yet." : "No contacts yet."
            try session.output.line(
                what + " Add one with 'lifesignal contacts add'; share your code with 'lifesignal contacts code'.")
            return .ok
        }
        let o = session.output
        let names = Render.distinct(names: views.map { ($0.contact.name, $0.contact.id) })
        let nameWidth = min(24, max(4, names.map(\.count).max() ?? 4)) + 2
        try session.output.line(o.bold("Name".padding(to: nameWidth) + "Roles".padding(to: 23) + "Status"))
        for (view, name) in zip(views, names) {
            let contact = view.contact
            var roles = contact.roles.text
            if contact.kind == .external { roles += " (ext.)" }
            var status = contact.roles.dependent ? view.status.map { Render.colored($0, o) } ?? "" : ""
            if let doubt = Render.unconfirmed(contact) { status += (status.isEmpty ? "" : "; ") + doubt }
            try session.output.line(name.padding(to: nameWidth) + roles.padding(to: 23) + status)
        }
        return .ok
    }

    static func show(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let view = try session.call(line.path) { app throws(AppError) in try app.contact(text) }
        let contact = view.contact
        try session.output.json(view)
        var rows: [(String, String)] = [
            ("Name", contact.name), ("Id", contact.id),
            ("Kind", contact.kind == .member ? "member of your circle" : "external"),
            ("Roles", contact.roles.text),
        ]
        if let tier = contact.tier { rows.append(("Tier", "\(tier)")) }
        if let doubt = Render.unconfirmed(contact) {
            let how =
                contact.roles.responder && !contact.confirmedByMe
                ? "you never added or confirmed them: 'lifesignal contacts confirm \(TerminalText.argument(contact.name))'"
                : "your 'I'm on it' and vouches do not count for them until they confirm you, on their device ('lifesignal contacts confirm' with your name)"
            rows.append(("Confirmed", "no, \(doubt): \(how)"))
        }
        if let external = contact.external {
            rows.append(("Notify", external.channels.joined(separator: ", ")))
            if !external.phone.isEmpty { rows.append(("Phone", external.phone.joined(separator: ", "))) }
            if let topic = view.buttonTopic {
                let use =
                    switch view.buttonTopicUse {
                    case .sent: "this device only, with \"I'm on it\""
                    case .noInbox: "unused: you have no inbox for the button to post to"
                    case .readByTheCircle: "sent nothing: it is a channel or an inbox in your circle folder"
                    }
                rows.append(("Button topic", "\(TerminalText.safeLine(ChannelKind.ntfy.channel(topic))) (\(use))"))
            }
        } else if let checkIn = view.checkIn {
            if contact.roles.dependent, let status = view.status {
                rows.append(("Status", Render.colored(status, session.output)))
            }
            rows.append(
                (
                    "Last check-in",
                    checkIn.lastCheckIn.map { session.when($0.at) + ($0.fromPhone ? ", from the phone" : "") }
                        ?? "Never"
                ))
            if let deadline = checkIn.deadline { rows.append(("Deadline", session.when(deadline))) }
            rows.append(("Interval", checkIn.interval.description))
            if let phone = view.details?.phone { rows.append(("Phone", phone)) }
            if let note = view.details?.emergencyNote { rows.append(("Emergency note", note)) }
            if let sent = view.pingedByMe { rows.append(("You pinged", "\(session.when(sent.at)), pending")) }
            if let sent = view.pingedMe {
                rows.append(
                    ("Pinged you", "\(session.when(sent.at)); answer with 'lifesignal ping respond \(contact.name)'"))
            }
        }
        for (label, value) in rows { try session.output.line(label.padding(to: 16) + value) }
        return .ok
    }

    /// My invite code, and whether it was just reset.
    struct InviteCode: JSONRendered {
        var code: String
        var reset: Bool

        var json: JSON { ["code": .string(code), "reset": .bool(reset)] }
    }

    /// `contacts list`: each contact with, for a member, their status as my dependent.
    struct Listed: JSONRendered {
        var views: [App.ContactView]

        var json: JSON {
            ["contacts": .array(views.map { .object(Render.contactJSON($0.contact, status: .some($0.status))) })]
        }
    }
}

/// One contact in full, as `contacts show --json` gives it.
extension App.ContactView: JSONRendered {
    var json: JSON {
        var object = Render.contactJSON(contact, status: .some(status))
        if let details {
            object["phone"] = .optional(details.phone)
            object["emergencyNote"] = .optional(details.emergencyNote)
        }
        if let buttonTopic { object["buttonTopic"] = .string(ChannelKind.ntfy.channel(buttonTopic)) }
        return ["contact": .object(object)]
    }
}
