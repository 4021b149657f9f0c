package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// mcpCommand is `git edit mcp`, the MCP server. The server lives in the
// companion program git-edit-mcp (cmd/internal/mcpserver), so that the MCP
// SDK is not loaded by every other command; this command runs it in its
// place with the arguments as given (put in git's order). Its options are
// the server's own (clikit.MCPFlags), listed here for git-edit's help and
// for that order, and parsed by the server.
func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:            "mcp",
		Usage:           clikit.MCPUsage,
		Flags:           clikit.MCPFlags(),
		OnUsageError:    clikit.UsageError,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			return runMCP(c.Context, c.Args().Slice(), c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runMCP runs `git-edit mcp args…` with the given streams and returns
// what ended it: nil, or a clikit.ExitStatus the server chose (it has said
// why on stderr), or an error of its own. It is execMCP; the tests of this
// package serve in process instead, since a test cannot be replaced by
// another program.
var runMCP = execMCP

// execMCP finds git-edit-mcp (see ops/companion) and runs it in this
// process's place with args (execCompanion). A missing companion is a
// refusal that names it and says how to install it.
func execMCP(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	path, err := ops.FindCompanion(ops.CompanionMCP)
	if err != nil {
		return clikit.Refused(fmt.Errorf("git edit mcp runs the MCP server in a program of its own: %w", err))
	}
	return execCompanion(path, args, stdin, stdout, stderr)
}

// runCompanion runs the program at path with args as a child process on
// the given streams and waits for it: nil when it exits 0, its exit status
// as a clikit.ExitStatus otherwise. The child receives the console's
// Ctrl-C itself and ends on its own terms; this process only waits.
func runCompanion(path string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 {
		return clikit.ExitStatus(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("running %s: %w", path, err)
	}
	return nil
}
