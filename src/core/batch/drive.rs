//! One pass of decisions over a run of a job's input lines: the whole input of a job run
//! whole, or one shard's lines. Results are appended in input order and written in
//! chunks, fenced by the owner (of the job, or of the shard); progress is recorded a few
//! times a second, and a cancel is looked for as often.

use super::super::jobs::lines::{self, LineWriter};
use super::super::jobs::{JobPart, Observer};
use super::super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::JobId;
use crate::store::ShardStats;
use crate::telemetry::metrics as telemetry;
use crate::wire::Usage;
use crate::wire::jobs::{JobKind, Progress};
use futures_util::StreamExt;
use serde_json::Value;
use std::time::Duration;

/// One finished item, ready to append.
pub(crate) struct ItemResult {
    /// The result line, without its newline.
    pub line: Vec<u8>,
    pub failed: bool,
    pub usage: Usage,
    pub latency: Duration,
}

/// Results so far: what a resumed pass starts from.
#[derive(Default)]
pub(crate) struct Tally {
    pub done: u64,
    pub failed: u64,
    pub usage: Usage,
    pub timed: u64,
    pub latency: Duration,
}

impl Tally {
    fn add(&mut self, failed: bool, usage: Usage) {
        self.done += 1;
        self.failed += u64::from(failed);
        self.usage.input_tokens += usage.input_tokens;
        self.usage.output_tokens += usage.output_tokens;
    }

    /// What a shard's row records of it.
    pub(crate) fn stats(&self) -> ShardStats {
        ShardStats {
            done: self.done,
            failed: self.failed,
            input_tokens: self.usage.input_tokens,
            output_tokens: self.usage.output_tokens,
            timed: self.timed,
            latency_us: u64::try_from(self.latency.as_micros()).unwrap_or(u64::MAX),
        }
    }
}

/// How often progress is recorded, output flushed and a cancel looked for.
const TICK: Duration = Duration::from_millis(200);

/// One pass of decisions over a job's input: where its results go, and where it stands
/// in its job.
pub(crate) struct Pass<'a> {
    pub job_id: &'a JobId,
    /// The job's kind, as its items are counted in the metrics.
    pub kind: JobKind,
    /// The lines the results are written to.
    pub results: JobPart,
    /// What the engine takes at once.
    pub window: usize,
    /// The first input line this pass decides (0, or a shard's first).
    pub first: u64,
    /// Items this pass decides: lines `first..first + items`.
    pub items: u64,
    /// Items of the job finished by earlier passes (progress counts them).
    pub done_before: u64,
    /// Items of the whole job.
    pub total: u64,
    /// The shard this pass is, whose owner fences its writes; `None`: a job run whole.
    pub shard: Option<u64>,
    /// Notified once every item of the pass is taken into the window.
    pub all_taken: Option<&'a tokio::sync::Notify>,
}

impl<'a> Pass<'a> {
    /// The pass of one shard of the job `record` is of: its lines, decided `window` at a
    /// time, its results fenced by the shard's owner.
    pub(crate) fn of_shard(
        record: &'a crate::store::JobRecord,
        kind: JobKind,
        window: usize,
        (shard, all_taken): (&crate::store::Shard, &'a tokio::sync::Notify),
    ) -> Self {
        Self {
            job_id: &record.job_id,
            kind,
            results: shard.part,
            window,
            first: shard.first,
            items: shard.lines,
            done_before: 0,
            total: record.total,
            shard: Some(shard.index),
            all_taken: Some(all_taken),
        }
    }

    /// Record progress (the job's, or the shard's) as of `tally` now, done when the
    /// returned future is awaited; whether the pass must stop.
    fn record(
        &self,
        ctx: &Context,
        tally: &Tally,
    ) -> impl Future<Output = Result<bool>> + Send + 'static {
        let (ctx, job_id, shard) = (ctx.clone(), *self.job_id, self.shard);
        let (progress, stats) = (self.progress(tally), tally.stats());
        async move {
            let Some(shard) = shard else {
                return super::super::jobs::record_progress(&ctx, &job_id, progress).await;
            };
            blocking(move || {
                Ok(ctx
                    .store()?
                    .record_shard((&job_id, shard, ctx.lease()?.id()), &stats)?)
            })
            .await
        }
    }

    fn progress(&self, tally: &Tally) -> Progress {
        Progress {
            total: self.total,
            done: self.done_before + tally.done,
            failed: tally.failed,
        }
    }
}

