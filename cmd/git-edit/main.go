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
	"syscall"

	"github.com/git-edit/git-edit/session"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
	err := app.RunContext(ctx, args)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errRefused):
		return exitRefused
	case isRefusal(err):
		fmt.Fprintf(stderr, "git-edit: %v\n", err)
		return exitRefused
	default:
		fmt.Fprintf(stderr, "git-edit: %v\n", err)
		return exitMisuse
	}
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "git-edit",
		Usage:     "edit files in a git repository for coding agents, recording every edit on refs/edits/<session>",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Exit statuses are decided in run, never by os.Exit inside the library.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   usageError,
		Commands: []*cli.Command{
			callCommand(),
			logCommand(),
			showCommand(),
			diffCommand(),
			undoCommand(false),
			undoCommand(true),
			rollbackCommand(),
			sessionsCommand(),
			pruneCommand(),
			mcpCommand(),
			toolsCommand(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("unknown command %q; see git-edit --help", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}

// usageError keeps stdout for results: a bad command line is reported on
// stderr only, without urfave's help text on stdout.
func usageError(c *cli.Context, err error, _ bool) error {
	name := "git-edit"
	if c.Command != nil && c.Command.Name != "" {
		name += " " + c.Command.Name
	}
	return fmt.Errorf("%w; see %s --help", err, name)
}

// rootFlag and sessionFlag are shared by every command that works on a
// session.
func rootFlag() cli.Flag {
	return &cli.StringFlag{Name: "root", Value: ".", Usage: "directory relative paths resolve against; the repository is found from there upward (or from GIT_DIR, as git does), and edits stay inside it"}
}

func sessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", Value: "default", EnvVars: []string{"GIT_EDIT_SESSION"}, Usage: "session name: edits are recorded on refs/edits/<session>"}
}

// sessionName is --session, else $GIT_EDIT_SESSION, else "default"; an
// empty value counts as unset, as an exported-but-empty variable usually
// means "no preference".
func sessionName(c *cli.Context) string {
	if s := c.String("session"); s != "" {
		return s
	}
	return "default"
}
