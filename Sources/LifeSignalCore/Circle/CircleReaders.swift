/// Who, besides the members' own devices, holds the circle's records: the machines its sync
/// engine copies them through. A git remote on another machine and a Syncthing device that
/// is not marked untrusted read everything (names, notes, channels, check-in times); a
/// `gcrypt::` remote and an untrusted (encrypted) Syncthing device hold only ciphertext. A
/// remote on this machine is nobody else.
public struct CircleReader: Equatable, Sendable {
    public enum Via: Equatable, Sendable {
        /// A git remote (its name) at this URL.
        case gitRemote(name: String, url: String)
        /// A Syncthing device the folder is shared with (its id and name).
        case syncthingDevice(id: String, name: String)
    }

    /// The machine, as the user named it: a host name, or a Syncthing device's name.
    public var host: String
    public var via: Via
    /// It stores the records encrypted to the members' keys (gcrypt) or password (Syncthing).
    public var encrypted: Bool
    /// A gcrypt remote with no list of participants: gcrypt encrypts to this machine's own key
    /// only, so no other member can read what it pushes.
    public var toThisKeyOnly = false

    public init(host: String, via: Via, encrypted: Bool) {
        self.host = host
        self.via = via
        self.encrypted = encrypted
    }

    /// The reader behind git remote `name`'s URL; nil when it is this machine (a path,
    /// `file://`, localhost, or this machine's own name in `localNames`).
    public static func gitRemote(name: String, url: String, localNames: [String]) -> CircleReader? {
        var address = url
        var encrypted = false
        if address.hasPrefix("gcrypt::") {
            address = String(address.dropFirst("gcrypt::".count))
            encrypted = true
        } else if let helper = address.firstRange(ofText: "::"),
            !address[..<helper.lowerBound].contains(where: { $0 == "/" || $0 == ":" })
        {
            address = String(address[helper.upperBound...])
        }
        guard let host = host(of: address) else { return nil }
        let local = ["localhost", "127.0.0.1", "::1", "localhost.localdomain"] + localNames.map { $0.lowercased() }
        if local.contains(host.lowercased()) { return nil }
        return CircleReader(host: host, via: .gitRemote(name: name, url: url), encrypted: encrypted)
    }

    /// The host a git or gcrypt address names: `scheme://[user@]host[:port]/…`, or scp-like
    /// `[user@]host:path`; nil for a path or `file://`.
    static func host(of address: String) -> String? {
        if let scheme = address.firstRange(ofText: "://") {
            if address[..<scheme.lowerBound].lowercased() == "file" { return nil }
            let rest = address[scheme.upperBound...]
            var authority = String(rest.prefix { $0 != "/" })
            if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
            if authority.hasPrefix("[") {
                return authority.firstIndex(of: "]").map {
                    String(authority[authority.index(after: authority.startIndex)..<$0])
                }
            }
            let host = String(authority.prefix { $0 != ":" })
            return host.isEmpty ? nil : host
        }
        guard let colon = address.firstIndex(of: ":") else { return nil }
        let before = address[..<colon]
        if before.isEmpty || before.contains("/") { return nil }
        var host = String(before)
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
        return host.isEmpty ? nil : host
    }
}
