//! One connection type for a single Redis server, a Redis Cluster, and the in-memory server
//! (`memory://<name>`, src/store/memory/).

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::{Cmd, Pipeline, RedisFuture, RedisResult, Value};
use std::time::Duration;

/// A cloneable, reconnecting connection: a [`ConnectionManager`] for one server, or a
/// [`ClusterConnection`] for a cluster. Clones share one multiplexed connection.
#[derive(Clone)]
pub enum Conn {
    /// One server.
    Single(ConnectionManager),
    /// A Redis Cluster.
    Cluster(ClusterConnection),
    /// The process's in-memory server of a name.
    Memory(super::memory::Memory),
}

impl Conn {
    /// Connects to `url`; a comma-separated list of URLs means a cluster's seed nodes.
    ///
    /// # Errors
    /// When no server answers within `timeout`.
    pub async fn connect(url: &str, timeout: Duration) -> RedisResult<Conn> {
        if let Some(name) = url.trim().strip_prefix("memory://") {
            return Ok(Conn::Memory(super::memory::Memory::named(name)));
        }
        let urls: Vec<&str> = url
            .split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .collect();
        if urls.len() > 1 {
            let client = ClusterClient::builder(urls)
                .connection_timeout(timeout)
                .response_timeout(timeout)
                .retries(2)
                .build()?;
            return Ok(Conn::Cluster(client.get_async_connection().await?));
        }
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        Ok(Conn::Single(
            ConnectionManager::new_with_config(client, config).await?,
        ))
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Conn::Single(c) => c.req_packed_command(cmd),
            Conn::Cluster(c) => c.req_packed_command(cmd),
            Conn::Memory(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Conn::Single(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Memory(c) => c.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(c) => c.get_db(),
            Conn::Cluster(c) => c.get_db(),
            Conn::Memory(c) => c.get_db(),
        }
    }
}
