//! Jobs staged by an arbiter older than the store's job lines (schema 11) kept their input
//! and results in files in the home (`jobs/<jobId>/input.ndjson`, `results*.ndjson`). The
//! first run of such a job here moves those lines into the store, so an upgrade in the
//! middle of a job loses none of it.

use super::files;
use crate::core::Context;
use crate::error::{Error, Result};
use crate::ids::JobId;
use crate::store::JobPart;
use std::io::{BufRead, BufReader};

/// The files of the old layout, and the lines each became. The input goes last: once it is
/// in the store the job counts as moved, so an import cut short is simply done again (a
/// line already in the store keeps its first body).
const LAYOUT: [(&str, JobPart); 4] = [
    ("results.ndjson", JobPart::Results),
    ("results-revision.ndjson", JobPart::Results),
    ("results-baseline.ndjson", JobPart::Baseline),
    ("input.ndjson", JobPart::Input),
];

/// Move job `job_id`'s lines from the old files into the store, if it has such files and
/// they are not moved yet; the files are removed once moved.
pub(crate) fn import(ctx: &Context, job_id: &JobId) -> Result<()> {
    let dir = files(ctx, job_id).dir().to_owned();
    if !dir.join("input.ndjson").exists() {
        return Ok(());
    }
    for (name, part) in LAYOUT {
        let path = dir.join(name);
        let file = match std::fs::File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::internal(&format!("opening {}", path.display()), e)),
        };
        // A last line without its newline was being written when its process died: the old
        // layout never counted it, and neither does the store.
        let complete = ends_in_newline(&path)?;
        let mut writer = super::lines::LineWriter::new(ctx, *job_id, part, None, 0);
        let mut lines = BufReader::new(file).split(b'\n').peekable();
        while let Some(line) = lines.next() {
            if lines.peek().is_none() && !complete {
                break;
            }
            let line =
                line.map_err(|e| Error::internal(&format!("reading {}", path.display()), e))?;
            writer.push(line)?;
        }
        writer.flush()?;
    }
    for (name, _) in LAYOUT {
        let _ = std::fs::remove_file(dir.join(name));
    }
    tracing::info!(job = %job_id, "moved a job's input and results from files into the store");
    Ok(())
}

fn ends_in_newline(path: &std::path::Path) -> Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)
        .map_err(|e| Error::internal(&format!("opening {}", path.display()), e))?;
    if file.metadata().map_or(0, |m| m.len()) == 0 {
        return Ok(true);
    }
    let mut last = [0u8];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .map_err(|e| Error::internal(&format!("reading {}", path.display()), e))?;
    Ok(last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::NewJob;
    use crate::wire::jobs::JobKind;

    #[test]
    fn a_job_staged_in_files_is_moved_into_the_store_once() {
        let (_home, ctx) = crate::core::test_support::home();
        let job_id = JobId::new_v4();
        ctx.store()
            .unwrap()
            .insert_job(&NewJob {
                job_id: &job_id,
                model_id: &crate::ids::ModelId::from(uuid::Uuid::from_u128(1)),
                kind: JobKind::Batch,
                request: &serde_json::json!({}),
                total: 3,
                owner: None,
                shards: &[],
            })
            .unwrap();
        let dir = files(&ctx, &job_id).dir().to_owned();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("input.ndjson"),
            "{\"state\":0}\n{\"state\":1}\n{\"state\":2}\n",
        )
        .unwrap();
        // The second result was being written when the old worker died.
        std::fs::write(dir.join("results.ndjson"), "{\"index\":0}\n{\"ind").unwrap();
        import(&ctx, &job_id).unwrap();
        let store = ctx.store().unwrap();
        let bodies = |part| -> Vec<String> {
            store
                .job_lines(&job_id, part, 0, 10)
                .unwrap()
                .into_iter()
                .map(|(_, line)| String::from_utf8(line).unwrap())
                .collect()
        };
        assert_eq!(
            bodies(JobPart::Input),
            ["{\"state\":0}", "{\"state\":1}", "{\"state\":2}"]
        );
        assert_eq!(bodies(JobPart::Results), ["{\"index\":0}"]);
        assert!(
            !dir.join("input.ndjson").exists(),
            "the files go once moved"
        );
        // Nothing left to move: a second call changes nothing.
        import(&ctx, &job_id).unwrap();
        assert_eq!(bodies(JobPart::Input).len(), 3);
    }
}
