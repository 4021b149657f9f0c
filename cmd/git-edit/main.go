// Command git-edit lets coding agents edit files in a git repository in
// the edit-tool dialect they speak, recording every edit as a commit on the
// hidden ref refs/edits/<session>. Installed on PATH it is also `git edit`.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/urfave/cli/v2"
)

func main() {
	clikit.SwitchesFromEnv(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), clikit.ShutdownSignals...)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns its exit status. Streams are
// injected so tests run commands in process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	args, err := clikit.GitOrder(app.Commands, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	return clikit.Exit(err, stderr)
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := clikit.NewApp(stdin, stdout, stderr) // exit statuses are decided in run
	// --version is git-edit's own, printing the go and git versions too.
	app.Flags = []cli.Flag{&cli.BoolFlag{Name: "version", Usage: "print the versions of git-edit, the Go it was built with, and git"}}
	app.Commands = []*cli.Command{
		callCommand(),
		logCommand(),
		showCommand(),
		diffCommand(),
		blameCommand(),
		notesCommand(),
		reviewHunksCommand(),
		rejectCommand(),
		undoCommand(false),
		undoCommand(true),
		rollbackCommand(),
		checkpointCommand(),
		recordCommand(),
		sessionsCommand(),
		pruneCommand(),
		pushCommand(),
		fetchCommand(),
		installCommand(false),
		installCommand(true),
		mcpCommand(),
		toolsCommand(),
		versionCommand(),
	}
	app.Action = func(c *cli.Context) error {
		if c.Bool("version") {
			return runVersion(c.Context, c.App.Writer)
		}
		if c.NArg() > 0 {
			return fmt.Errorf("unknown command %q; see git-edit --help", c.Args().First())
		}
		return cli.ShowAppHelp(c)
	}
	clikit.QuietSwitches(app.Flags)
	for _, c := range app.Commands {
		clikit.QuietSwitches(c.Flags)
	}
	return app
}

func sessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, DefaultText: sessionDefault,
		Usage: "session `NAME`: edits are recorded on refs/edits/NAME, made if it does not exist"}
}
