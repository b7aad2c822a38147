import LifeSignalCore

/// An RFC 5322 message for `sendmail -t`: addressed as the member set it (`From`, `Reply-To`),
/// dated when it is sent, with a Message-ID stable per notification and recipient under the
/// sender's domain, threaded (`In-Reply-To`, `References`) under the alarm it follows, and
/// every non-ASCII header as an RFC 2047 encoded word.
enum Mail {
    static func message(_ message: Message, to address: String, mail: MailSettings?, user: String) -> String {
        var m = message
        if mail?.replyTo != nil, m.severity == "critical" {
            m.actions.append("Reply to this e-mail to reach the others who watch over \(m.person.name).")
        }
        let from = mail?.from ?? "\(mailbox(user))@localhost"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        func messageID(_ id: String) -> String { "<\(id).\(hash(address))@\(domain)>" }
        var lines = [
            "From: \(display("\(m.person.name) (lifesignal)")) <\(from)>",
            "To: \(display(m.recipientName)) <\(address)>",
            "Subject: \(headerValue(m.title))",
            "Date: \(m.zone.rfc5322(m.sentAt))",
            "Message-ID: \(messageID(m.id))",
        ]
        if let replyTo = mail?.replyTo { lines.append("Reply-To: \(replyTo)") }
        if let follows = m.follows {
            lines.append("In-Reply-To: \(messageID(follows))")
            lines.append("References: \(messageID(follows))")
        }
        lines += [
            "Auto-Submitted: auto-generated",
            "X-LifeSignal-Id: \(m.id)",
            "X-LifeSignal-Type: \(m.type)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        if m.severity == "critical" { lines += ["X-Priority: 1", "Importance: high"] }
        let body = m.text()
        // Lines of the body: CRLF, and a lone dot never ends the message early.
        let text = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0 == "." ? ".." : String($0) }
        return (lines + [""] + text).joined(separator: "\r\n") + "\r\n"
    }

    static func mailbox(_ user: String) -> String {
        let kept = user.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        return kept.isEmpty ? "lifesignal" : kept
    }

    /// A display name: a quoted string when it is ASCII, an encoded word otherwise.
    static func display(_ name: String) -> String {
        let clean = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        if clean.isEmpty { return "\"\"" }
        guard clean.unicodeScalars.allSatisfy({ $0.isASCII }) else { return headerValue(clean) }
        return "\"" + clean.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
    }

    /// A header value: ASCII as is (control characters dropped), anything else as an RFC 2047
    /// encoded word, so no value can start a new header.
    static func headerValue(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        if clean.unicodeScalars.allSatisfy({ $0.isASCII }) { return clean }
        return "=?UTF-8?B?" + base64(Array(clean.utf8)) + "?="
    }

    /// 8 hex digits of FNV-1a: the recipient's part of a Message-ID.
    static func hash(_ text: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in text.lowercased().utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i])
            let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(table[b0 >> 2])
            out.append(table[((b0 & 3) << 4) | (b1 >> 4)])
            out.append(i + 1 < bytes.count ? table[((b1 & 15) << 2) | (b2 >> 6)] : "=")
            out.append(i + 2 < bytes.count ? table[b2 & 63] : "=")
            i += 3
        }
        return out
    }
}

/// ntfy's headers for a message: the title, a priority (urgent for alarms), tags, and a call
/// button when the person has a phone number.
enum Ntfy {
    static func config(_ m: Message, url: String, timeout: Double) -> String {
        let priority =
            m.severity == "critical" ? "urgent" : m.severity == "warning" ? "high" : "default"
        let tag = m.severity == "critical" ? "rotating_light" : m.status == "resolved" ? "white_check_mark" : "bell"
        var options = [
            ("url", url), ("max-time", Curl.maxTime(timeout)), ("header", "Title: \(Mail.headerValue(m.title))"),
            ("header", "Priority: \(priority)"), ("header", "Tags: \(tag)"), ("header", "X-LifeSignal-Id: \(m.id)"),
        ]
        var actions: [String] = []
        if let phone = m.person.phone {
            let digits = phone.filter { $0 == "+" || ($0.isASCII && $0.isNumber) }
            let name = m.person.name.allSatisfy { $0.isASCII && ($0.isLetter || $0 == " ") } ? m.person.name : digits
            actions.append("view, Call \(name), tel:\(digits)")
        }
        // ntfy's simple format: a value with a comma, semicolon or quote is quoted; the phone
        // app then sends the request itself and clears the notification.
        for button in m.buttons {
            actions.append(
                "http, \(actionValue(button.label)), \(actionValue(button.url)), method=POST, body=\(actionValue(button.body)), clear=true"
            )
        }
        if !actions.isEmpty { options.append(("header", "Actions: " + actions.joined(separator: "; "))) }
        options.append(("data-raw", m.text(footer: false)))
        return Curl.config(options)
    }

    /// A value of ntfy's simple action format: as it is, or in double quotes when it holds a
    /// separator or a quote (a double quote inside cannot be written, so it becomes a single one).
    static func actionValue(_ value: String) -> String {
        let plain = value.filter { $0 != "\r" && $0 != "\n" }
        guard plain.contains(where: { ",;'\"".contains($0) }) else { return plain }
        return "\"" + String(plain.map { $0 == "\"" ? "'" : $0 }) + "\""
    }
}
