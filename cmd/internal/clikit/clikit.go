// Package clikit holds the command-line pieces git-edit shares with its
// companion git-edit-mcp, which serves `git edit mcp` in git-edit's place
// (see ops/companion): the flags both define (so `git edit help mcp` and
// the server parse the same options), options anywhere among the
// arguments as git takes them (GitOrder), what a refusal is and the exit
// status each error gives (Exit). It imports neither the MCP SDK nor
// anything git-edit would not load anyway.
package clikit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops"
	gesession "github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// NewApp is the command line both programs start from: git-edit's name
// and usage, the streams injected (tests run commands in process), exit
// statuses left to the caller (never os.Exit inside the library), usage
// errors worded as git-edit words them (UsageError), and no --version of
// the library's. The caller adds its commands and flags.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:           "git-edit",
		Usage:          "edit files in a git repository for coding agents, recording every edit on refs/edits/<session>",
		Reader:         stdin,
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   UsageError,
		HideVersion:    true,
	}
}

// Version is git-edit's version: what the MCP server reports as its
// implementation version and Agent Trace records name.
const Version = "0.1.0"

// NewSessionName is a readable, sortable name for a server's session:
// mcp-20261121-153000-ab12.
func NewSessionName(now time.Time) string {
	var b [2]byte
	rand.Read(b[:])
	return "mcp-" + now.Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Exit statuses.
const (
	ExitOK      = 0
	ExitRefused = 1 // the call was refused; the JSON on stdout says why
	ExitMisuse  = 2 // the command line itself is wrong; stderr says why
)

// ErrRefused is returned by an action whose answer is already on stdout.
var ErrRefused = errors.New("refused")

// ExitStatus is an error that is only an exit status: a companion that ran
// in a command's place ended with it, and said what it had to say itself.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Exit is the exit status of a command that returned err, after telling
// stderr what a refusal or a misuse was (ErrRefused and ExitStatus have
// said it already): 0 for nil, 1 for a refusal, 2 for misuse.
func Exit(err error, stderr io.Writer) int {
	var status ExitStatus
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &status):
		return int(status)
	case errors.Is(err, ErrRefused):
		return ExitRefused
	case IsRefusal(err):
		fmt.Fprintf(stderr, "git-edit: %s\n", Printable(err.Error()))
		return ExitRefused
	default:
		fmt.Fprintf(stderr, "git-edit: %s\n", Printable(err.Error()))
		return ExitMisuse
	}
}

// refusedError is a command that was refused: its message goes to stderr
// and the exit status is 1 (the call command prints JSON instead and
// returns the bare ErrRefused).
type refusedError struct{ err error }

func (r *refusedError) Error() string { return r.err.Error() }
func (r *refusedError) Unwrap() error { return r.err }

// Refused marks err as a refusal (exit status 1) rather than misuse.
func Refused(err error) error { return &refusedError{err} }

// IsRefusal reports errors that mean "refused" rather than misuse.
func IsRefusal(err error) bool {
	var r *refusedError
	return errors.As(err, &r)
}

// SwitchesFromEnv reads the switches the tests and the benchmark set in
// git-edit's environment and hands them to the library, which never reads
// the environment for them: GIT_EDIT_TEST_CRASH names the point at which
// the process dies (or "hang:<point>", stops; see repo.SetCrashPoint), and
// GIT_EDIT_PACKIDX=off reads objects through go-git's reader instead of
// packidx (see session.UseGoGitReader). Both are unset in use.
func SwitchesFromEnv(getenv func(string) string) {
	if point := getenv("GIT_EDIT_TEST_CRASH"); point != "" {
		gesession.SetCrashPoint(point)
	}
	if getenv("GIT_EDIT_PACKIDX") == "off" {
		gesession.UseGoGitReader(true)
	}
}

// QuietSwitches keeps "(default: false)" off the help of switches, as git's
// help never states that an option not given is off. A switch that is on
// unless turned off (--require-read) states its real default itself.
func QuietSwitches(flags []cli.Flag) {
	for _, f := range flags {
		if b, ok := f.(*cli.BoolFlag); ok && !b.Value && b.DefaultText == "" {
			b.DisableDefaultText = true
		}
	}
}

// UsageError keeps stdout for results: a bad command line is reported on
// stderr only, without urfave's help text on stdout.
func UsageError(c *cli.Context, err error, _ bool) error {
	name := c.App.Name
	// At the top level c.Command is the app's own root command, named
	// like the app: "git-edit git-edit" would name no command.
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		name += " " + c.Command.Name
	}
	return fmt.Errorf("%w; see %s --help", err, name)
}

// RootFlag is shared by every command that works on a session.
//
// Without --root, a command works as git's do anywhere inside a worktree:
// on the whole worktree, with relative paths from the current directory
// (ops.Options.Root empty).
func RootFlag() cli.Flag {
	return &cli.StringFlag{Name: "root", Usage: "work only inside `DIR`: relative paths resolve against it, edits stay inside it, and the repository is found from there upward (or from GIT_DIR, as git does)",
		DefaultText: rootDefault}
}

