//! The validated `server:` settings of `arbiter serve`: [`ServerSettings`], with the
//! defaults. A bad value is refused with its location (`server.rate_limit.burst`), never
//! clamped into range, so what runs is what the file says.

use super::file::{RateLimitConfig, ServerConfig};
use super::http_url;
use crate::wire::validate::{FieldError, Loc, Segment};
use std::net::SocketAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::time::Duration;

/// `server:`, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerSettings {
    /// Public base URL of problem `type` URIs, without a trailing `/`; `None`: the
    /// listen address's (`http://127.0.0.1:8080`), never the request's `Host`.
    pub public_url: Option<String>,
    /// Largest accepted request body, in bytes (at least 1).
    pub max_body_bytes: usize,
    /// Per-token rate limit (token bucket).
    pub rate_limit: RateLimit,
    /// Failed authentications allowed per client address (token bucket); past them, 429.
    pub auth_failures: RateLimit,
    /// Shards (and jobs run whole) this process runs at once; more wait, `queued`. Each
    /// already uses every core.
    pub max_running_jobs: NonZeroUsize,
    /// Items per shard of a batch or an evaluation: the unit any worker of any process
    /// claims. `None`: sized to the job ([`crate::core::jobs::shards::size_for`]).
    pub shard_size: Option<NonZeroUsize>,
    /// Decisions computed at once; more wait, up to `decision_queue`.
    pub max_concurrent_decisions: NonZeroUsize,
    /// Decisions waiting for a slot at most; one more is refused (503 `overloaded`).
    pub decision_queue: usize,
    /// Slow and greedy clients: how long a request head, an idle connection and a stalled
    /// body may take, and how many connections are served at once.
    pub connections: ConnectionLimits,
    /// Where `/metrics` is served, on a listener of its own; `None`: not at all.
    pub metrics_listen: Option<SocketAddr>,
    /// Whether the web app is served under `/ui/` (off unless written).
    pub ui: bool,
    /// How long a web app session lasts from its login: an absolute expiry, however busy
    /// the session (a stolen cookie is good for this long at most).
    pub ui_session_ttl: Duration,
}

/// `server.header_timeout`, `idle_timeout`, `body_timeout`, `body_min_rate`,
/// `max_connections`, `max_connections_per_address`, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// A request's head must arrive whole within this, counted from the connection's
    /// accept (its first request) or from its first byte (a kept-alive connection's next).
    pub header_timeout: Duration,
    /// A kept-alive connection with no request in progress is closed this long after its
    /// accept or its last request with a valid token, whichever is later: a request without
    /// one does not keep it open.
    pub idle_timeout: Duration,
    /// A request body may stall this long between its bytes, and has this long before
    /// [`Self::body_min_rate`] counts.
    pub body_timeout: Duration,
    /// Past [`Self::body_timeout`], a body must have arrived at this many bytes a second
    /// on average (0: no minimum rate).
    pub body_min_rate: u64,
    /// Connections served at once; the next waits until one closes or, idle, gives way.
    pub max_connections: NonZeroUsize,
    /// Connections served at once from one client address (IP, whatever the port); the
    /// next from it is refused 503 `overloaded`. At most [`Self::max_connections`].
    pub max_connections_per_address: NonZeroUsize,
}

impl ConnectionLimits {
    /// An address's share of `max_connections` unless one is written: a quarter, at least 1.
    pub fn default_share(max_connections: NonZeroUsize) -> NonZeroUsize {
        NonZeroUsize::new(max_connections.get() / 4).unwrap_or(NonZeroUsize::MIN)
    }
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_mins(1),
            body_timeout: Duration::from_secs(10),
            body_min_rate: 1024,
            max_connections: NonZeroUsize::new(512).unwrap(),
            max_connections_per_address: NonZeroUsize::new(128).unwrap(),
        }
    }
}

