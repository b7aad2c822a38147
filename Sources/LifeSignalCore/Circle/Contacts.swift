/// One entry of a member's contact list: a linked member of the circle or an external person.
public struct Contact: Equatable, Sendable {
    public enum Kind: String, Sendable { case member, external }

    public var id: String
    public var kind: Kind
    public var name: String
    /// My roles toward them.
    public var roles: Roles
    /// When the relation or the external entry was last set.
    public var since: Stamp
    /// Set for external contacts.
    public var external: ExternalContact?
    /// For a member: whether my own word makes them my responder, and whether theirs makes me
    /// theirs (see `CircleState.confirmedWatcher(_:by:)`). An external contact I added myself.
    public var confirmedByMe = true
    public var confirmedByThem = true
    /// For my responder: the tier I put them in (1 unless set; see `Escalation`).
    public var tier: Int64? = nil
}

extension CircleState {
    /// The contacts of `member`: linked members (named from their profile) and external
    /// contacts, sorted by name.
    public func contacts(of member: String) -> [Contact] {
        var list: [Contact] = []
        for other in linkedMembers(of: member) {
            guard let roles = roles(of: member, toward: other), let stamp = relationStamp(member, other) else {
                continue
            }
            let name = members[other]?.name?.value ?? "(unnamed \(other.prefix(8)))"
            let tier = roles.responder ? members[member]?.tiers[other]?.value ?? 1 : nil
            list.append(
                Contact(
                    id: other, kind: .member, name: name, roles: roles, since: stamp, external: nil,
                    confirmedByMe: confirmedWatcher(other, by: member),
                    confirmedByThem: confirmedWatcher(member, by: other), tier: tier))
        }
        for (id, entry) in externals[member] ?? [:] {
            guard let contact = entry.value else { continue }
            list.append(
                Contact(
                    id: id, kind: .external, name: contact.name, roles: Roles(responder: true, dependent: false),
                    since: entry.stamp, external: contact, tier: members[member]?.tiers[id]?.value ?? 1))
        }
        // Sort keys computed once, not in every comparison.
        let keys = list.map { $0.name.lowercased() }
        return list.indices.sorted { (keys[$0], list[$0].id) < (keys[$1], list[$1].id) }.map { list[$0] }
    }
}

/// Finds the contact a person meant: a whole id, an exact name (ignoring case), a unique
/// prefix of an id (4 characters or more), or a unique beginning of a name. Ambiguity is an
/// error that lists the candidates.
public enum ContactLookup {
    public enum Failure: Error, Equatable, Sendable {
        case notFound(String)
        case ambiguous(String, candidates: [Contact])
    }

    public static func find(_ text: String, in contacts: [Contact]) throws(Failure) -> Contact {
        let wanted = text.trimmingWhitespace
        if let exact = contacts.first(where: { $0.id == wanted.lowercased() }) { return exact }
        let byName = contacts.filter { $0.name.lowercased() == wanted.lowercased() }
        if byName.count == 1, let only = byName.first { return only }
        if byName.count > 1 { throw .ambiguous(text, candidates: byName) }
        let byPrefix = wanted.count >= 4 ? contacts.filter { $0.id.hasPrefix(wanted.lowercased()) } : []
        if byPrefix.count == 1, let only = byPrefix.first { return only }
        if byPrefix.count > 1 { throw .ambiguous(text, candidates: byPrefix) }
        let byNamePrefix = wanted.isEmpty ? [] : contacts.filter { $0.name.lowercased().hasPrefix(wanted.lowercased()) }
        if byNamePrefix.count == 1, let only = byNamePrefix.first { return only }
        if byNamePrefix.count > 1 { throw .ambiguous(text, candidates: byNamePrefix) }
        throw .notFound(text)
    }
}

/// Checks of the addresses an external contact is reached at. Each returns nil when the
/// value is acceptable, or what is wrong with it.
public enum Address {
    /// An ntfy topic URL as a person gives it: with or without the channel's `ntfy:`.
    public static func ntfyTopic(_ text: String) -> String {
        ChannelKind(of: text) == .ntfy ? ChannelKind.ntfy.target(of: text) : text
    }

