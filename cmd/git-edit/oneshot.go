package main

// Each command is one short process: no garbage collection until it holds
// oneshot.FirstGC bytes (see cmd/internal/oneshot). Imported here, not in a
// library, so that a long-running program that links git-edit's packages
// keeps the default collector.
import _ "github.com/git-edit/git-edit/cmd/internal/oneshot"