impl ServerSettings {
    pub const DEFAULT_MAX_BODY_BYTES: usize = 10 * 1024 * 1024;
    pub const DEFAULT_MAX_RUNNING_JOBS: NonZeroUsize = NonZeroUsize::new(2).unwrap();
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            public_url: None,
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
            rate_limit: RateLimit::default(),
            auth_failures: RateLimit::AUTH_FAILURES,
            max_running_jobs: Self::DEFAULT_MAX_RUNNING_JOBS,
            shard_size: None,
            max_concurrent_decisions: Self::default_concurrent_decisions(),
            decision_queue: Self::DEFAULT_DECISION_QUEUE,
            connections: ConnectionLimits::default(),
            metrics_listen: None,
            ui: false,
            ui_session_ttl: Self::DEFAULT_UI_SESSION_TTL,
        }
    }
}

impl ServerSettings {
    /// Decisions waiting for a slot, by default: enough to ride out a burst, bounded so
    /// that memory is.
    pub const DEFAULT_DECISION_QUEUE: usize = 64;

    /// A working day: an annotator logs in once a morning.
    pub const DEFAULT_UI_SESSION_TTL: Duration = Duration::from_hours(12);

    /// The longest `ui_session_ttl` taken: a week.
    const MAX_UI_SESSION_TTL: f64 = 7.0 * 86_400.0;

    /// One decision per core: each already uses the core it runs on fully.
    pub fn default_concurrent_decisions() -> NonZeroUsize {
        std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
    }
}

/// `server.rate_limit`: requests per second refilled (finite, more than 0), and the
/// bucket size, i.e. the burst (at least 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: NonZeroU32,
}

impl RateLimit {
    pub const DEFAULT_BURST: NonZeroU32 = NonZeroU32::new(200).unwrap();
    /// Failed authentications per client address: 20 at once, then one a second.
    pub const AUTH_FAILURES: Self = Self {
        per_second: 1.0,
        burst: NonZeroU32::new(20).unwrap(),
    };
}

impl Default for RateLimit {
    fn default() -> Self {
        Self {
            per_second: 100.0,
            burst: Self::DEFAULT_BURST,
        }
    }
}

/// `written`, defaults filled in; every problem is pushed to `errors`, located under
/// `server`.
pub(super) fn resolve(written: &ServerConfig, errors: &mut Vec<FieldError>) -> ServerSettings {
    let loc = Loc(vec![Segment::Key("server".into())]);
    let defaults = ServerSettings::default();
    let public_url = written.public_url.as_deref().and_then(|text| {
        match http_url(text, "problem type URIs are public") {
            Ok(url) => Some(url),
            Err(msg) => {
                errors.push(FieldError::new(loc.key("public_url"), msg, "bad_url"));
                None
            }
        }
    });
    let max_body_bytes = match written.max_body_bytes {
        None => defaults.max_body_bytes,
        Some(0) => {
            errors.push(at_least_one(loc.key("max_body_bytes")));
            defaults.max_body_bytes
        }
        Some(bytes) => bytes,
    };
    let max_running_jobs = match written.max_running_jobs.map(NonZeroUsize::new) {
        None => defaults.max_running_jobs,
        Some(Some(jobs)) => jobs,
        Some(None) => {
            errors.push(at_least_one(loc.key("max_running_jobs")));
            defaults.max_running_jobs
        }
    };
    let shard_size = match written.shard_size.map(NonZeroUsize::new) {
        None => defaults.shard_size,
        Some(Some(size)) => Some(size),
        Some(None) => {
            errors.push(at_least_one(loc.key("shard_size")));
            defaults.shard_size
        }
    };
    let max_concurrent_decisions = match written.max_concurrent_decisions.map(NonZeroUsize::new) {
        None => defaults.max_concurrent_decisions,
        Some(Some(decisions)) => decisions,
        Some(None) => {
            errors.push(at_least_one(loc.key("max_concurrent_decisions")));
            defaults.max_concurrent_decisions
        }
    };
    ServerSettings {
        public_url,
        max_body_bytes,
        rate_limit: resolve_rate_limit(
            &written.rate_limit,
            RateLimit::default(),
            &loc.key("rate_limit"),
            errors,
        ),
        auth_failures: resolve_rate_limit(
            &written.auth_failures,
            RateLimit::AUTH_FAILURES,
            &loc.key("auth_failures"),
            errors,
        ),
        max_running_jobs,
        shard_size,
        max_concurrent_decisions,
        decision_queue: written
            .decision_queue
            .unwrap_or(ServerSettings::DEFAULT_DECISION_QUEUE),
        connections: resolve_connections(written, &loc, errors),
        metrics_listen: written.metrics_listen.as_deref().and_then(|text| {
            let address = text.trim().parse().ok();
            if address.is_none() {
                errors.push(FieldError::new(
                    loc.key("metrics_listen"),
                    format!("`{text}` is not an address: expected IP:PORT, e.g. 127.0.0.1:9187"),
                    "bad_address",
                ));
            }
            address
        }),
        ui: written.ui.unwrap_or(false),
        ui_session_ttl: resolve_ui_session_ttl(written.ui_session_ttl, &loc, errors),
    }
}

