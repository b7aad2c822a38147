import Foundation
import LifeSignalApp
import LifeSignalCore
import TestSupport
import Testing

/// What the trust and circle tests need beside `Sandbox`: who a data directory is, where its
/// device folder lies in the circle, enrolling a device, the warnings a run said, how one person
/// sees their member contact, and logs rewritten (signed by a device's own key, or not at all).
extension Sandbox {
    /// The member and device of `person`'s data directory (from its identity.json).
    func identity(_ person: String) -> (member: String, device: String) {
        let url = URL(fileURLWithPath: directory(person) + "/identity.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (object["member"] as? String ?? "", object["device"] as? String ?? "")
    }

    /// `person`'s device folder in the circle.
    func deviceFolder(_ person: String) -> String {
        let (member, device) = identity(person)
        return "\(circle)/members/\(member)/\(device)"
    }

    /// `person`'s published log.
    func publishedLog(_ person: String) -> String { deviceFolder(person) + "/log.json" }

    /// `device` set up as another device of `person`'s member with an enrollment code `person`
    /// made at `now`.
    @discardableResult
    func enroll(_ device: String, of person: String, at now: String) throws -> App.SetUpResult {
        let code = try app(person, at: now).enrollmentCode().code
        return try app(device, at: now).setUp(App.SetUp(circle: circle, join: PassedCode(code)))
    }

    /// `person`'s one member contact as seen at `now`: its status's kind and last check-in.
    func seen(by person: String, at now: String) throws -> (kind: DependentStatus.Kind?, last: Timestamp?) {
        let member = try app(person, at: now).contacts().first { $0.contact.kind == .member }
        return (member?.status?.kind, member?.status?.checkIn.lastCheckIn?.at)
    }

    /// The log at `path`, written back with `change` applied, signed by `signer`'s device key (or
    /// not signed at all).
    func editLog(at path: String, signedBy signer: String?, _ change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&log)
        if let signer {
            try SignedLogWriter.write(log, to: path, key: SignedLogWriter.key(in: directory(signer)))
        } else {
            try JSONSerialization.data(withJSONObject: log).write(to: URL(fileURLWithPath: path))
        }
    }

    func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func write(_ data: Data, to path: String) throws { try data.write(to: URL(fileURLWithPath: path)) }
}

extension App {
    /// The warnings this run said among its notices.
    var warnings: [Warning] {
        notices.compactMap { notice in
            guard case .warning(let warning) = notice else { return nil }
            return warning
        }
    }

    /// The codes of those warnings.
    var warningCodes: [String] { warnings.map(\.code) }
}

/// A time written in RFC 3339.
func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(seconds: 0) }

/// The families the trust tests start from.
enum Families {
    static let later = "2026-03-02T10:00:00Z"

    /// Ana checks in at t0 (deadline the next day 09:00); Bea watches over her (on her own word)
    /// and has read the circle once.
    static func anaWatchedByBea() throws -> Sandbox {
        let box = Sandbox()
        try box.join("ana", at: t0)
        try box.join("bea", at: t0)
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("bea", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("bea", at: t0).dashboard()
        return box
    }

    /// The same, with Ana's second device "laptop" enrolled and accepted (by Ana's 09:20 run),
    /// which checks in at 12:00, and Bea having read it. Returns the box and Ana's recovery code.
    static func anaWithALaptop() throws -> (Sandbox, String) {
        let box = Sandbox()
        try box.join("bea", at: t0)
        let setUp = try box.join("ana", at: t0)
        let code = try box.app("ana", at: t0).inviteCode(reset: false).code
        _ = try box.app("bea", at: t0).addMember(invite: code, roles: Roles(responder: false, dependent: true))
        _ = try box.app("ana", at: t0).checkIn(note: nil)
        _ = try box.app("bea", at: t0).dashboard()
        try box.enroll("laptop", of: "ana", at: t0)
        _ = try box.app("ana", at: "2026-03-01T09:20:00Z").deliver()
        _ = try box.app("laptop", at: "2026-03-01T12:00:00Z").checkIn(note: nil)
        _ = try box.app("bea", at: "2026-03-01T12:10:00Z").dashboard()
        return (box, setUp.recoveryCode ?? "")
    }
}
