/// What a watcher's relay says of itself to the person's external responder (issue #43): how
/// she can answer an alarm that reached her without an "I'm on it" button, and, when the
/// person never confirmed that watcher, that it may come twice and that the watcher's answer
/// stops nothing.
///
/// The button is not carried by a relay on purpose. A button's token counts only when the
/// person's own devices committed to it, and it goes only to a topic kept on the machine that
/// holds it: the topic cannot be in the circle (anyone who reads the folder could tap), and a
/// watcher's own commitment would let the watcher's machine say "Sam is on it" in her name.
/// So the relay says whom to tell instead: the watcher, whose own "I'm on it" already counts.
extension Messages {
    /// Adds the relay's words to `message`, for `n` told by `telling` on `subject`'s behalf.
    static func relayWords(_ message: inout Message, _ n: Notification, circle: CircleState, telling: Telling?) {
        guard let telling, case .external(let owner, _) = n.recipient, owner != telling.me else { return }
        let name = message.person.name
        let teller = circle.members[telling.me]?.name?.value ?? "A member of the circle"
        guard [.dependentNonResponsive, .dependentAlert, .dependentAlertUpdated].contains(n.kind) else { return }
        guard circle.confirmedWatcher(telling.me, by: owner) else {
            message.details.append(("Sent by", "\(teller)'s lifesignal; \(teller) is not confirmed by \(name)"))
            message.actions.append(
                "\(name) has not confirmed \(teller) as someone who watches over them: this alarm may come twice (from \(name)'s own devices too), and an \"I'm on it\" through \(teller) stops nothing."
            )
            return
        }
        let phone = circle.members[telling.me]?.details?.value.phone.map { " on \($0)" } ?? ""
        message.actions.append(
            "This alarm comes from \(teller)'s lifesignal, without an \"I'm on it\" button: to tell the others you are on it, tell \(teller)\(phone), who can say so with 'lifesignal notify ack'; the repeats then wait \(Escalation.acknowledgementHold.short)."
        )
    }
}

extension CircleState {
    /// `member`'s external responders whom a watcher's device tells too (through a channel that
    /// runs for others). Until `member` confirms that watcher, its delivery records stop nothing
    /// on `member`'s devices (`DeliveryRules.isDelivered`): these hear of an alarm the watcher
    /// told them first a second time, from `member`'s own devices.
    public func toldTwice(of member: String) -> [String] {
        externalContacts(of: member).filter { $0.contact.channels.contains(where: DeliveryRules.runsForOthers) }
            .map(\.contact.name).sorted()
    }
}