    /// What two spellings of one ntfy topic share: the host (lowercase, without a port, user
    /// or trailing dot) and the last segment of the path (lowercase), whatever the scheme —
    /// `ntfy:https://…`, a webhook's `https://…`, Apprise's `ntfys://…`. Two addresses that
    /// match may still be different topics; where sameness means "someone else can read it",
    /// erring towards "same" is the safe side.
    public static func comparableTopic(_ url: String) -> String {
        var text = url.lowercased()
        if let kind = ChannelKind(of: text) { text = kind.target(of: text) }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        let parts = text.split(separator: "/")
        guard parts.count >= 3, parts[0].hasSuffix(":"), let topic = parts.last else { return text }
        var host = parts[1]
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = host[..<colon] }
        while host.hasSuffix(".") { host = host.dropLast() }
        return host + "/" + topic
    }

    /// Every topic a reader of the circle folder finds there, as `comparableTopic`: every
    /// network channel of every member and of every external contact (ntfy, webhooks, Apprise
    /// URLs), and every inbox.
    public static func ntfyTopics(in circle: CircleState) -> Set<String> {
        var found = Set<String>()
        func add(_ channels: [String]) {
            for channel in channels where ChannelKind(of: channel)?.isNetworkURL == true {
                found.insert(comparableTopic(channel))
            }
        }
        for state in circle.members.values {
            add(state.preferences?.value.channels ?? [])
            if let inbox = state.inbox?.value ?? nil { found.insert(comparableTopic(inbox)) }
        }
        for contacts in circle.externals.values {
            for contact in contacts.values { add(contact.value?.channels ?? []) }
        }
        return found
    }

    /// Why `url` cannot be a topic that must stay secret (a phone or button topic), or nil: it
    /// must be an ntfy topic URL whose name is long enough not to be guessed, and no ntfy
    /// channel or inbox in the circle, which every member can read.
    /// `taken` are this device's other private topics: one topic for two purposes would let
    /// the one who reads it press the other's buttons.
    public static func problem(withPrivateTopic url: String, in circle: CircleState, taken: [String] = []) -> String? {
        if let problem = problem(withChannel: ChannelKind.ntfy.channel(url)) { return problem }
        if ntfyTopics(in: circle).contains(comparableTopic(url)) {
            return "it is already a channel or an inbox in your circle folder, which everyone in your circle can read"
        }
        if taken.contains(where: { comparableTopic($0) == comparableTopic(url) }) {
            return "this device already uses it as your phone topic or another responder's button topic"
        }
        let name = url.split(separator: "/").last ?? ""
        if name.count < privateTopicLength {
            return "its topic name '\(name)' is shorter than \(privateTopicLength) characters, so it could be guessed"
        }
        return nil
    }

    /// The shortest topic name a phone or button topic may have.
    public static let privateTopicLength = 12

    /// A new private topic on the ntfy server of `beside` (an https URL; ntfy.sh without one),
    /// named from `random` bytes: what nobody copies from an example or guesses.
    public static func newPrivateTopic(beside url: String?, random: [UInt8]) -> String {
        var server = ChannelKind.webURLScheme(secure: true) + "ntfy.sh"
        if let url, let parts = Optional(ntfyTopic(url).split(separator: "/")), parts.count >= 2,
            parts[0] == "https:" || parts[0] == "http:"
        {
            server = parts[0] + "//" + parts[1]
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz234567")
        return server + "/ls-" + String(random.map { letters[Int($0) % letters.count] })
    }

    /// A channel URI: `desktop:`, `mailto:ADDR`, `ntfy:https://HOST/TOPIC`, `https://…` (a
    /// webhook), `apprise:URL` (any Apprise URL), or `exec:COMMAND`. Plain http is accepted only
    /// for this machine (localhost, 127.x, ::1), so nothing personal crosses a network unencrypted.
    public static func problem(withChannel uri: String) -> String? {
        if uri.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "it contains a control character such as a newline"
        }
        guard let kind = ChannelKind(of: uri) else {
            return "unknown kind of channel; use \(ChannelKind.forms)"
        }
        let target = kind.target(of: uri)
        switch kind {
        case .desktop: return nil
        case .mail: return problem(withEmail: target).map { "the address after mailto: is invalid: \($0)" }
        case .ntfy:
            if let problem = problem(withWebURL: target) { return "the ntfy topic URL is invalid: \(problem)" }
            let topic = target.split(separator: "/", omittingEmptySubsequences: true).dropFirst(2)
            guard topic.count == 1, let name = topic.first, (1...64).contains(name.count),
                name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" })
            else {
                return
                    "an ntfy URL ends in one topic name of letters, digits, - or _ (e.g. ntfy:https://ntfy.sh/my-topic)"
            }
            return nil
        case .webhook: return problem(withWebURL: target).map { "the webhook URL is invalid: \($0)" }
        case .apprise:
            guard let colon = target.firstIndex(of: ":"), target[colon...].hasPrefix("://"), !target[..<colon].isEmpty,
                target[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" })
            else { return "an Apprise URL looks like scheme://…, e.g. apprise:tgram://bottoken/chatid" }
            return nil
        case .exec:
            return target.trimmingWhitespace.isEmpty ? "exec: needs a command, e.g. exec:/usr/local/bin/page-me" : nil
        }
    }

    static func problem(withWebURL url: String) -> String? {
        let secure = url.hasPrefix(ChannelKind.webURLScheme(secure: true))
        guard secure || url.hasPrefix(ChannelKind.webURLScheme(secure: false)) else {
            return "it must start with https://"
        }
        let rest = url.dropFirst(ChannelKind.webURLScheme(secure: secure).count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.isEmpty { return "it has no host" }
        if authority.contains(where: { $0 == " " || $0 == "\\" }) { return "the host contains a space or backslash" }
        if !secure {
            let host =
                authority.split(separator: "@").last.map { h -> Substring in
                    if h.hasPrefix("[") { return h.prefix { $0 != "]" } + "]" }
                    return h.prefix { $0 != ":" }
                } ?? ""
            guard host == "localhost" || host.hasPrefix("127.") || host == "[::1]" else {
                return "plain http is only allowed to this machine (localhost); use https://"
            }
        }
        return nil
    }

    /// A pragmatic e-mail check (WHATWG-style): one @, a local part and a dotted domain, no
    /// spaces or control characters — CR/LF would allow header injection.
    public static func problem(withEmail address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last else {
            return "an e-mail address has exactly one @"
        }
        if local.isEmpty || local.utf8.count > 64 { return "the part before @ is empty or too long" }
        if address.utf8.count > 254 { return "the address is longer than 254 characters" }
        if address.unicodeScalars.contains(where: {
            $0.value <= 0x20 || $0.value == 0x7F || "<>(),;:\\\"[]".unicodeScalars.contains($0)
        }) {
            return "it contains a space, control character or one of <>(),;:\\\"[]"
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2,
            labels.allSatisfy({
                !$0.isEmpty && $0.count <= 63 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                    && !$0.hasPrefix("-") && !$0.hasSuffix("-")
            })
        else { return "the domain after @ must look like example.org" }
        return nil
    }

    /// A phone number in international form: + and 2–15 digits (E.164); spaces, dashes, dots
    /// and parentheses are allowed for readability and removed by `normalizedPhone`.
    public static func problem(withPhone number: String) -> String? {
        let digits = normalizedPhone(number)
        guard digits.hasPrefix("+") else {
            return "write it in international form starting with +, e.g. +44 20 7946 0958"
        }
        let rest = digits.dropFirst()
        guard (2...15).contains(rest.count), rest.allSatisfy({ $0.isASCII && $0.isNumber }), rest.first != "0" else {
            return "after + come 2 to 15 digits, the first not 0"
        }
        return nil
    }

    public static func normalizedPhone(_ number: String) -> String {
        String(number.filter { !" -.()".contains($0) })
    }
}
