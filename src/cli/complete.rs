//! Dynamic shell completion: `COMPLETE=<shell> arbiter` (`clap_complete`'s [`CompleteEnv`])
//! prints a registration script; the shell then calls `arbiter` for each completion, which
//! answers with model paths, revisions, job IDs and question IDs from the home, or from the
//! server in client mode (`--server`, `ARBITER_SERVER`).
//!
//! Completers are attached by argument name over the whole command tree ([`attach`]), so a
//! new command whose arguments are called `model`, `revision`, `job_id` or `question`
//! completes them with no more code. A completion never prints an error and gives up after
//! [`BUDGET`]: a missing home, a server that does not answer or a model that does not exist
//! offer nothing.

use super::{Cli, GlobalArgs, Target};
use crate::core::service::{JobsQuery, Service};
use crate::wire::models::ModelKind;
use clap::builder::StyledStr;
use clap::{Arg, CommandFactory, FromArgMatches};
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};
use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};
use clap_complete::{CompleteEnv, Shell};
use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

/// The environment variable that asks for completions (`clap_complete`'s default).
const VAR: &str = "COMPLETE";

/// How long a completion may take: past it the shell gets nothing rather than a hang.
const BUDGET: Duration = Duration::from_secs(2);

/// How many of the newest jobs are offered.
const JOBS: usize = 50;

/// Answer a completion request and exit, when `COMPLETE` is set; else return at once.
/// Called first thing in `main`, before anything is written to stdout.
pub fn enter() {
    CompleteEnv::with_factory(|| attach(Cli::command(), &Arc::new(Line::read())))
        .var(VAR)
        .complete();
}

/// The registration script for `shell`: the shell code that calls `arbiter` to complete.
/// It runs `arbiter` from `PATH`.
pub(crate) fn registration(shell: Shell, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let completer: &dyn EnvCompleter = match shell {
        Shell::Bash => &Bash,
        Shell::Zsh => &Zsh,
        Shell::Fish => &Fish,
        Shell::PowerShell => &Powershell,
        Shell::Elvish => &Elvish,
        other => {
            return Err(std::io::Error::other(format!("no completion for {other}")));
        }
    };
    completer.write_registration(VAR, "arbiter", "arbiter", "arbiter", out)
}

/// What an argument completes to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Wanted {
    /// Model paths; `base`: base model names too (`decide --model` takes either).
    Models { base: bool },
    /// Branches and tags of the model on the line.
    Revisions,
    /// The newest jobs.
    Jobs,
    /// Question IDs of the model on the line, at its default branch.
    Questions,
}

/// Attach a completer to every argument of `command` and its subcommands that names a
/// model, a revision, a job or a question.
fn attach(command: clap::Command, line: &Arc<Line>) -> clap::Command {
    command
        .mut_args(|arg| match wanted(&arg) {
            Some(wanted) => {
                let line = Arc::clone(line);
                arg.add(ArgValueCandidates::new(move || line.candidates(wanted)))
            }
            None => arg,
        })
        .mut_subcommands(|sub| attach(sub, line))
}

fn wanted(arg: &Arg) -> Option<Wanted> {
    let names = arg.get_value_names().unwrap_or_default();
    match arg.get_id().as_str() {
        // The positional model of most commands is a repository model; `--model` (decide)
        // also takes a base model.
        "model" => Some(Wanted::Models {
            base: arg.get_long().is_some(),
        }),
        "revision" | "baseline" => Some(Wanted::Revisions),
        "job_id" => Some(Wanted::Jobs),
        "question" => Some(Wanted::Questions),
        // `--questions IDS` (align, eval) lists question IDs; elsewhere `--questions` is a file.
        "questions" if names.iter().any(|n| n.as_str() == "IDS") => Some(Wanted::Questions),
        _ => None,
    }
}

/// What the command line says so far: where to look, and which model it is about.
#[derive(Debug, Default)]
struct Line {
    global: Option<GlobalArgs>,
    model: Option<String>,
}

