//! getUpdates: long polling as Telegram does it.

use serde_json::{json, Value};
use std::time::Duration;

use super::http::{Params, Reply};
use super::state::Shared;

const WEBHOOK_ACTIVE: &str = "Conflict: can't use getUpdates method while webhook is active; use \
                              deleteWebhook to delete the webhook first";

const CONFLICT: &str = "Conflict: terminated by other getUpdates request; make sure that only one \
                        bot instance is running";

/// Long polling: confirms updates before `offset`, then answers the pending ones (at most
/// `limit`, of the `allowed_updates` kinds), holding the request up to `timeout` seconds until
/// one arrives. A newer getUpdates ends a held one with 409, as Telegram does; so does a webhook,
/// which refuses getUpdates while it is set.
pub(super) async fn get_updates(shared: &Shared, p: &Params) -> Reply {
    if shared.lock().webhook.is_some() {
        return Reply::error(409, WEBHOOK_ACTIVE);
    }
    let offset = p.i64("offset").unwrap_or(0);
    let limit = p.i64("limit").unwrap_or(100).clamp(1, 100) as usize;
    let timeout = p.i64("timeout").unwrap_or(0).clamp(0, 50) as u64;
    let allowed = p.json("allowed_updates");
    let generation = shared.update(|st| {
        st.poll_generation += 1;
        if offset > 0 {
            st.updates.retain(|u| i64::from(u.id) >= offset);
        } else if offset < 0 {
            let keep = offset.unsigned_abs() as usize;
            while st.updates.len() > keep {
                st.updates.pop_front();
            }
        }
        st.set_allowed_updates(allowed);
        st.poll_generation
    });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let notified = shared.changed.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        {
            let st = shared.lock();
            if st.webhook.is_some() {
                return Reply::error(409, WEBHOOK_ACTIVE);
            }
            if st.poll_generation != generation && !st.concurrent_polling {
                return Reply::error(409, CONFLICT);
            }
            let batch: Vec<Value> = st
                .updates
                .iter()
                .filter(|u| st.allowed(u.kind))
                .take(limit)
                .map(|u| u.json.clone())
                .collect();
            if !batch.is_empty() || tokio::time::Instant::now() >= deadline {
                return Reply::ok(json!(batch));
            }
        }
        let _ = tokio::time::timeout_at(deadline, notified).await;
    }
}