/// `server.ui_session_ttl`: seconds, more than 0 and at most a week.
fn resolve_ui_session_ttl(
    written: Option<f64>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Duration {
    match written {
        None => ServerSettings::DEFAULT_UI_SESSION_TTL,
        Some(secs)
            if secs.is_finite() && secs > 0.0 && secs <= ServerSettings::MAX_UI_SESSION_TTL =>
        {
            Duration::from_secs_f64(secs)
        }
        Some(secs) => {
            errors.push(FieldError::new(
                    loc.key("ui_session_ttl"),
                    format!(
                        "ui_session_ttl is {secs}: expected seconds, more than 0 and at most {} (a week)",
                        ServerSettings::MAX_UI_SESSION_TTL
                    ),
                    "out_of_range",
                ));
            ServerSettings::DEFAULT_UI_SESSION_TTL
        }
    }
}

fn resolve_connections(
    written: &ServerConfig,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> ConnectionLimits {
    let defaults = ConnectionLimits::default();
    let mut seconds = |name: &str, value: Option<f64>, default: Duration| match value {
        None => default,
        Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
            Duration::from_secs_f64(secs)
        }
        Some(secs) => {
            errors.push(FieldError::new(
                loc.key(name),
                format!("{name} is {secs}: expected seconds, more than 0 and at most 86400"),
                "out_of_range",
            ));
            default
        }
    };
    let header_timeout = seconds(
        "header_timeout",
        written.header_timeout,
        defaults.header_timeout,
    );
    let idle_timeout = seconds("idle_timeout", written.idle_timeout, defaults.idle_timeout);
    let body_timeout = seconds("body_timeout", written.body_timeout, defaults.body_timeout);
    let max_connections = match written.max_connections.map(NonZeroUsize::new) {
        None => defaults.max_connections,
        Some(Some(connections)) => connections,
        Some(None) => {
            errors.push(at_least_one(loc.key("max_connections")));
            defaults.max_connections
        }
    };
    let max_connections_per_address = resolve_share(
        written.max_connections_per_address,
        max_connections,
        loc,
        errors,
    );
    ConnectionLimits {
        header_timeout,
        idle_timeout,
        body_timeout,
        body_min_rate: written.body_min_rate.unwrap_or(defaults.body_min_rate),
        max_connections,
        max_connections_per_address,
    }
}

/// `server.max_connections_per_address`: from 1 to `max_connections`; unwritten, a
/// quarter of it.
fn resolve_share(
    written: Option<usize>,
    max_connections: NonZeroUsize,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> NonZeroUsize {
    let default = ConnectionLimits::default_share(max_connections);
    let loc = loc.key("max_connections_per_address");
    match written.map(NonZeroUsize::new) {
        None => default,
        Some(None) => {
            errors.push(at_least_one(loc));
            default
        }
        Some(Some(share)) if share > max_connections => {
            errors.push(FieldError::new(
                loc,
                format!(
                    "max_connections_per_address is {share}: may not be more than \
                     max_connections ({max_connections})"
                ),
                "out_of_range",
            ));
            default
        }
        Some(Some(share)) => share,
    }
}

fn resolve_rate_limit(
    written: &RateLimitConfig,
    defaults: RateLimit,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> RateLimit {
    let per_second = match written.per_second {
        None => defaults.per_second,
        Some(rate) if rate.is_finite() && rate > 0.0 => rate,
        Some(rate) => {
            errors.push(FieldError::new(
                loc.key("per_second"),
                format!("per_second is {rate}: must be a number of requests more than 0"),
                "out_of_range",
            ));
            defaults.per_second
        }
    };
    let burst = match written.burst.map(NonZeroU32::new) {
        None => defaults.burst,
        Some(Some(burst)) => burst,
        Some(None) => {
            errors.push(at_least_one(loc.key("burst")));
            defaults.burst
        }
    };
    RateLimit { per_second, burst }
}

fn at_least_one(loc: Loc) -> FieldError {
    FieldError::new(loc, "must be at least 1", "out_of_range")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve_yaml(yaml: &str) -> (ServerSettings, Vec<String>) {
        let written: ServerConfig = serde_yaml::from_str(yaml).unwrap();
        let mut errors = Vec::new();
        let settings = resolve(&written, &mut errors);
        (settings, errors.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn nothing_written_is_the_defaults() {
        let (settings, errors) = resolve_yaml("{}");
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(settings, ServerSettings::default());
        assert_eq!(settings.max_body_bytes, 10 * 1024 * 1024);
        assert_eq!(settings.max_running_jobs.get(), 2);
        assert_eq!(settings.shard_size, None, "sized to each job");
        assert_eq!(settings.rate_limit.burst.get(), 200);
        assert!((settings.rate_limit.per_second - 100.0).abs() < f64::EPSILON);
    }

    #[test]
    fn values_written_are_kept_and_the_public_url_loses_its_trailing_slash() {
        let (settings, errors) = resolve_yaml(
            "{public_url: 'https://arbiter.example/team/', max_body_bytes: 1000, \
             max_running_jobs: 1, shard_size: 50, rate_limit: {per_second: 0.001, burst: 2}}",
        );
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(settings.shard_size.map(NonZeroUsize::get), Some(50));
        assert_eq!(
            settings.public_url.as_deref(),
            Some("https://arbiter.example/team")
        );
        assert_eq!(settings.max_body_bytes, 1000);
        assert_eq!(settings.max_running_jobs.get(), 1);
        assert_eq!(settings.rate_limit.burst.get(), 2);
        let (settings, errors) = resolve_yaml(
            "{header_timeout: 0.5, idle_timeout: 2, body_timeout: 1.5, body_min_rate: 0, \
             max_connections: 3, max_connections_per_address: 3, \
             metrics_listen: '127.0.0.1:9187'}",
        );
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(
            settings.metrics_listen,
            Some("127.0.0.1:9187".parse().unwrap())
        );
        assert_eq!(
            settings.connections,
            ConnectionLimits {
                header_timeout: Duration::from_millis(500),
                idle_timeout: Duration::from_secs(2),
                body_timeout: Duration::from_millis(1500),
                body_min_rate: 0,
                max_connections: NonZeroUsize::new(3).unwrap(),
                max_connections_per_address: NonZeroUsize::new(3).unwrap(),
            }
        );
    }

    #[test]
    fn an_address_shares_a_quarter_of_the_connections_unless_told() {
        let share = |yaml: &str| {
            let (settings, errors) = resolve_yaml(yaml);
            assert_eq!(errors, Vec::<String>::new(), "{yaml}");
            settings.connections.max_connections_per_address.get()
        };
        assert_eq!(share("{}"), 128);
        assert_eq!(share("{max_connections: 100}"), 25);
        assert_eq!(share("{max_connections: 3}"), 1, "at least 1");
        assert_eq!(share("{max_connections: 1}"), 1);
        assert_eq!(
            share("{max_connections: 8, max_connections_per_address: 8}"),
            8
        );
        assert_eq!(share("{max_connections_per_address: 1}"), 1);
        assert_eq!(
            ServerSettings::default().connections,
            resolve_yaml("{max_connections: 512, max_connections_per_address: 128}")
                .0
                .connections
        );
    }

    #[test]
    fn each_bad_value_is_refused_at_its_location_never_clamped() {
        for (yaml, expected) in [
            (
                "{max_body_bytes: 0}",
                "server.max_body_bytes: must be at least 1",
            ),
            (
                "{max_running_jobs: 0}",
                "server.max_running_jobs: must be at least 1",
            ),
            ("{shard_size: 0}", "server.shard_size: must be at least 1"),
            (
                "{max_connections: 0}",
                "server.max_connections: must be at least 1",
            ),
            (
                "{header_timeout: 0}",
                "server.header_timeout: header_timeout is 0: expected seconds, more than 0",
            ),
            (
                "{idle_timeout: -1}",
                "server.idle_timeout: idle_timeout is -1",
            ),
            (
                "{body_timeout: .inf}",
                "server.body_timeout: body_timeout is inf",
            ),
            (
                "{max_concurrent_decisions: 0}",
                "server.max_concurrent_decisions: must be at least 1",
            ),
            (
                "{rate_limit: {burst: 0}}",
                "server.rate_limit.burst: must be at least 1",
            ),
            (
                "{rate_limit: {per_second: 0}}",
                "server.rate_limit.per_second: per_second is 0: must be a number of requests \
                 more than 0",
            ),
            (
                "{rate_limit: {per_second: -2.5}}",
                "server.rate_limit.per_second: per_second is -2.5",
            ),
            (
                "{rate_limit: {per_second: .nan}}",
                "server.rate_limit.per_second: per_second is NaN",
            ),
            (
                "{rate_limit: {per_second: .inf}}",
                "server.rate_limit.per_second: per_second is inf",
            ),
            (
                "{metrics_listen: 'localhost'}",
                "server.metrics_listen: `localhost` is not an address: expected IP:PORT",
            ),
            (
                "{public_url: 'ftp://arbiter.example'}",
                "server.public_url: `ftp://arbiter.example`: the scheme must be http or https",
            ),
            (
                "{public_url: 'arbiter.example'}",
                "server.public_url: `arbiter.example` is not a URL",
            ),
            (
                "{public_url: 'https://arbiter.example/?q=1'}",
                "server.public_url: `https://arbiter.example/?q=1` may not have a query or fragment",
            ),
        ] {
            let (_, errors) = resolve_yaml(yaml);
            assert_eq!(errors.len(), 1, "{yaml}: {errors:?}");
            assert!(errors[0].starts_with(expected), "{yaml}: {}", errors[0]);
        }
        let (_, errors) = resolve_yaml("{public_url: 'https://me:pw@arbiter.example'}");
        assert!(
            errors[0].starts_with("server.public_url: credentials in the URL are not read")
                && !errors[0].contains("pw"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_share_of_0_or_past_max_connections_is_refused_at_its_location() {
        for (yaml, expected) in [
            (
                "{max_connections_per_address: 0}",
                "server.max_connections_per_address: must be at least 1",
            ),
            (
                "{max_connections: 8, max_connections_per_address: 9}",
                "server.max_connections_per_address: max_connections_per_address is 9: may not \
                 be more than max_connections (8)",
            ),
            (
                "{max_connections_per_address: 513}",
                "server.max_connections_per_address: max_connections_per_address is 513: may \
                 not be more than max_connections (512)",
            ),
        ] {
            let (_, errors) = resolve_yaml(yaml);
            assert_eq!(errors, [expected], "{yaml}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let (_, errors) =
            resolve_yaml("{max_body_bytes: 0, max_running_jobs: 0, rate_limit: {burst: 0}}");
        assert_eq!(errors.len(), 3, "{errors:?}");
    }
}