impl Line {
    /// The words the shell passed (`arbiter -- arbiter <words>`), up to the one being
    /// completed.
    fn read() -> Self {
        let mut words: Vec<OsString> = std::env::args_os()
            .skip_while(|arg| arg != "--")
            .skip(1)
            .collect();
        // Bash and elvish say which word is being completed; the others complete the last.
        let current = std::env::var("_CLAP_COMPLETE_INDEX")
            .ok()
            .and_then(|index| index.parse().ok())
            .unwrap_or(words.len().saturating_sub(1));
        words.truncate(current);
        Self::parse(words)
    }

    /// Parse an incomplete command line as far as it goes (the global options with their
    /// environment variables, and the innermost subcommand's `model`).
    fn parse(words: Vec<OsString>) -> Self {
        let Ok(matches) = Cli::command()
            .ignore_errors(true)
            .try_get_matches_from(words)
        else {
            return Self::default();
        };
        let global = GlobalArgs::from_arg_matches(&matches).ok();
        let mut innermost = &matches;
        while let Some((_, sub)) = innermost.subcommand() {
            innermost = sub;
        }
        let model = innermost
            .try_get_raw("model")
            .ok()
            .flatten()
            .and_then(|mut values| values.next())
            .and_then(|value| value.to_str())
            .map(str::to_owned);
        Self { global, model }
    }

    /// The candidates for `wanted`, or none when they cannot be had within [`BUDGET`].
    fn candidates(&self, wanted: Wanted) -> Vec<CompletionCandidate> {
        let Some(global) = &self.global else {
            return Vec::new();
        };
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return Vec::new();
        };
        let found = runtime.block_on(async {
            let target = Target::resolve(global).ok()?;
            // Completing in a home that does not exist must not create it.
            if target
                .home
                .as_ref()
                .is_some_and(|ctx| !ctx.settings().home.is_dir())
            {
                return None;
            }
            let lookup = lookup(target.service(), wanted, self.model.as_deref());
            tokio::time::timeout(BUDGET, lookup).await.ok()?
        });
        // A store or repository read still running on the blocking pool is not waited for.
        runtime.shutdown_background();
        found.unwrap_or_default()
    }
}

