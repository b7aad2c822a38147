/// When a watcher's device tells a dependent's external contact of something without waiting
/// `DeliveryRules.relayDelay`. The wait lets the dependent's own device, when it is awake, tell
/// first; it can tell first only what it can know first. An answer to an alarm recorded by this
/// very device — its member's vouch or "I'm on it", or a tap this device read from an inbox,
/// after this device itself told her of the alarm — is known here before anywhere else, so the
/// run that records it (or the next) tells her. Before, it waited a run for nothing: the sister
/// heard the vouch's all-clear ten minutes after it was made (issue #43).
extension DeliveryRules {
    /// Whether `me`'s device `device` tells `n`, relayed to someone else's external contact, at
    /// once: it answers an alarm, the answer was recorded by this device, and it is this member's
    /// own word or this device told the recipient of the alarm.
    static func answeredHere(_ n: Notification, me: String, device: String, circle: CircleState, feed: Feed)
        -> Bool
    {
        guard let key = n.thread, let thread = Notification.Thread(key: key),
            let answer = answer(to: n, thread: thread, circle: circle), answer.stamp.device == device
        else { return false }
        if answer.by == me { return true }
        return feed.notifications.values.contains { start in
            start.thread == key && start.recipient == n.recipient && !ends(start.kind) && start.kind != .acknowledged
                && feed.deliveries.contains { $0.key.notification == start.id && $0.value.isDelivered }
        }
    }

    /// The record that answers the alarm `n` follows: the vouch or check-in an all-clear tells,
    /// the acknowledgement an "is on it" tells; `by` is the member whose own word it is (nil
    /// for a tap, read from an inbox, which is the word of the phone's owner).
    static func answer(to n: Notification, thread: Notification.Thread, circle: CircleState)
        -> (stamp: Stamp, by: String?)?
    {
        switch n.kind {
        case .dependentCheckedIn:
            guard case .deadline(let member, let deadline) = thread, let state = circle.members[member] else {
                return nil
            }
            if let vouch = circle.status(of: member, now: n.at).vouch, vouch.deadline == deadline, vouch.at == n.at {
                return (vouch.stamp, vouch.by)
            }
            guard let checkIn = state.lastCheckIn(asOf: n.at), checkIn.at == n.at else { return nil }
            return (checkIn.stamp, checkIn.fromPhone ? nil : member)
        case .acknowledged:
            guard let ack = circle.acknowledgements(of: thread).last(where: { $0.stamp.at == n.at }) else {
                return nil
            }
            return (ack.stamp, ack.external == nil ? ack.by : nil)
        case .alertActivated, .alertDeactivated, .alertUpdated, .checkInReminder, .missedCheckIn,
            .dependentNonResponsive, .dependentAlert, .dependentAlertUpdated, .dependentAlertResolved,
            .dependentUnreadable, .dependentPaused, .dependentResumed, .contactAdded, .contactRemoved, .roleChanged,
            .pingSent, .pingReceived, .pingCanceled, .pingResponded, .allPingsCleared, .system:
            return nil
        }
    }
}
