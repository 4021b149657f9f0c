// Command git-edit lets coding agents edit files in a git repository in
// the edit-tool dialect they speak, recording every edit as a commit on the
// hidden ref refs/edits/<session>. Installed on PATH it is also `git edit`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// Exit statuses.
const (
	exitOK      = 0
	exitRefused = 1 // the call was refused; the JSON on stdout says why
	exitMisuse  = 2 // the command line itself is wrong; stderr says why
)

func main() {
	switchesFromEnv(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), shutdownSignals...)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// switchesFromEnv reads the switches the tests and the benchmark set in
// git-edit's environment and hands them to the library, which never reads
// the environment for them: GIT_EDIT_TEST_CRASH names the point at which
// the process dies (or "hang:<point>", stops; see repo.SetCrashPoint), and
// GIT_EDIT_PACKIDX=off reads objects through go-git's reader instead of
// packidx (see session.UseGoGitReader). Both are unset in use.
func switchesFromEnv(getenv func(string) string) {
	if point := getenv("GIT_EDIT_TEST_CRASH"); point != "" {
		session.SetCrashPoint(point)
	}
	if getenv("GIT_EDIT_PACKIDX") == "off" {
		session.UseGoGitReader(true)
	}
}

// refused is returned by an action whose answer is already on stdout.
var errRefused = errors.New("refused")

// run executes one command line and returns its exit status. Streams are
// injected so tests run commands in process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	args, err := gitOrder(app.Commands, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errRefused):
		return exitRefused
	case isRefusal(err):
		fmt.Fprintf(stderr, "git-edit: %s\n", printable(err.Error()))
		return exitRefused
	default:
		fmt.Fprintf(stderr, "git-edit: %s\n", printable(err.Error()))
		return exitMisuse
	}
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "git-edit",
		Usage:     "edit files in a git repository for coding agents, recording every edit on refs/edits/<session>",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Exit statuses are decided in run, never by os.Exit inside the library.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   usageError,
		// --version is git-edit's own, printing the go and git versions too.
		HideVersion: true,
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "version", Usage: "print the versions of git-edit, the Go it was built with, and git"}},
		Commands: []*cli.Command{
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
		},
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				return runVersion(c.Context, c.App.Writer)
			}
			if c.NArg() > 0 {
				return fmt.Errorf("unknown command %q; see git-edit --help", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	quietSwitches(app.Flags)
	for _, c := range app.Commands {
		quietSwitches(c.Flags)
	}
	return app
}

// quietSwitches keeps "(default: false)" off the help of switches, as git's
// help never states that an option not given is off. A switch that is on
// unless turned off (--require-read) states its real default itself.
func quietSwitches(flags []cli.Flag) {
	for _, f := range flags {
		if b, ok := f.(*cli.BoolFlag); ok && !b.Value && b.DefaultText == "" {
			b.DisableDefaultText = true
		}
	}
}

// usageError keeps stdout for results: a bad command line is reported on
// stderr only, without urfave's help text on stdout.
func usageError(c *cli.Context, err error, _ bool) error {
	name := c.App.Name
	// At the top level c.Command is the app's own root command, named
	// like the app: "git-edit git-edit" would name no command.
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		name += " " + c.Command.Name
	}
	return fmt.Errorf("%w; see %s --help", err, name)
}

// rootFlag and sessionFlag are shared by every command that works on a
// session.
//
// Without --root, a command works as git's do anywhere inside a worktree:
// on the whole worktree, with relative paths from the current directory
// (ops.Options.Root empty).
func rootFlag() cli.Flag {
	return &cli.StringFlag{Name: "root", Usage: "work only inside `DIR`: relative paths resolve against it, edits stay inside it, and the repository is found from there upward (or from GIT_DIR, as git does)",
		DefaultText: rootDefault}
}

// rootDefault is what the commands do without --root, as their help says.
const rootDefault = "the whole worktree, relative paths from the current directory"

func sessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, DefaultText: sessionDefault,
		Usage: "session `NAME`: edits are recorded on refs/edits/NAME, made if it does not exist"}
}

// mcpSessionFlag is --session of the MCP server, which starts a new
// session of its own unless told which (see newSessionName).
func mcpSessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, Usage: "session name: edits are recorded on refs/edits/<session>",
		DefaultText: mcpSessionDefault}
}

const mcpSessionDefault = "a new session, mcp-YYYYMMDD-HHMMSS-XXXX"