// rootDefault is what the commands do without --root, as their help says.
const rootDefault = "the whole worktree, relative paths from the current directory"

// MCPSessionFlag is --session of the MCP server, which starts a new
// session of its own unless told which.
func MCPSessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, Usage: "session name: edits are recorded on refs/edits/<session>",
		DefaultText: mcpSessionDefault}
}

const mcpSessionDefault = "a new session, mcp-YYYYMMDD-HHMMSS-XXXX"

// TimeoutFlag is --timeout of call and mcp: how long one operation (one
// tool call) may run before it is stopped, releasing the edit lock.
func TimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Usage: "stop each tool call that runs longer than `DURATION` (such as 2m or 90s; 0: no limit), releasing the edit lock; overrides git config edit.timeout",
		DefaultText: fmt.Sprintf("edit.timeout, else %v", ops.DefaultTimeout)}
}

// TimeoutOf is --timeout when given, else nil (git config decides).
func TimeoutOf(c *cli.Context) *time.Duration {
	if !c.IsSet("timeout") {
		return nil
	}
	d := max(c.Duration("timeout"), 0)
	return &d
}

// OriginFlags are --model and --agent of the commands that record edits
// (call, record, mcp): the model and the agent program the host runs,
// recorded on each edit as Edit-Model and Edit-Agent.
func OriginFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", EnvVars: []string{"GIT_EDIT_MODEL"},
			Usage: "record the edits as made by model `ID` (such as claude-sonnet-4-5; trailer Edit-Model), so that blame, notes and Agent Trace records name it"},
		&cli.StringFlag{Name: "agent", EnvVars: []string{"GIT_EDIT_AGENT"},
			Usage: "record the edits as made by agent program `NAME` (\"<name> <version>\", such as \"claude-code 2.1.3\"; trailer Edit-Agent); mcp, when not given, records the client's name and version from its initialize request"},
	}
}

// OriginOf is --model and --agent, checked.
func OriginOf(c *cli.Context) (gesession.Origin, error) {
	o := gesession.Origin{Model: c.String("model"), Agent: c.String("agent")}
	if err := gesession.ValidateOrigin(o); err != nil {
		return gesession.Origin{}, fmt.Errorf("--model/--agent: %w", err)
	}
	return o, nil
}

// LogFlags are the MCP server's --log-file and --agent-log (call words
// them its own way).
func LogFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-file", Usage: "write the INFO lines of each tool call to `FILE` instead of stderr"},
		&cli.StringFlag{Name: "agent-log", Usage: "append each call and its result to `FILE` as TOOL_CALL / TOOL_RESULT records"},
	}
}

// Observer builds the call logger the flags ask for; close releases files.
func Observer(c *cli.Context) (obs *ops.Observer, close func(), err error) {
	var files []*os.File
	close = func() {
		for _, f := range files {
			f.Close()
		}
	}
	logTo := c.App.ErrWriter
	if p := c.String("log-file"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			return nil, close, fmt.Errorf("--log-file: %w", err)
		}
		files, logTo = append(files, f), f
	}
	obs = &ops.Observer{Log: slog.New(slog.NewTextHandler(logTo, nil))}
	if p := c.String("agent-log"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			close()
			return nil, func() {}, fmt.Errorf("--agent-log: %w", err)
		}
		files, obs.Agent = append(files, f), f
	}
	return obs, close, nil
}

// MCPUsage is the one-line help of `git edit mcp`.
const MCPUsage = "serve the edit tools over the Model Context Protocol on stdin/stdout"

// MCPFlags are the options of `git edit mcp`, which git-edit shows in its
// help and git-edit-mcp parses.
func MCPFlags() []cli.Flag {
	return append([]cli.Flag{RootFlag(), MCPSessionFlag(),
		&cli.StringFlag{Name: "tools", Usage: "comma-separated `LIST` of tools to offer (default: all); see git-edit tools"},
		TimeoutFlag(),
	}, append(OriginFlags(), LogFlags()...)...)
}

// Printable is s with every control character but newline and tab written
// as git writes it in a quoted path (\r, \033...): a message or subject
// may carry a file name an agent made, whose ESC or CR would otherwise
// drive the person's terminal. Bytes that are not UTF-8 and the C1
// controls (U+0080 to U+009F, which some terminals obey as ESC [) are
// written in octal too.
func Printable(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r != utf8.RuneError || size > 1) && !unsafeRune(r) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		for _, c := range []byte(s[i : i+size]) {
			switch c {
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			case '\v':
				b.WriteString(`\v`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			default:
				fmt.Fprintf(&b, "\\%03o", c)
			}
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports a control character a terminal may act on: C0 but
// newline and tab, DEL, and C1.
func unsafeRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0
}
