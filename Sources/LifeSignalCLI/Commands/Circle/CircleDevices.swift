import LifeSignalApp
import LifeSignalCore

/// `lifesignal circle enroll|devices|revoke|recovery`: which devices speak for whom. A device
/// counts for its member only when one of their devices enrolled it (see `Speakers`).
enum CircleDeviceCommands {
    static let enrollSpec = CommandSpec(
        name: "enroll",
        abstract: "Print a one-time code that makes a new machine another device of yours.",
        discussion: """
            On the new machine: lifesignal init --circle DIR --member CODE. The code is valid for \(App.enrollmentValidity.short) and for one device; this device accepts the new one on its next write ('lifesignal notify deliver', or its cron job), and from then on both count toward one deadline. A new code replaces the last. Your invite code ('lifesignal contacts code') links contacts and never makes a device.
            """,
        options: [ContactsCommand.qr],
        examples: ["lifesignal circle enroll --qr"],
        run: enroll)

    static let devicesSpec = CommandSpec(
        name: "devices",
        abstract: "List your devices and those of the people you are linked with, and whether they count.",
        discussion: """
            A device counts for its member when it signs its records with a key one of the member's devices enrolled (or their recovery code did). Each line shows the device, its key fingerprint, who enrolled it and when, and its standing; a device that does not count is named with the reason. Compare fingerprints with the other person's own 'lifesignal circle devices' to check a link made before records were signed.
            """,
        examples: ["lifesignal circle devices"],
        run: devices)

    static let revokeSpec = CommandSpec(
        name: "revoke",
        abstract: "End one of your devices: what it records from now on counts for nobody.",
        discussion: """
            Run it on another of your devices, for a machine that was lost, sold or taken. The revocation travels with your records; every member's lifesignal ignores what that device writes once it has it, a revocation of your other devices included (a revoked device cannot revoke). Two devices that revoke each other, each before it saw the other's revocation, both stop counting, and everyone is told: settle it with your recovery code (lifesignal init --circle DIR --member CODE on a machine you hold, then revoke the lost device there). To use the machine again, set it up anew with an enrollment code.
            """,
        arguments: [
            ArgumentSpec(
                name: "device", kind: .text, optional: false,
                help: "The device's id, or enough of its start (see 'lifesignal circle devices').")
        ],
        examples: ["lifesignal circle revoke 3f2a9c1e"],
        run: revoke)

    static let recoverySpec = CommandSpec(
        name: "recovery",
        abstract: "Make a new recovery code (shown once); the old one stops working.",
        discussion: """
            A recovery code makes a new device of yours when all of your devices are lost: lifesignal init --circle DIR --member CODE. One is shown when you set up; make a new one here if you never had one (a profile from before records were signed), lost it, or used it. From the moment your circle has the new code, the old one enrolls no device, whichever of your devices made the new one; devices it enrolled before stay.
            """,
        examples: ["lifesignal circle recovery"],
        run: recovery)

    static func enroll(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let made = try session.call(line.path) { app throws(AppError) in try app.enrollmentCode() }
        try session.output.json(made)
        try session.output.line(
            "On the new machine, within \(App.enrollmentValidity.short) (until \(Warning.utc(made.expires))): lifesignal init --circle DIR --member CODE"
        )
        try session.output.line(made.code)
        if line.flag(ContactsCommand.qr), !session.global.json, !session.global.quiet {
            let drawing = try session.call(line.path) { app throws(AppError) in try app.qrCode(made.code) }
            try session.output.raw(drawing)
        }
        return .ok
    }

