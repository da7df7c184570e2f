//! The process's own standard metrics (`process_cpu_seconds_total`,
//! `process_resident_memory_bytes`, `process_open_fds`, …, as every Prometheus client
//! library names them), read from `/proc` through `procfs` at each scrape. Elsewhere than
//! Linux there is no `/proc`, and nothing is written.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;

/// Reads `/proc/self` when encoded.
#[derive(Debug)]
pub(super) struct Process;

impl Collector for Process {
    #[cfg(target_os = "linux")]
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        use prometheus_client::encoding::EncodeMetric;
        use prometheus_client::metrics::counter::ConstCounter;
        use prometheus_client::metrics::gauge::ConstGauge;

        // A process that cannot read its own /proc (a restricted sandbox) reports nothing
        // of itself rather than failing the scrape.
        let Ok(me) = procfs::process::Process::myself() else {
            return Ok(());
        };
        let Ok(stat) = me.stat() else {
            return Ok(());
        };
        let ticks = procfs::ticks_per_second() as f64;
        let mut gauge = |name: &str, help: &str, value: f64| {
            let gauge = ConstGauge::new(value);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
        };
        gauge(
            "process_resident_memory_bytes",
            "Resident memory size in bytes.",
            (stat.rss * procfs::page_size()) as f64,
        )?;
        gauge(
            "process_virtual_memory_bytes",
            "Virtual memory size in bytes.",
            stat.vsize as f64,
        )?;
        gauge(
            "process_threads",
            "Number of OS threads in the process.",
            stat.num_threads as f64,
        )?;
        if let Ok(boot) = procfs::boot_time_secs() {
            gauge(
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds.",
                boot as f64 + stat.starttime as f64 / ticks,
            )?;
        }
        if let Ok(open) = me.fd_count() {
            gauge(
                "process_open_fds",
                "Number of open file descriptors.",
                open as f64,
            )?;
        }
        if let Ok(limits) = me.limits()
            && let procfs::process::LimitValue::Value(max) = limits.max_open_files.soft_limit
        {
            gauge(
                "process_max_fds",
                "Maximum number of open file descriptors.",
                max as f64,
            )?;
        }
        let cpu = ConstCounter::new((stat.utime + stat.stime) as f64 / ticks);
        cpu.encode(encoder.encode_descriptor(
            "process_cpu_seconds",
            "Total user and system CPU time spent in seconds.",
            None,
            cpu.metric_type(),
        )?)
    }

    #[cfg(not(target_os = "linux"))]
    fn encode(&self, _encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        Ok(())
    }
}