/// Decide every input line of a pass that has no result yet (resuming after the last
/// result written), appending results in input order. `None` when it was stopped: a
/// cancel, or the job (or shard) is no longer this process's (another replica claimed it).
pub(crate) async fn drive<F, Fut>(
    ctx: &Context,
    pass: &Pass<'_>,
    observer: &dyn Observer,
    decide: F,
) -> Result<Option<Tally>>
where
    F: Fn(u64, Vec<u8>) -> Fut,
    Fut: std::future::Future<Output = Result<ItemResult>>,
{
    // Twice the engine's parallelism: results are written in order, so one slow item must
    // not leave the cores idle behind it.
    let window = pass.window.max(1) * 2;
    let (job_id, part) = (*pass.job_id, pass.results);
    let mut tally = {
        let ctx = ctx.clone();
        let range = (pass.first, pass.items);
        blocking(move || resume(&ctx, &job_id, part, range)).await?
    };
    let owner = ctx.lease()?.id().to_owned();
    let next = pass.first + tally.done;
    let mut writer = LineWriter::new(ctx, job_id, part, Some(owner), next).in_shard(pass.shard);
    if pass.record(ctx, &tally).await? {
        return Ok(None);
    }
    observer.progress(pass.progress(&tally));

    let decide = &decide;
    let left = usize::try_from(pass.items - tally.done).unwrap_or(usize::MAX);
    let all_taken = pass.all_taken;
    let mut results = std::pin::pin!(
        input_lines(ctx, job_id, next)
            .take(left)
            // Polled once the last line is taken: the pass's tail is in the window.
            .chain(futures_util::stream::poll_fn(move |_| {
                if let Some(notice) = all_taken {
                    notice.notify_one();
                }
                std::task::Poll::Ready(None)
            }))
            .map(|line| async move {
                let (index, line) = line?;
                decide(index, line).await
            })
            .buffered(window)
    );

    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The results and progress of the last tick being written, while the window goes on
    // deciding: awaiting the store here would leave the window unpolled (a remote
    // engine's finished requests unanswered, no new ones sent) for as long as it takes.
    let mut writing: Option<std::pin::Pin<Box<dyn Future<Output = Result<bool>> + Send>>> = None;
    let mut stopped = loop {
        tokio::select! {
            next = results.next() => {
                let Some(item) = next else { break false };
                keep(item?, pass.kind, observer, &mut tally, &mut writer);
            }
            stop = async {
                match writing.as_mut() {
                    Some(write) => write.await,
                    None => std::future::pending().await,
                }
            }, if writing.is_some() => {
                writing = None;
                if stop? {
                    break true;
                }
            }
            _ = ticker.tick(), if writing.is_none() => {
                observer.progress(pass.progress(&tally));
                let (flush, record) = (writer.flush_async(), pass.record(ctx, &tally));
                writing = Some(Box::pin(async move {
                    // Lines no longer ours: stop; else record progress, which says.
                    Ok(!flush.await? || record.await?)
                }));
            }
        }
    };
    if let Some(write) = writing.take() {
        stopped |= write.await?;
    }
    // What finished is kept, cancelled or not (a job no longer ours keeps its new owner's).
    let ours = writer.flush_async().await?;
    // A shard that runs to its end records its figures as it completes.
    if ours && (pass.shard.is_none() || stopped) {
        pass.record(ctx, &tally).await?;
        observer.progress(pass.progress(&tally));
    }
    if ours && !stopped && tally.done != pass.items {
        // Lines staged are never removed while the job lives: this store lost some.
        return Err(Error::bug(format!(
            "job {job_id}: {} of its {} staged input lines are in the store",
            tally.done, pass.items
        )));
    }
    Ok((ours && !stopped).then_some(tally))
}

/// A finished item: shown to `observer`, counted, and held for the next write.
fn keep(
    mut item: ItemResult,
    kind: JobKind,
    observer: &dyn Observer,
    tally: &mut Tally,
    writer: &mut LineWriter,
) {
    // The observer takes the line with its newline, the store without.
    item.line.push(b'\n');
    observer.line(&item.line);
    item.line.pop();
    tally.add(item.failed, item.usage);
    telemetry::job_item(
        kind.as_str(),
        if item.failed {
            telemetry::ItemResult::Failed
        } else {
            telemetry::ItemResult::Succeeded
        },
    );
    writer.hold(item.line);
    tally.timed += 1;
    tally.latency += item.latency;
}

/// The job's input lines from line `from` on, read a page at a time as they are taken.
fn input_lines(
    ctx: &Context,
    job_id: JobId,
    from: u64,
) -> impl futures_util::Stream<Item = Result<(u64, Vec<u8>)>> + '_ {
    futures_util::stream::try_unfold(
        (std::collections::VecDeque::new(), from, false),
        move |(mut page, next, mut last): (
            std::collections::VecDeque<(u64, Vec<u8>)>,
            u64,
            bool,
        )| async move {
            if page.is_empty() && !last {
                let ctx = ctx.clone();
                let read = blocking(move || {
                    Ok(ctx
                        .store()?
                        .job_lines(&job_id, JobPart::Input, next, lines::CHUNK)?)
                })
                .await?;
                last = read.len() < lines::CHUNK;
                page.extend(read);
            }
            let Some((index, line)) = page.pop_front() else {
                return Ok(None);
            };
            Ok(Some(((index, line), (page, index + 1, last))))
        },
    )
}

/// Count the results earlier runs wrote of lines `first..first + items`: what a resumed
/// pass starts from.
fn resume(
    ctx: &Context,
    job_id: &JobId,
    part: JobPart,
    (first, items): (u64, u64),
) -> Result<Tally> {
    let mut tally = Tally::default();
    let end = first + items;
    let mut next = first;
    while next < end {
        let page = ctx.store()?.job_lines(job_id, part, next, lines::CHUNK)?;
        for (index, line) in &page {
            if *index >= end {
                return Ok(tally);
            }
            let value: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
            let usage = serde_json::from_value(value["usage"].clone()).unwrap_or_default();
            tally.add(value.get("error").is_some(), usage);
            next = index + 1;
        }
        if page.len() < lines::CHUNK {
            break;
        }
    }
    Ok(tally)
}