    static func devices(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let members = try session.call(line.path) { app throws(AppError) in try app.devices() }
        try session.output.json(Listed(members: members))
        let names = Render.distinct(names: members.map { ($0.name, $0.member) })
        for (member, name) in zip(members, names) {
            let who = member.isMe ? "You (\(TerminalText.safeLine(name)))" : TerminalText.safeLine(name)
            try session.output.line(who + (member.firstSight ? "  (keys taken on first sight)" : ""))
            for device in member.devices {
                let enrolled: String
                switch device.origin {
                case .firstDevice?: enrolled = "first device"
                case .enrolled(let by, let at)?: enrolled = "enrolled by \(by.prefix(8)) on \(Warning.utc(at))"
                case .recoveryCode(let at)?: enrolled = "enrolled with the recovery code on \(Warning.utc(at))"
                case .waiting?: enrolled = "waiting to be enrolled"
                case nil: enrolled = device.standing.counts ? "first device" : "not enrolled by any of their devices"
                }
                try session.output.line(
                    "  \(device.id)\(device.thisDevice ? " (this device)" : "")  key \(device.fingerprint ?? "none")  \(enrolled)  \(device.standing.counts ? "counts" : "ignored: " + device.standing.reason)"
                )
            }
        }
        return members.contains { $0.devices.contains { !$0.standing.counts } } ? .dependentNeedsAttention : .ok
    }

    static func revoke(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let text = line.text(argument: 0) ?? ""
        let device = try session.call(line.path) { app throws(AppError) in try app.revoke(text) }
        try session.output.json(Revoked(device: device))
        try session.output.line(
            "Revoked device \(device): what it records from now on counts for nobody, once your circle has this record."
        )
        return .ok
    }

    static func recovery(_ line: Invocation, _ session: inout Session) throws(CLIError) -> ExitCode {
        let code = try session.call(line.path) { app throws(AppError) in try app.newRecoveryCode() }
        try session.output.json(RecoveryCode(code: code))
        try session.output.line(
            "Your new recovery code, shown this once: write it down and keep it away from this machine. The one before no longer works."
        )
        try session.output.line(code)
        return .ok
    }
}

extension Speakers.Standing {
    /// The standing as a stable word, for scripts.
    var code: String {
        switch self {
        case .trusted: return "trusted"
        case .olderVersion: return "older-version"
        case .notSigned: return "not-signed"
        case .badSignature: return "bad-signature"
        case .notEnrolled: return "not-enrolled"
        case .revoked: return "revoked"
        case .retired: return "retired"
        case .rolledBack: return "rolled-back"
        case .undecided: return "undecided"
        }
    }
}

extension CircleDeviceCommands {
    /// The device that enrolled another, as `--json` gives it ("recovery-code" for the code).
    static func enrolledBy(_ origin: DeviceEntry.Origin) -> String? {
        switch origin {
        case .enrolled(let by, _): return by
        case .recoveryCode: return "recovery-code"
        case .firstDevice, .waiting: return nil
        }
    }

    static func enrolledAt(_ origin: DeviceEntry.Origin) -> Timestamp? {
        switch origin {
        case .enrolled(_, let at), .recoveryCode(let at): return at
        case .firstDevice, .waiting: return nil
        }
    }

    /// `circle devices`: each member's devices, and whether they count.
    struct Listed: JSONRendered {
        var members: [App.MemberDevices]

        var json: JSON {
            let members: [JSON] = self.members.map { member in
                [
                    "id": .string(member.member), "name": .string(member.name), "you": .bool(member.isMe),
                    "firstSight": .bool(member.firstSight), "devices": .array(member.devices.map(Listed.json)),
                ]
            }
            return ["members": .array(members)]
        }

        static func json(_ device: App.DeviceView) -> JSON {
            [
                "id": .string(device.id), "thisDevice": .bool(device.thisDevice),
                "counts": .bool(device.standing.counts),
                "standing": .string(device.standing.code),
                "reason": .optional(device.standing.counts ? nil : device.standing.reason),
                "fingerprint": .optional(device.fingerprint),
                "enrolledBy": .optional(device.origin.flatMap(enrolledBy)),
                "enrolledAt": .optional(device.origin.flatMap(enrolledAt)?.rfc3339),
            ]
        }
    }

    /// The device `circle revoke` revoked.
    struct Revoked: JSONRendered {
        var device: String

        var json: JSON { ["revoked": .string(device)] }
    }

    /// The recovery code `circle recovery` made.
    struct RecoveryCode: JSONRendered {
        var code: String

        var json: JSON { ["recoveryCode": .string(code)] }
    }
}

/// The enrollment code `circle enroll` made, and when it expires.
extension App.EnrollmentCode: JSONRendered {
    var json: JSON { ["code": .string(code), "expires": .string(expires.rfc3339)] }
}
