
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'arbiter' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'arbiter'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'arbiter' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Answer questions about a state')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List models; create, show, commit, tag and log repository models')
            [CompletionResult]::new('engines', 'engines', [CompletionResultType]::ParameterValue, 'List the remote engines of config.yaml and check that they answer')
            [CompletionResult]::new('examples', 'examples', [CompletionResultType]::ParameterValue, 'Ingest, annotate, list, show and export the examples of a repository model')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Decide many states with a repository model, as a job (JSON Lines in, JSON Lines out)')
            [CompletionResult]::new('align', 'align', [CompletionResultType]::ParameterValue, 'Improve a repository model''s questions from its annotated examples (a new checkpoint only when better on held-out examples)')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Evaluate a checkpoint over the annotated examples; compare with a baseline; gate CI (exit 3)')
            [CompletionResult]::new('jobs', 'jobs', [CompletionResultType]::ParameterValue, 'List, poll, cancel and read the results of batch, alignment and evaluation jobs')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the HTTP interface')
            [CompletionResult]::new('tokens', 'tokens', [CompletionResultType]::ParameterValue, 'Create, list and revoke API tokens for `arbiter serve`')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages for arbiter and its subcommands')
            [CompletionResult]::new('openapi', 'openapi', [CompletionResultType]::ParameterValue, 'Write the OpenAPI document that `arbiter serve` publishes at /openapi.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;decide' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'A base model name (mo, mo-reasoning, jev-latest, ...) or a repository model <owner>/<model>')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'A base model name (mo, mo-reasoning, jev-latest, ...) or a repository model <owner>/<model>')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The state to evaluate: a JSON file, or - for stdin')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'The state to evaluate: a JSON file, or - for stdin')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Questions: a YAML or JSON file of question ID -> question (override saved ones of a repository model)')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'Questions: a YAML or JSON file of question ID -> question (override saved ones of a repository model)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'A whole POST /v1/decision body (JSON file or -); the other options override its fields')
            [CompletionResult]::new('--request', '--request', [CompletionResultType]::ParameterName, 'A whole POST /v1/decision body (JSON file or -); the other options override its fields')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Branch, tag or commit SHA of a repository model [default: its default branch]')
            [CompletionResult]::new('--example-id', '--example-id', [CompletionResultType]::ParameterName, 'Record the decision under this example ID [default: derived from the state]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--no-capture', '--no-capture', [CompletionResultType]::ParameterName, 'Do not record the example and decision')
            [CompletionResult]::new('--truncate', '--truncate', [CompletionResultType]::ParameterName, 'Read only the first tokens of a state longer than the model reads, instead of refusing it (`state_too_large`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List base models and repository models (the default)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a repository model <owner>/<model>')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a repository model: branches, tags, capture policy, question IDs')
            [CompletionResult]::new('commit', 'commit', [CompletionResultType]::ParameterValue, 'Commit a new checkpoint (new questions or model.yaml) on a branch')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Tag a revision')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the checkpoints of a revision, newest first')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Fast-forward the default branch to a revision')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What changed between two revisions: model.yaml, questions, learned files')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Promotions and tag moves: who, when, from and to, on what evaluation')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;models;list' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;create' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The root model: a base model name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Saved questions: a YAML or JSON file of question ID -> question')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'Saved questions: a YAML or JSON file of question ID -> question')
            [CompletionResult]::new('--capture', '--capture', [CompletionResultType]::ParameterName, 'Record decisions as examples (capture.enabled in model.yaml)')
            [CompletionResult]::new('--sample-rate', '--sample-rate', [CompletionResultType]::ParameterName, 'Share of examples recorded, 0 to 1 (deterministic per example)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The first checkpoint''s message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The first checkpoint''s message')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;show' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;commit' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'New questions.yaml (YAML or JSON; - for stdin)')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'New questions.yaml (YAML or JSON; - for stdin)')
            [CompletionResult]::new('--model-file', '--model-file', [CompletionResultType]::ParameterName, 'New model.yaml')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'The branch to commit on [default: the default branch]; created if new')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'The branch to commit on [default: the default branch]; created if new')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Where a new branch starts [default: the default branch]')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The checkpoint message')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The checkpoint message')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;tag' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'The revision to tag [default: the default branch]')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'The revision to tag [default: the default branch]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Move the tag if it exists (as `git tag -f`); the move is recorded in the history')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Move the tag if it exists (as `git tag -f`); the move is recorded in the history')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;log' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Branch, tag or commit [default: the default branch]')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Branch, tag or commit [default: the default branch]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most this many checkpoints')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many checkpoints')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;promote' {
            [CompletionResult]::new('--evaluation', '--evaluation', [CompletionResultType]::ParameterName, 'The evaluation job this promotion relies on, recorded in the history [default: the latest completed evaluation of the revision''s commit]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;diff' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--eval', '--eval', [CompletionResultType]::ParameterName, 'Also evaluate both on the same annotated examples (`to` against the baseline `from`)')
            [CompletionResult]::new('--cancel-on-interrupt', '--cancel-on-interrupt', [CompletionResultType]::ParameterName, 'With --eval: cancel the evaluation on Ctrl-C without asking')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;history' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most this many events')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many events')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List base models and repository models (the default)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a repository model <owner>/<model>')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a repository model: branches, tags, capture policy, question IDs')
            [CompletionResult]::new('commit', 'commit', [CompletionResultType]::ParameterValue, 'Commit a new checkpoint (new questions or model.yaml) on a branch')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Tag a revision')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the checkpoints of a revision, newest first')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Fast-forward the default branch to a revision')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What changed between two revisions: model.yaml, questions, learned files')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Promotions and tag moves: who, when, from and to, on what evaluation')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;models;help;list' {
            break
        }
        'arbiter;models;help;create' {
            break
        }
        'arbiter;models;help;show' {
            break
        }
        'arbiter;models;help;commit' {
            break
        }
        'arbiter;models;help;tag' {
            break
        }
        'arbiter;models;help;log' {
            break
        }
        'arbiter;models;help;promote' {
            break
        }
        'arbiter;models;help;diff' {
            break
        }
        'arbiter;models;help;history' {
            break
        }
        'arbiter;models;help;help' {
            break
        }
        'arbiter;engines' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the engines of config.yaml and the base models routed to each (the default)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;engines;list' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;engines;check' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;engines;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the engines of config.yaml and the base models routed to each (the default)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;engines;help;list' {
            break
        }
        'arbiter;engines;help;check' {
            break
        }
        'arbiter;engines;help;help' {
            break
        }
        'arbiter;examples' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Ingest examples in bulk from JSON Lines or a JSON array')
            [CompletionResult]::new('annotate', 'annotate', [CompletionResultType]::ParameterValue, 'Annotate an example with ground truth, or many from a JSON Lines file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List examples (paged, filtered)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one example with its annotations and decisions')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write every example as JSON Lines, in the ingest format')
            [CompletionResult]::new('agreement', 'agreement', [CompletionResultType]::ParameterValue, 'How far annotators agree, per question: Cohen''s kappa for two, Fleiss'' for more')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;examples;ingest' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Lines of {example_id?, state, annotations?}, or one JSON array of them (- for stdin)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Lines of {example_id?, state, annotations?}, or one JSON array of them (- for stdin)')
            [CompletionResult]::new('--annotator', '--annotator', [CompletionResultType]::ParameterName, 'Who annotates, for annotations that name no annotator [default: $USER or $USERNAME, else local]; not with --server, where the token''s name is recorded')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--atomic', '--atomic', [CompletionResultType]::ParameterName, 'Write nothing if any line is invalid')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;annotate' {
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'The question ID')
            [CompletionResult]::new('--answer', '--answer', [CompletionResultType]::ParameterName, 'The ground truth: true/false (noul), an option key (choice), a level index (score)')
            [CompletionResult]::new('--reasoning', '--reasoning', [CompletionResultType]::ParameterName, 'Why this is the answer')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Lines of {example_id, question, answer, reasoning?, annotator?} (- for stdin)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Lines of {example_id, question, answer, reasoning?, annotator?} (- for stdin)')
            [CompletionResult]::new('--annotator', '--annotator', [CompletionResultType]::ParameterName, 'Who annotates, for annotations that name no annotator [default: $USER or $USERNAME, else local]; not with --server, where the token''s name is recorded')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;list' {
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'Only examples annotated for this question')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Start after this example ID (the nextCursor of a previous page)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most this many examples (1 to 1000)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many examples (1 to 1000)')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--annotated', '--annotated', [CompletionResultType]::ParameterName, 'Only examples with at least one annotation')
            [CompletionResult]::new('--unannotated', '--unannotated', [CompletionResultType]::ParameterName, 'Only examples without annotations')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;show' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;export' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--annotated', '--annotated', [CompletionResultType]::ParameterName, 'Only annotated examples')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;agreement' {
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'Only this question [default: every question at the default branch]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;next' {
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'Only examples not yet annotated for this question [default: missing any question, each ranked by its least certain]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many examples to pick (1 to 1000)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many examples to pick (1 to 1000)')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'The checkpoint to decide at: branch, tag or commit SHA [default: the default branch]')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'The share of the picks drawn at random from the other candidates, to keep the annotated examples a fair sample (0 to 1)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the audit draw: the same candidates and seed draw the same examples')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Candidates to decide and rank, at most: the most recently created unannotated examples (1 to 5000)')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;examples;help' {
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Ingest examples in bulk from JSON Lines or a JSON array')
            [CompletionResult]::new('annotate', 'annotate', [CompletionResultType]::ParameterValue, 'Annotate an example with ground truth, or many from a JSON Lines file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List examples (paged, filtered)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one example with its annotations and decisions')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write every example as JSON Lines, in the ingest format')
            [CompletionResult]::new('agreement', 'agreement', [CompletionResultType]::ParameterValue, 'How far annotators agree, per question: Cohen''s kappa for two, Fleiss'' for more')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;examples;help;ingest' {
            break
        }
        'arbiter;examples;help;annotate' {
            break
        }
        'arbiter;examples;help;list' {
            break
        }
        'arbiter;examples;help;show' {
            break
        }
        'arbiter;examples;help;export' {
            break
        }
        'arbiter;examples;help;agreement' {
            break
        }
        'arbiter;examples;help;next' {
            break
        }
        'arbiter;examples;help;help' {
            break
        }
        'arbiter;batch' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'JSON Lines of {example_id?, state} (- for stdin); blank lines are skipped')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'JSON Lines of {example_id?, state} (- for stdin); blank lines are skipped')
            [CompletionResult]::new('--examples', '--examples', [CompletionResultType]::ParameterName, 'Run over the model''s stored examples instead of an input file')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Branch, tag or commit SHA [default: the default branch]; pinned to its commit for the whole job')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Questions: a YAML or JSON file of question ID -> question (override saved ones)')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'Questions: a YAML or JSON file of question ID -> question (override saved ones)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the results (JSON Lines, in input order) to FILE instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the results (JSON Lines, in input order) to FILE instead of stdout')
            [CompletionResult]::new('--max-failed-items', '--max-failed-items', [CompletionResultType]::ParameterName, 'How many items may fail before the exit code is 1, a count (5) or a share of the items (2%)')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--capture', '--capture', [CompletionResultType]::ParameterName, 'Record each decision, as the model''s capture policy allows')
            [CompletionResult]::new('--detach', '--detach', [CompletionResultType]::ParameterName, 'Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)')
            [CompletionResult]::new('--cancel-on-interrupt', '--cancel-on-interrupt', [CompletionResultType]::ParameterName, 'With --server, when not on a terminal: cancel the server''s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;align' {
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'The checkpoint to improve: branch, tag or commit SHA [default: the default branch]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only these questions (comma-separated IDs) [default: every saved question]')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'Only these questions (comma-separated IDs) [default: every saved question]')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the folds, draws and bootstrap: the same examples, seed and checkpoint give the same result')
            [CompletionResult]::new('--margin', '--margin', [CompletionResultType]::ParameterName, 'The held-out gain a question needs, relative to its current loss (0.02: 2% lower)')
            [CompletionResult]::new('--max-examples', '--max-examples', [CompletionResultType]::ParameterName, 'Annotated examples used per question, at most (a seeded sample)')
            [CompletionResult]::new('--holdout', '--holdout', [CompletionResultType]::ParameterName, 'The share of each question''s annotated examples held out: never fitted on; the gate and the figures are on them')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--detach', '--detach', [CompletionResultType]::ParameterName, 'Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)')
            [CompletionResult]::new('--cancel-on-interrupt', '--cancel-on-interrupt', [CompletionResultType]::ParameterName, 'With --server, when not on a terminal: cancel the server''s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;eval' {
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'The checkpoint to evaluate: branch, tag or commit SHA [default: the default branch]')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'A checkpoint to compare with (its figures and the deltas are shown)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only these questions (comma-separated IDs) [default: every saved question]')
            [CompletionResult]::new('--questions', '--questions', [CompletionResultType]::ParameterName, 'Only these questions (comma-separated IDs) [default: every saved question]')
            [CompletionResult]::new('--min-accuracy', '--min-accuracy', [CompletionResultType]::ParameterName, 'Gate: exit 3 when a question''s accuracy is below this (0 to 1)')
            [CompletionResult]::new('--max-ece', '--max-ece', [CompletionResultType]::ParameterName, 'Gate: exit 3 when a question''s expected calibration error is above this (0 to 1)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, json when piped]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--no-regression', '--no-regression', [CompletionResultType]::ParameterName, 'Gate: exit 3 when a question is worse than at --baseline (lower accuracy or higher loss)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Apply the gates to the 95% interval''s bound, not the point estimate: --min-accuracy to the lower bound, --no-regression to the change''s bound (a worsening not ruled out fails)')
            [CompletionResult]::new('--cancel-on-interrupt', '--cancel-on-interrupt', [CompletionResultType]::ParameterName, 'With --server, when not on a terminal: cancel the server''s job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)')
            [CompletionResult]::new('--include-fitted', '--include-fitted', [CompletionResultType]::ParameterName, 'Score aligned questions on the examples their alignment was fitted on too (by default each question is scored, at both checkpoints, only on examples neither was fitted on)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List jobs, newest first')
            [CompletionResult]::new('poll', 'poll', [CompletionResultType]::ParameterValue, 'Show a job; with --wait, follow it until it ends')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)')
            [CompletionResult]::new('results', 'results', [CompletionResultType]::ParameterValue, 'Print a job''s results so far: JSON Lines, one per item, in input order')
            [CompletionResult]::new('worker', 'worker', [CompletionResultType]::ParameterValue, 'Run a job in this process (what `--detach` starts in the background)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;jobs;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only jobs with this status')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most this many jobs')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many jobs')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs;poll' {
            [CompletionResult]::new('--max-failed-items', '--max-failed-items', [CompletionResultType]::ParameterName, 'With --wait: how many items may fail before the exit code is 1, a count (5) or a share of the items (2%)')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Follow the job (a progress bar on a terminal) until it ends; exit 1 unless it completed with no more failed items than allowed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs;cancel' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs;results' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the results to FILE instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the results to FILE instead of stdout')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs;worker' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;jobs;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List jobs, newest first')
            [CompletionResult]::new('poll', 'poll', [CompletionResultType]::ParameterValue, 'Show a job; with --wait, follow it until it ends')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)')
            [CompletionResult]::new('results', 'results', [CompletionResultType]::ParameterValue, 'Print a job''s results so far: JSON Lines, one per item, in input order')
            [CompletionResult]::new('worker', 'worker', [CompletionResultType]::ParameterValue, 'Run a job in this process (what `--detach` starts in the background)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;jobs;help;list' {
            break
        }
        'arbiter;jobs;help;poll' {
            break
        }
        'arbiter;jobs;help;cancel' {
            break
        }
        'arbiter;jobs;help;results' {
            break
        }
        'arbiter;jobs;help;worker' {
            break
        }
        'arbiter;jobs;help;help' {
            break
        }
        'arbiter;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'The address to listen on (port 0 picks a free port)')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;tokens' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a token; its secret is printed once and never stored')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by name (idempotent)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;tokens;create' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A unique name, e.g. ci')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'A scope (repeatable): decisions, models:read, examples:read, examples:write, batches, alignments')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'A role on model paths (repeatable): PATTERN=reader|writer|admin, e.g. ''acme/*=reader''')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;tokens;list' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;tokens;revoke' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;tokens;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a token; its secret is printed once and never stored')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by name (idempotent)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;tokens;help;create' {
            break
        }
        'arbiter;tokens;help;list' {
            break
        }
        'arbiter;tokens;help;revoke' {
            break
        }
        'arbiter;tokens;help;help' {
            break
        }
        'arbiter;completions' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write scripts for every supported shell into this directory instead')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The directory to write arbiter.1 and one page per subcommand into')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;openapi' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'The file to write the document to')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--table', '--table', [CompletionResultType]::ParameterName, 'Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)')
            [CompletionResult]::new('--full-ids', '--full-ids', [CompletionResultType]::ParameterName, 'Show IDs whole in tables, not as their unique 12-character prefixes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;help' {
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Answer questions about a state')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List models; create, show, commit, tag and log repository models')
            [CompletionResult]::new('engines', 'engines', [CompletionResultType]::ParameterValue, 'List the remote engines of config.yaml and check that they answer')
            [CompletionResult]::new('examples', 'examples', [CompletionResultType]::ParameterValue, 'Ingest, annotate, list, show and export the examples of a repository model')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Decide many states with a repository model, as a job (JSON Lines in, JSON Lines out)')
            [CompletionResult]::new('align', 'align', [CompletionResultType]::ParameterValue, 'Improve a repository model''s questions from its annotated examples (a new checkpoint only when better on held-out examples)')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Evaluate a checkpoint over the annotated examples; compare with a baseline; gate CI (exit 3)')
            [CompletionResult]::new('jobs', 'jobs', [CompletionResultType]::ParameterValue, 'List, poll, cancel and read the results of batch, alignment and evaluation jobs')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the HTTP interface')
            [CompletionResult]::new('tokens', 'tokens', [CompletionResultType]::ParameterValue, 'Create, list and revoke API tokens for `arbiter serve`')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages for arbiter and its subcommands')
            [CompletionResult]::new('openapi', 'openapi', [CompletionResultType]::ParameterValue, 'Write the OpenAPI document that `arbiter serve` publishes at /openapi.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;help;decide' {
            break
        }
        'arbiter;help;models' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List base models and repository models (the default)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a repository model <owner>/<model>')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a repository model: branches, tags, capture policy, question IDs')
            [CompletionResult]::new('commit', 'commit', [CompletionResultType]::ParameterValue, 'Commit a new checkpoint (new questions or model.yaml) on a branch')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Tag a revision')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the checkpoints of a revision, newest first')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Fast-forward the default branch to a revision')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What changed between two revisions: model.yaml, questions, learned files')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Promotions and tag moves: who, when, from and to, on what evaluation')
            break
        }
        'arbiter;help;models;list' {
            break
        }
        'arbiter;help;models;create' {
            break
        }
        'arbiter;help;models;show' {
            break
        }
        'arbiter;help;models;commit' {
            break
        }
        'arbiter;help;models;tag' {
            break
        }
        'arbiter;help;models;log' {
            break
        }
        'arbiter;help;models;promote' {
            break
        }
        'arbiter;help;models;diff' {
            break
        }
        'arbiter;help;models;history' {
            break
        }
        'arbiter;help;engines' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the engines of config.yaml and the base models routed to each (the default)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Call each engine once with a tiny decision: reachability, latency, valid answers. Exits 1 when any engine fails')
            break
        }
        'arbiter;help;engines;list' {
            break
        }
        'arbiter;help;engines;check' {
            break
        }
        'arbiter;help;examples' {
            [CompletionResult]::new('ingest', 'ingest', [CompletionResultType]::ParameterValue, 'Ingest examples in bulk from JSON Lines or a JSON array')
            [CompletionResult]::new('annotate', 'annotate', [CompletionResultType]::ParameterValue, 'Annotate an example with ground truth, or many from a JSON Lines file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List examples (paged, filtered)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one example with its annotations and decisions')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write every example as JSON Lines, in the ingest format')
            [CompletionResult]::new('agreement', 'agreement', [CompletionResultType]::ParameterValue, 'How far annotators agree, per question: Cohen''s kappa for two, Fleiss'' for more')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share')
            break
        }
        'arbiter;help;examples;ingest' {
            break
        }
        'arbiter;help;examples;annotate' {
            break
        }
        'arbiter;help;examples;list' {
            break
        }
        'arbiter;help;examples;show' {
            break
        }
        'arbiter;help;examples;export' {
            break
        }
        'arbiter;help;examples;agreement' {
            break
        }
        'arbiter;help;examples;next' {
            break
        }
        'arbiter;help;batch' {
            break
        }
        'arbiter;help;align' {
            break
        }
        'arbiter;help;eval' {
            break
        }
        'arbiter;help;jobs' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List jobs, newest first')
            [CompletionResult]::new('poll', 'poll', [CompletionResultType]::ParameterValue, 'Show a job; with --wait, follow it until it ends')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)')
            [CompletionResult]::new('results', 'results', [CompletionResultType]::ParameterValue, 'Print a job''s results so far: JSON Lines, one per item, in input order')
            [CompletionResult]::new('worker', 'worker', [CompletionResultType]::ParameterValue, 'Run a job in this process (what `--detach` starts in the background)')
            break
        }
        'arbiter;help;jobs;list' {
            break
        }
        'arbiter;help;jobs;poll' {
            break
        }
        'arbiter;help;jobs;cancel' {
            break
        }
        'arbiter;help;jobs;results' {
            break
        }
        'arbiter;help;jobs;worker' {
            break
        }
        'arbiter;help;serve' {
            break
        }
        'arbiter;help;tokens' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a token; its secret is printed once and never stored')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by name (idempotent)')
            break
        }
        'arbiter;help;tokens;create' {
            break
        }
        'arbiter;help;tokens;list' {
            break
        }
        'arbiter;help;tokens;revoke' {
            break
        }
        'arbiter;help;completions' {
            break
        }
        'arbiter;help;man' {
            break
        }
        'arbiter;help;openapi' {
            break
        }
        'arbiter;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
