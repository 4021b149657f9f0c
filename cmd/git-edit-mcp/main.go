// Command git-edit-mcp is git-edit's MCP server, a companion program of
// git-edit: `git edit mcp [options]` runs it in its own place (see
// ops/companion for where it is found), and `git-edit-mcp [options]` is
// the same command. It lives apart from git-edit so that the MCP SDK does
// not slow the start of every other git-edit command.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/cmd/internal/mcpserver"
)

func main() {
	clikit.SwitchesFromEnv(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), clikit.ShutdownSignals...)
	code := mcpserver.Run(ctx, append([]string{"git-edit", "mcp"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
