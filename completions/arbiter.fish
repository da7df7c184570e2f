# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_arbiter_global_optspecs
    string join \n home= json quiet h/help V/version
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

complete -c arbiter -n "__fish_arbiter_needs_command" -l home -d 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_needs_command" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_needs_command" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_needs_command" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_needs_command" -s V -l version -d 'Print version'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "decide" -d 'Answer questions about a state'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "models" -d 'List base models and the engine behind each'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "man" -d 'Write man pages for arbiter and its subcommands'
complete -c arbiter -n "__fish_arbiter_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s m -l model -d 'A base model name (mo, mo-reasoning, jev-latest, ...) or a repository model <owner>/<model>' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s s -l state -d 'The state to evaluate: a JSON file, or - for stdin' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s q -l questions -d 'Questions: a YAML or JSON file of question ID -> question (override saved ones of a repository model)' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s r -l request -d 'A whole POST /v1/decision body (JSON file or -); the other options override its fields' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l revision -d 'Branch, tag or commit SHA of a repository model [default: its default branch]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l example-id -d 'Record the decision under this example ID [default: derived from the state]' -r
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l home -d 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l no-capture -d 'Do not record the example and decision'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand decide" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand models" -l home -d 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand models" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand models" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand models" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l dir -d 'Write scripts for every supported shell into this directory instead' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l home -d 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand completions" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l dir -d 'The directory to write arbiter.1 and one page per subcommand into' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l home -d 'Where arbiter keeps its data [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]' -r -F
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l json -d 'Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -l quiet -d 'Print nothing on stderr but errors'
complete -c arbiter -n "__fish_arbiter_using_subcommand man" -s h -l help -d 'Print help'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models completions man help" -f -a "decide" -d 'Answer questions about a state'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models completions man help" -f -a "models" -d 'List base models and the engine behind each'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models completions man help" -f -a "completions" -d 'Print a shell completion script, or write all of them to a directory'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models completions man help" -f -a "man" -d 'Write man pages for arbiter and its subcommands'
complete -c arbiter -n "__fish_arbiter_using_subcommand help; and not __fish_seen_subcommand_from decide models completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
