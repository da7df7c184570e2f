complete --keep-order --exclusive --command arbiter --arguments "(COMPLETE=fish arbiter -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
