# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_arbiter_global_optspecs
    string join \n home= json table full-ids quiet server= h/help V/version
end

function __fish_arbiter_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_arbiter_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_arbiter_using_subcommand
    set -l cmd (__fish_arbiter_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c arbiter -n "__fish_arbiter_needs_command" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_needs_command" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_needs_command" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_needs_command" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_needs_command" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_needs_command" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_needs_command" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_needs_command" -s V -l version -d 'Print version'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "decide" -d 'Answer questions about a state'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "models" -d 'List models; create, show, commit, tag and log repository models'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "engines" -d 'List the remote engines of config.yaml and check that they answer'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "examples" -d 'Ingest, annotate, list, show and export the examples of a repository model'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "batch" -d 'Decide many states with a repository model, as a job (JSON Lines in, JSON Lines out)'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "align" -d 'Improve a repository model\'s questions from its annotated examples (a new checkpoint only when better on held-out examples)'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "eval" -d 'Evaluate a checkpoint over the annotated examples; compare with a baseline; gate CI (exit 3)'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "jobs" -d 'List, poll, cancel and read the results of batch, alignment and evaluation jobs'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "serve" -d 'Serve the HTTP interface'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "tokens" -d 'Create, list and revoke API tokens for `arbiter serve`'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "man" -d 'Write man pages for arbiter and its subcommands'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "openapi" -d 'Write the OpenAPI document that `arbiter serve` publishes at /openapi.json'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s m -l model -d 'A base model name (mo, mo-reasoning, jev-latest, ...) or a repository model <owner>/<model>' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s s -l state -d 'The state to evaluate: a JSON file, or - for stdin' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s q -l questions -d 'Questions: a YAML or JSON file of question ID -> question (override saved ones of a repository model)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s r -l request -d 'A whole POST /v1/decision body (JSON file or -); the other options override its fields' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l revision -d 'Branch, tag or commit SHA of a repository model [default: its default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l example-id -d 'Record the decision under this example ID [default: derived from the state]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l no-capture -d 'Do not record the example and decision'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l truncate -d 'Read only the first tokens of a state longer than the model reads, instead of refusing it (`state_too_large`)'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "list" -d 'List base models and repository models (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "create" -d 'Create a repository model <owner>/<model>'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "show" -d 'Show a repository model: branches, tags, capture policy, question IDs'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "commit" -d 'Commit a new checkpoint (new questions or model.yaml) on a branch'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "tag" -d 'Tag a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "log" -d 'List the checkpoints of a revision, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "promote" -d 'Fast-forward the default branch to a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "diff" -d 'What changed between two revisions: model.yaml, questions, learned files'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "history" -d 'Promotions and tag moves: who, when, from and to, on what evaluation'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and not __fish_seen_subcommand_from list create show commit tag log promote diff history help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l base -d 'The root model: a base model name' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -s q -l questions -d 'Saved questions: a YAML or JSON file of question ID -> question' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l capture -d 'Record decisions as examples (capture.enabled in model.yaml)' -r -f -a "true\t''
false\t''"
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l sample-rate -d 'Share of examples recorded, 0 to 1 (deterministic per example)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -s m -l message -d 'The first checkpoint\'s message' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -s q -l questions -d 'New questions.yaml (YAML or JSON; - for stdin)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l model-file -d 'New model.yaml' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -s b -l branch -d 'The branch to commit on [default: the default branch]; created if new' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l from -d 'Where a new branch starts [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -s m -l message -d 'The checkpoint message' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from commit" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -s r -l revision -d 'The revision to tag [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -s f -l force -d 'Move the tag if it exists (as `git tag -f`); the move is recorded in the history'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from tag" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -s r -l revision -d 'Branch, tag or commit [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -s n -l limit -d 'At most this many checkpoints' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from log" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l evaluation -d 'The evaluation job this promotion relies on, recorded in the history [default: the latest completed evaluation of the revision\'s commit]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from promote" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l eval -d 'Also evaluate both on the same annotated examples (`to` against the baseline `from`)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l cancel-on-interrupt -d 'With --eval: cancel the evaluation on Ctrl-C without asking'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -s n -l limit -d 'At most this many events' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "list" -d 'List base models and repository models (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a repository model <owner>/<model>'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show a repository model: branches, tags, capture policy, question IDs'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "commit" -d 'Commit a new checkpoint (new questions or model.yaml) on a branch'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "tag" -d 'Tag a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "log" -d 'List the checkpoints of a revision, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "promote" -d 'Fast-forward the default branch to a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "diff" -d 'What changed between two revisions: model.yaml, questions, learned files'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "history" -d 'Promotions and tag moves: who, when, from and to, on what evaluation'
complete -c arbiter -n "__fish_arbiter_using_subcommand models; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -f -a "list" -d 'List the engines of config.yaml and the base models routed to each (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -f -a "check" -d 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and not __fish_seen_subcommand_from list check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the engines of config.yaml and the base models routed to each (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from help" -f -a "check" -d 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails'
complete -c arbiter -n "__fish_arbiter_using_subcommand engines; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "ingest" -d 'Ingest examples in bulk from JSON Lines or a JSON array'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "annotate" -d 'Annotate an example with ground truth, or many from a JSON Lines file'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "list" -d 'List examples (paged, filtered)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "show" -d 'Show one example with its annotations and decisions'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "export" -d 'Write every example as JSON Lines, in the ingest format'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "agreement" -d 'How far annotators agree, per question: Cohen\'s kappa for two, Fleiss\' for more'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "next" -d 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and not __fish_seen_subcommand_from ingest annotate list show export agreement next help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -s f -l file -d 'Lines of {example_id?, state, annotations?}, or one JSON array of them (- for stdin)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l annotator -d 'Who annotates, for annotations that name no annotator [default: $USER or $USERNAME, else local]; not with --server, where the token\'s name is recorded' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l atomic -d 'Write nothing if any line is invalid'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from ingest" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l question -d 'The question ID' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l answer -d 'The ground truth: true/false (noul), an option key (choice), a level index (score)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l reasoning -d 'Why this is the answer' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -s f -l file -d 'Lines of {example_id, question, answer, reasoning?, annotator?} (- for stdin)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l annotator -d 'Who annotates, for annotations that name no annotator [default: $USER or $USERNAME, else local]; not with --server, where the token\'s name is recorded' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from annotate" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l question -d 'Only examples annotated for this question' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l after -d 'Start after this example ID (the nextCursor of a previous page)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -s n -l limit -d 'At most this many examples (1 to 1000)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l annotated -d 'Only examples with at least one annotation'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l unannotated -d 'Only examples without annotations'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l annotated -d 'Only annotated examples'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l question -d 'Only this question [default: every question at the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from agreement" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l question -d 'Only examples not yet annotated for this question [default: missing any question, each ranked by its least certain]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -s n -l count -d 'How many examples to pick (1 to 1000)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l revision -d 'The checkpoint to decide at: branch, tag or commit SHA [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l audit -d 'The share of the picks drawn at random from the other candidates, to keep the annotated examples a fair sample (0 to 1)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l seed -d 'Seed of the audit draw: the same candidates and seed draw the same examples' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l pool -d 'Candidates to decide and rank, at most: the most recently created unannotated examples (1 to 5000)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from next" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "ingest" -d 'Ingest examples in bulk from JSON Lines or a JSON array'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "annotate" -d 'Annotate an example with ground truth, or many from a JSON Lines file'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "list" -d 'List examples (paged, filtered)'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one example with its annotations and decisions'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write every example as JSON Lines, in the ingest format'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "agreement" -d 'How far annotators agree, per question: Cohen\'s kappa for two, Fleiss\' for more'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "next" -d 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share'
complete -c arbiter -n "__fish_arbiter_using_subcommand examples; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -s i -l input -d 'JSON Lines of {example_id?, state} (- for stdin); blank lines are skipped' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l examples -d 'Run over the model\'s stored examples instead of an input file' -r -f -a "all\t''
annotated\t''"
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l revision -d 'Branch, tag or commit SHA [default: the default branch]; pinned to its commit for the whole job' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -s q -l questions -d 'Questions: a YAML or JSON file of question ID -> question (override saved ones)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -s o -l output -d 'Write the results (JSON Lines, in input order) to FILE instead of stdout' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l max-failed-items -d 'How many items may fail before the exit code is 1, a count (5) or a share of the items (2%)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l capture -d 'Record each decision, as the model\'s capture policy allows'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l detach -d 'Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l cancel-on-interrupt -d 'With --server, when not on a terminal: cancel the server\'s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand batch" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l revision -d 'The checkpoint to improve: branch, tag or commit SHA [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -s q -l questions -d 'Only these questions (comma-separated IDs) [default: every saved question]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l seed -d 'Seed of the folds, draws and bootstrap: the same examples, seed and checkpoint give the same result' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l margin -d 'The held-out gain a question needs, relative to its current loss (0.02: 2% lower)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l max-examples -d 'Annotated examples used per question, at most (a seeded sample)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l holdout -d 'The share of each question\'s annotated examples held out: never fitted on; the gate and the figures are on them' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l detach -d 'Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l cancel-on-interrupt -d 'With --server, when not on a terminal: cancel the server\'s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand align" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l revision -d 'The checkpoint to evaluate: branch, tag or commit SHA [default: the default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l baseline -d 'A checkpoint to compare with (its figures and the deltas are shown)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -s q -l questions -d 'Only these questions (comma-separated IDs) [default: every saved question]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l min-accuracy -d 'Gate: exit 3 when a question\'s accuracy is below this (0 to 1)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l max-ece -d 'Gate: exit 3 when a question\'s expected calibration error is above this (0 to 1)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l format -d 'Output format [default: table on a terminal, json when piped]' -r -f -a "table\t''
json\t''
junit\t''"
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l no-regression -d 'Gate: exit 3 when a question is worse than at --baseline (lower accuracy or higher loss)'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l strict -d 'Apply the gates to the 95% interval\'s bound, not the point estimate: --min-accuracy to the lower bound, --no-regression to the change\'s bound (a worsening not ruled out fails)'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l cancel-on-interrupt -d 'With --server, when not on a terminal: cancel the server\'s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l include-fitted -d 'Score aligned questions on the examples their alignment was fitted on too (by default each question is scored, at both checkpoints, only on examples neither was fitted on)'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand eval" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "list" -d 'List jobs, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "poll" -d 'Show a job; with --wait, follow it until it ends'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "cancel" -d 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "results" -d 'Print a job\'s results so far: JSON Lines, one per item, in input order'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "worker" -d 'Run a job in this process (what `--detach` starts in the background)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and not __fish_seen_subcommand_from list poll cancel results worker help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l status -d 'Only jobs with this status' -r -f -a "queued\t''
running\t''
completed\t''
failed\t''
cancelled\t''"
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -s n -l limit -d 'At most this many jobs' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l max-failed-items -d 'With --wait: how many items may fail before the exit code is 1, a count (5) or a share of the items (2%)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l wait -d 'Follow the job (a progress bar on a terminal) until it ends; exit 1 unless it completed with no more failed items than allowed'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from poll" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from cancel" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -s o -l output -d 'Write the results to FILE instead of stdout' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from results" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from worker" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "list" -d 'List jobs, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "poll" -d 'Show a job; with --wait, follow it until it ends'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "cancel" -d 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "results" -d 'Print a job\'s results so far: JSON Lines, one per item, in input order'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "worker" -d 'Run a job in this process (what `--detach` starts in the background)'
complete -c arbiter -n "__fish_arbiter_using_subcommand jobs; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l listen -d 'The address to listen on (port 0 picks a free port)' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand serve" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -f -a "create" -d 'Create a token; its secret is printed once and never stored'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -f -a "list" -d 'List tokens (never their secrets)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -f -a "revoke" -d 'Revoke a token by name (idempotent)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and not __fish_seen_subcommand_from create list revoke help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l name -d 'A unique name, e.g. ci' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l scope -d 'A scope (repeatable): decisions, models:read, examples:read, examples:write, batches, alignments' -r -f -a "decisions\t''
models:read\t''
examples:read\t''
examples:write\t''
batches\t''
alignments\t''"
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l role -d 'A role on model paths (repeatable): PATTERN=reader|writer|admin, e.g. \'acme/*=reader\'' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a token; its secret is printed once and never stored'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from help" -f -a "list" -d 'List tokens (never their secrets)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Revoke a token by name (idempotent)'
complete -c arbiter -n "__fish_arbiter_using_subcommand tokens; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l dir -d 'Write scripts for every supported shell into this directory instead' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l dir -d 'The directory to write arbiter.1 and one page per subcommand into' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l out -d 'The file to write the document to' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l home -d 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l server -d 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l table -d 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)'
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l full-ids -d 'Show IDs whole in tables, not as their unique 12-character prefixes'
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand openapi" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "decide" -d 'Answer questions about a state'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "models" -d 'List models; create, show, commit, tag and log repository models'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "engines" -d 'List the remote engines of config.yaml and check that they answer'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "examples" -d 'Ingest, annotate, list, show and export the examples of a repository model'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "batch" -d 'Decide many states with a repository model, as a job (JSON Lines in, JSON Lines out)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "align" -d 'Improve a repository model\'s questions from its annotated examples (a new checkpoint only when better on held-out examples)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "eval" -d 'Evaluate a checkpoint over the annotated examples; compare with a baseline; gate CI (exit 3)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "jobs" -d 'List, poll, cancel and read the results of batch, alignment and evaluation jobs'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "serve" -d 'Serve the HTTP interface'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "tokens" -d 'Create, list and revoke API tokens for `arbiter serve`'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "man" -d 'Write man pages for arbiter and its subcommands'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "openapi" -d 'Write the OpenAPI document that `arbiter serve` publishes at /openapi.json'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models engines examples batch align eval jobs serve tokens completions man openapi help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "list" -d 'List base models and repository models (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "create" -d 'Create a repository model <owner>/<model>'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "show" -d 'Show a repository model: branches, tags, capture policy, question IDs'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "commit" -d 'Commit a new checkpoint (new questions or model.yaml) on a branch'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "tag" -d 'Tag a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "log" -d 'List the checkpoints of a revision, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "promote" -d 'Fast-forward the default branch to a revision'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "diff" -d 'What changed between two revisions: model.yaml, questions, learned files'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from models" -f -a "history" -d 'Promotions and tag moves: who, when, from and to, on what evaluation'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from engines" -f -a "list" -d 'List the engines of config.yaml and the base models routed to each (the default)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from engines" -f -a "check" -d 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "ingest" -d 'Ingest examples in bulk from JSON Lines or a JSON array'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "annotate" -d 'Annotate an example with ground truth, or many from a JSON Lines file'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "list" -d 'List examples (paged, filtered)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "show" -d 'Show one example with its annotations and decisions'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "export" -d 'Write every example as JSON Lines, in the ingest format'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "agreement" -d 'How far annotators agree, per question: Cohen\'s kappa for two, Fleiss\' for more'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from examples" -f -a "next" -d 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from jobs" -f -a "list" -d 'List jobs, newest first'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from jobs" -f -a "poll" -d 'Show a job; with --wait, follow it until it ends'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from jobs" -f -a "cancel" -d 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from jobs" -f -a "results" -d 'Print a job\'s results so far: JSON Lines, one per item, in input order'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from jobs" -f -a "worker" -d 'Run a job in this process (what `--detach` starts in the background)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from tokens" -f -a "create" -d 'Create a token; its secret is printed once and never stored'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from tokens" -f -a "list" -d 'List tokens (never their secrets)'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and __fish_seen_subcommand_from tokens" -f -a "revoke" -d 'Revoke a token by name (idempotent)'
