//! A job's lines in the store (`store::JobPart`), as the job code uses them: written in
//! chunks as they come, read back in pages, never whole in memory.

use crate::core::Context;
use crate::error::Result;
use crate::ids::JobId;
use crate::store::{Fence, JobPart};

/// Lines per transaction when writing, and per query when reading.
pub const CHUNK: usize = 256;

/// Writes lines of one part in chunks.
pub struct LineWriter {
    ctx: Context,
    job_id: JobId,
    part: JobPart,
    /// Whose lines they are: result lines are written only while this lease owns the job.
    owner: Option<String>,
    /// The shard the lines are of: then `owner` must own that shard, not the job.
    shard: Option<u64>,
    next: u64,
    pending: Vec<(u64, Vec<u8>)>,
}

/// Who may write, as the store checks it.
fn fence(owner: Option<&str>, shard: Option<u64>) -> Fence<'_> {
    match (owner, shard) {
        (None, _) => Fence::None,
        (Some(owner), None) => Fence::Job(owner),
        (Some(owner), Some(shard)) => Fence::Shard { shard, owner },
    }
}

impl LineWriter {
    /// A writer from line `next` on. `owner` fences the writes (results), `None` not
    /// (the input, staged before the job exists).
    pub fn new(
        ctx: &Context,
        job_id: JobId,
        part: JobPart,
        owner: Option<String>,
        next: u64,
    ) -> Self {
        Self {
            ctx: ctx.clone(),
            job_id,
            part,
            owner,
            shard: None,
            next,
            pending: Vec::new(),
        }
    }

    /// The same writer, writing the lines of shard `shard` (when some) of the job.
    #[must_use]
    pub fn in_shard(self, shard: Option<u64>) -> Self {
        Self { shard, ..self }
    }

    /// Add a line (without its newline); written once a chunk of [`CHUNK`] is full. False
    /// when the job is no longer the owner's.
    pub fn push(&mut self, line: Vec<u8>) -> Result<bool> {
        self.hold(line);
        if self.pending.len() >= CHUNK {
            return self.flush();
        }
        Ok(true)
    }

    /// Add a line (without its newline), written at the next flush.
    pub fn hold(&mut self, line: Vec<u8>) {
        self.pending.push((self.next, line));
        self.next += 1;
    }

    /// [`Self::flush`] from async code: take what is pending, and write it on the blocking
    /// pool when the returned future is awaited (lines held meanwhile wait for the next
    /// flush), so the caller may go on while it is written. True when written or nothing
    /// was pending; false when the job is no longer the owner's.
    pub fn flush_async(&mut self) -> impl Future<Output = Result<bool>> + Send + 'static {
        let pending = std::mem::take(&mut self.pending);
        let (ctx, job_id, part, owner, shard) = (
            self.ctx.clone(),
            self.job_id,
            self.part,
            self.owner.clone(),
            self.shard,
        );
        async move {
            // Nothing to write is no transaction: a tick with no new result costs nothing
            // here (the progress record that follows it still checks the job is ours).
            if pending.is_empty() {
                return Ok(true);
            }
            crate::core::blocking(move || {
                Ok(ctx.store()?.put_job_lines(
                    &job_id,
                    part,
                    fence(owner.as_deref(), shard),
                    &pending,
                )?)
            })
            .await
        }
    }

    /// Write what is pending. False when the job is no longer the owner's.
    pub fn flush(&mut self) -> Result<bool> {
        if self.pending.is_empty() {
            return Ok(true);
        }
        let written = self.ctx.store()?.put_job_lines(
            &self.job_id,
            self.part,
            fence(self.owner.as_deref(), self.shard),
            &self.pending,
        )?;
        self.pending.clear();
        Ok(written)
    }

    /// Lines pushed so far (written or pending), counting from 0.
    pub fn count(&self) -> u64 {
        self.next
    }
}

/// Call `f` with every line of `part` from line `from` on, in order, page by page.
pub fn for_each(
    ctx: &Context,
    job_id: &JobId,
    part: JobPart,
    from: u64,
    f: &mut dyn FnMut(u64, &[u8]) -> Result<()>,
) -> Result<()> {
    let mut next = from;
    loop {
        let page = ctx.store()?.job_lines(job_id, part, next, CHUNK)?;
        for (index, line) in &page {
            f(*index, line)?;
            next = index + 1;
        }
        if page.len() < CHUNK {
            return Ok(());
        }
    }
}

/// Up to [`CHUNK`] lines of `part` from line `from` on, each ending in a newline, and the
/// line to read next; `None` past the last.
pub fn page(
    ctx: &Context,
    job_id: &JobId,
    part: JobPart,
    from: u64,
) -> Result<Option<(Vec<u8>, u64)>> {
    let page = ctx.store()?.job_lines(job_id, part, from, CHUNK)?;
    let Some(next) = page.last().map(|(index, _)| index + 1) else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(page.iter().map(|(_, l)| l.len() + 1).sum());
    for (_, line) in page {
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    Ok(Some((bytes, next)))
}
