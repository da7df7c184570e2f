
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
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Answer questions about a state')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List base models and the engine behind each')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages for arbiter and its subcommands')
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
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--no-capture', '--no-capture', [CompletionResultType]::ParameterName, 'Do not record the example and decision')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;models' {
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;completions' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write scripts for every supported shell into this directory instead')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The directory to write arbiter.1 and one page per subcommand into')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'arbiter;help' {
            [CompletionResult]::new('decide', 'decide', [CompletionResultType]::ParameterValue, 'Answer questions about a state')
            [CompletionResult]::new('models', 'models', [CompletionResultType]::ParameterValue, 'List base models and the engine behind each')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script, or write all of them to a directory')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages for arbiter and its subcommands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'arbiter;help;decide' {
            break
        }
        'arbiter;help;models' {
            break
        }
        'arbiter;help;completions' {
            break
        }
        'arbiter;help;man' {
            break
        }
        'arbiter;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
