//! The bot's one clock, for the adapter and the store: the wall clock, moved by the runtime's
//! paused time where a test pauses it. In a running bot it is the system's clock (tokio's
//! instants are the system's); in a test on paused time (`tokio::time::pause`) it runs with
//! the test's clock, so a 3-minute turn timer is due after 3 minutes of the test's time, and
//! its deadlines, claims and budgets agree. Like `metrics.rs`, it uses nothing of the bot.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in Unix microseconds.
pub fn unix_us() -> u64 {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i128);
    // How far tokio's clock is from the system's: nothing unless a test paused it.
    let real = std::time::Instant::now();
    let runtime = tokio::time::Instant::now().into_std();
    let skew = if runtime >= real {
        runtime.duration_since(real).as_micros() as i128
    } else {
        -(real.duration_since(runtime).as_micros() as i128)
    };
    (wall + skew).max(0) as u64
}

/// Now, in Unix milliseconds.
pub fn unix_ms() -> u64 {
    unix_us() / 1000
}

/// Now, in Unix seconds.
pub fn unix_secs() -> u64 {
    unix_us() / 1_000_000
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn it_is_the_system_clock_outside_a_paused_runtime() {
        let system = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(super::unix_ms().abs_diff(system) < 1_000);
    }

    #[tokio::test(start_paused = true)]
    async fn it_moves_with_a_paused_runtimes_time() {
        let before = super::unix_ms();
        tokio::time::sleep(Duration::from_secs(180)).await;
        let after = super::unix_ms();
        // Three minutes of the test's time, in far less of the machine's.
        assert!(
            (179_000..181_000).contains(&(after - before)),
            "{}",
            after - before
        );
    }
}