async fn lookup(
    service: &dyn Service,
    wanted: Wanted,
    model: Option<&str>,
) -> Option<Vec<CompletionCandidate>> {
    let candidate = |value: String, help: String| {
        CompletionCandidate::new(value).help(Some(StyledStr::from(help)))
    };
    Some(match wanted {
        Wanted::Models { base } => service
            .list_models()
            .await
            .ok()?
            .models
            .into_iter()
            .filter(|entry| base || entry.kind == ModelKind::Repository)
            .map(|entry| {
                let help = match (&entry.engine, &entry.base) {
                    (Some(engine), _) => format!("base model ({engine})"),
                    (None, Some(base)) => format!("repository model on {base}"),
                    (None, None) => "repository model".to_owned(),
                };
                candidate(entry.name, help)
            })
            .collect(),
        Wanted::Revisions => {
            let model = service.model(&model?.parse().ok()?).await.ok()?;
            let detail = model.show().await.ok()?;
            let branches = detail
                .branches
                .into_iter()
                .map(|r| candidate(r.name, format!("branch at {}", short(&r.commit))));
            let tags = detail
                .tags
                .into_iter()
                .map(|r| candidate(r.name, format!("tag at {}", short(&r.commit))));
            branches.chain(tags).collect()
        }
        Wanted::Jobs => service
            .list_jobs(JobsQuery {
                model: None,
                status: None,
                limit: JOBS,
            })
            .await
            .ok()?
            .into_iter()
            .map(|job| {
                let help = format!(
                    "{} {} {}/{}, created {}",
                    job.kind.as_str(),
                    job.status_text(),
                    job.progress.done,
                    job.progress.total,
                    job.created_at
                );
                candidate(job.job_id.to_string(), help)
            })
            .collect(),
        Wanted::Questions => service
            .model(&model?.parse().ok()?)
            .await
            .ok()?
            .show()
            .await
            .ok()?
            .questions
            .into_iter()
            .map(|id| candidate(id, "question".to_owned()))
            .collect(),
    })
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> Line {
        Line::parse(words.iter().map(OsString::from).collect())
    }

    /// What each argument of `path` (a subcommand path) completes to.
    fn wanted_of(path: &[&str]) -> Vec<(String, Option<Wanted>)> {
        let mut command = attach(Cli::command(), &Arc::new(Line::default()));
        command.build();
        for name in path {
            command = command.find_subcommand(name).unwrap().clone();
        }
        command
            .get_arguments()
            .map(|arg| {
                (
                    arg.get_id().to_string(),
                    arg.get::<ArgValueCandidates>().map(|_| ()).and(wanted(arg)),
                )
            })
            .collect()
    }

    fn completes(path: &[&str], id: &str) -> Option<Wanted> {
        wanted_of(path)
            .into_iter()
            .find(|(name, _)| name == id)
            .unwrap_or_else(|| panic!("{path:?} has no argument {id}"))
            .1
    }

    #[test]
    fn arguments_complete_by_name_across_the_tree() {
        let repository = Some(Wanted::Models { base: false });
        assert_eq!(completes(&["batch"], "model"), repository);
        assert_eq!(completes(&["models", "show"], "model"), repository);
        assert_eq!(completes(&["jobs", "list"], "model"), repository);
        assert_eq!(
            completes(&["decide"], "model"),
            Some(Wanted::Models { base: true })
        );
        assert_eq!(completes(&["batch"], "revision"), Some(Wanted::Revisions));
        assert_eq!(completes(&["eval"], "baseline"), Some(Wanted::Revisions));
        assert_eq!(
            completes(&["models", "promote"], "revision"),
            Some(Wanted::Revisions)
        );
        assert_eq!(completes(&["jobs", "poll"], "job_id"), Some(Wanted::Jobs));
        assert_eq!(completes(&["jobs", "cancel"], "job_id"), Some(Wanted::Jobs));
        assert_eq!(
            completes(&["examples", "list"], "question"),
            Some(Wanted::Questions)
        );
        assert_eq!(completes(&["align"], "questions"), Some(Wanted::Questions));
        // A file, not question IDs; a new model's path is not an existing one.
        assert_eq!(completes(&["batch"], "questions"), None);
        assert_eq!(completes(&["models", "create"], "path"), None);
    }

    #[test]
    fn the_line_gives_the_home_the_server_and_the_model() {
        let parsed = line(&[
            "arbiter",
            "--home",
            "/h",
            "batch",
            "acme/support",
            "--revision",
        ]);
        assert_eq!(parsed.model.as_deref(), Some("acme/support"));
        let global = parsed.global.unwrap();
        assert_eq!(global.home, Some("/h".into()));

        let parsed = line(&[
            "arbiter",
            "decide",
            "--model=acme/x",
            "--server",
            "http://s",
        ]);
        assert_eq!(parsed.model.as_deref(), Some("acme/x"));
        assert_eq!(parsed.global.unwrap().server.as_deref(), Some("http://s"));

        // Nothing yet, an unknown command: no model, no error. Parsing stops at an unknown
        // option, so a model after one is not seen (revisions then complete to nothing).
        assert_eq!(line(&["arbiter"]).model, None);
        assert_eq!(line(&["arbiter", "nonsense", "x"]).model, None);
        assert_eq!(
            line(&["arbiter", "batch", "acme/m", "--bogus"])
                .model
                .as_deref(),
            Some("acme/m")
        );
        assert_eq!(line(&["arbiter", "batch", "--bogus", "acme/m"]).model, None);
        assert_eq!(line(&[]).model, None);
    }

    #[test]
    fn no_home_no_candidates() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let parsed = line(&[
            "arbiter",
            "--home",
            missing.to_str().unwrap(),
            "jobs",
            "poll",
        ]);
        assert!(parsed.candidates(Wanted::Jobs).is_empty());
        assert!(
            parsed.candidates(Wanted::Revisions).is_empty(),
            "no model on the line"
        );
        assert!(!missing.exists(), "completion creates no home");
    }
}
