//! Which due reminders become notifications: per active run only the latest reminder whose
//! time has come, if it is not answered, once (claimed in the store, so a restart does not
//! repeat it), never while notifications are off, and not during quiet hours (a reminder due
//! then is notified when they end, if it is still the latest). Showing them is the front end's;
//! when a reminder is due is `reminders`'.

use super::engine::ProtocolEngine;
use super::error::ProtocolError;
use super::reminder_times::ReminderSettings;
use super::reminders::ReminderItem;

impl ProtocolEngine {
    /// The reminders to notify now, each recorded as notified (a second call answers none of
    /// them again).
    pub fn reminders_to_notify(
        &self,
        settings: &ReminderSettings,
    ) -> Result<Vec<ReminderItem>, ProtocolError> {
        if !settings.notify {
            return Ok(Vec::new());
        }
        let minute = self.minute_now();
        if settings.quiet_hours.is_some_and(|q| q.contains(minute)) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for latest in self.latest_due()? {
            if latest.answered {
                continue;
            }
            if self.store.claim_reminder_notice(&latest.protocol_run_id, latest.step, &latest.at)? {
                out.push(latest);
            }
        }
        Ok(out)
    }

    /// The reminders notified and still open: per active run, the latest due reminder if it
    /// was notified and is not answered (what the app's reminder card shows).
    pub fn reminder_notices(&self) -> Result<Vec<ReminderItem>, ProtocolError> {
        let mut out = Vec::new();
        for latest in self.latest_due()? {
            if !latest.answered
                && self.store.reminder_notified(&latest.protocol_run_id, latest.step, &latest.at)?
            {
                out.push(latest);
            }
        }
        Ok(out)
    }

    /// Per active run, its latest reminder whose time has come, in time order.
    fn latest_due(&self) -> Result<Vec<ReminderItem>, ProtocolError> {
        let mut latest: Vec<ReminderItem> = Vec::new();
        for item in self.reminders()?.into_iter().filter(|r| r.due) {
            // `reminders` is in time order: a later one of the same run replaces the earlier.
            latest.retain(|r| r.protocol_run_id != item.protocol_run_id);
            latest.push(item);
        }
        Ok(latest)
    }
}

#[cfg(test)]
#[path = "notify_tests.rs"]
mod tests;
