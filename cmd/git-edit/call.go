package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// callOptions are the inputs of `git-edit call`.
type callOptions struct {
	Root, Session, Tool string
	// Turn is recorded on the call's edit as Edit-Turn ("": none).
	Turn string
	// Origin is recorded on the call's edit as Edit-Model and Edit-Agent.
	Origin session.Origin
	// Overrides of git config, nil when not given.
	UndoDepth   *int
	MaxFileSize *int64
	RequireRead *bool
	// Timeout overrides edit.timeout (nil: not given).
	Timeout *time.Duration
	// ID names the call in logs; Observer logs it (nil: not at all).
	ID       string
	Observer *ops.Observer
	Stdin    io.Reader
	Stdout   io.Writer
}

func callCommand() *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "run one tool: JSON arguments on stdin, the JSON result on stdout",
		ArgsUsage: "TOOL (one of: " + strings.Join(ops.Tools(), ", ") + ")",
		Flags: append([]cli.Flag{clikit.RootFlag(), sessionFlag(),
			&cli.StringFlag{Name: "id", Usage: "the call's `ID` in logs (such as the agent's tool-use id; default: generated)"},
			&cli.IntFlag{Name: "undo-depth", Usage: "how many edits of one file undo_edit reaches back (0: unlimited); overrides git config edit.undoDepth",
				DefaultText: undoDepthDefault},
			&cli.Int64Flag{Name: "max-file-size", Usage: "largest file read for editing, in `BYTES`; overrides git config edit.maxFileSize",
				DefaultText: fmt.Sprintf("edit.maxFileSize, else %d", ops.DefaultMaxFileSize)},
			&cli.BoolFlag{Name: "require-read", Usage: "Edit/MultiEdit need a prior Read; overrides git config edit.requireRead (--require-read=false turns it off)",
				DefaultText: fmt.Sprintf("edit.requireRead, else %t", ops.DefaultRequireRead)},
			clikit.TimeoutFlag(),
			&cli.BoolFlag{Name: "verbose", Usage: "log each tool call's INFO lines to stderr (as GIT_EDIT_LOG=1 does)"},
			turnFlag(),
		}, append(clikit.OriginFlags(), callLogFlags()...)...),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("call takes exactly one tool name, got %d arguments; the tools are: %s", c.NArg(), strings.Join(ops.Tools(), ", "))
			}
			obs, closeLogs, err := clikit.Observer(c)
			if err != nil {
				return err
			}
			defer closeLogs()
			closeLog, err := callLog(c, obs, os.Getenv("GIT_EDIT_LOG"))
			if err != nil {
				return err
			}
			defer closeLog()
			// An empty root is the whole worktree, paths from the
			// current directory (see ops.Options.Root).
			name, err := writerSession(c)
			if err != nil {
				return err
			}
			o := callOptions{
				Root: c.String("root"), Session: name, Tool: c.Args().First(),
				ID: c.String("id"), Turn: c.String("turn"), Observer: obs, Stdin: c.App.Reader, Stdout: c.App.Writer,
			}
			if o.ID == "" {
				o.ID = "call-" + clikit.NewSessionName(time.Now())[len("mcp-"):]
			}
			if c.IsSet("undo-depth") {
				d := c.Int("undo-depth")
				o.UndoDepth = &d
			}
			if c.IsSet("max-file-size") {
				m := c.Int64("max-file-size")
				o.MaxFileSize = &m
			}
			if c.IsSet("require-read") {
				r := c.Bool("require-read")
				o.RequireRead = &r
			}
			o.Timeout = clikit.TimeoutOf(c)
			if o.Origin, err = clikit.OriginOf(c); err != nil {
				return err
			}
			return runCall(c.Context, o)
		},
	}
}

// turnFlag is --turn of the commands that record edits (call, record).
func turnFlag() cli.Flag {
	return &cli.StringFlag{Name: "turn", EnvVars: []string{"GIT_EDIT_TURN"},
		Usage: "record the edit as part of turn `T` (the person's prompt it answers; trailer Edit-Turn), so that git edit log groups it and git edit undo --turn T takes the whole turn back"}
}

// undoDepthDefault is --undo-depth's default in call's and undo's help.
var undoDepthDefault = fmt.Sprintf("edit.undoDepth, else %d", ops.DefaultUndoDepth)

// callLogFlags are the MCP server's log flags, worded for call, which logs
// only when asked.
func callLogFlags() []cli.Flag {
	flags := clikit.LogFlags()
	for _, f := range flags {
		if s, ok := f.(*cli.StringFlag); ok && s.Name == "log-file" {
			s.Usage = "append the INFO lines of each tool call to `FILE` (as GIT_EDIT_LOG=/absolute/path does)"
			s.DefaultText = "no INFO lines"
		}
	}
	return flags
}

// callLog decides where call's INFO lines go. A person running call by
// hand wants the result, not two log lines per call, so call logs only
// when asked: --log-file FILE (already opened by observer), --verbose
// (stderr), or GIT_EDIT_LOG, read as git reads GIT_TRACE: "1", "2" or
// "true" log to stderr, an absolute path appends to that file, "", "0" and
// "false" are off, and anything else is warned about and ignored. (The
// MCP server logs to stderr always, as seed 001 describes.)
func callLog(c *cli.Context, obs *ops.Observer, env string) (close func(), err error) {
	close = func() {}
	if c.String("log-file") != "" || c.Bool("verbose") {
		return close, nil
	}
	switch strings.ToLower(env) {
	case "", "0", "false":
		obs.Log = nil
		return close, nil
	case "1", "2", "true":
		obs.Log = slog.New(slog.NewTextHandler(c.App.ErrWriter, nil))
		return close, nil
	}
	obs.Log = nil
	if !filepath.IsAbs(env) {
		fmt.Fprintf(c.App.ErrWriter, "warning: GIT_EDIT_LOG=%q is neither 1 (log to stderr) nor an absolute file path; not logging\n", env)
		return close, nil
	}
	f, err := os.OpenFile(env, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return close, fmt.Errorf("GIT_EDIT_LOG: %w; set it to a file you can write, or unset it", err)
	}
	obs.Log = slog.New(slog.NewTextHandler(f, nil))
	return func() { f.Close() }, nil
}

// runCall reads the arguments, runs the tool and prints its result. A
// refused call prints its JSON too and returns clikit.ErrRefused.
func runCall(ctx context.Context, o callOptions) error {
	// The tool and the session name are part of the command line: a bad
	// one is misuse, not a tool call to log.
	if !slices.Contains(ops.Tools(), o.Tool) {
		return fmt.Errorf("%w %q; the tools are: %s", ops.ErrUnknownTool, o.Tool, strings.Join(ops.Tools(), ", "))
	}
	if err := session.ValidateName(o.Session); err != nil {
		return fmt.Errorf("--session: %w", err)
	}
	if o.Turn != "" {
		if err := session.ValidateTurn(o.Turn); err != nil {
			return fmt.Errorf("--turn: %w", err)
		}
		ctx = session.WithTurn(ctx, o.Turn)
	}
	if o.Origin != (session.Origin{}) {
		if err := session.ValidateOrigin(o.Origin); err != nil {
			return fmt.Errorf("--model/--agent: %w", err)
		}
		ctx = session.WithOrigin(ctx, o.Origin)
	}
	args, err := io.ReadAll(io.LimitReader(o.Stdin, ops.MaxArgsBytes+1))
	if err != nil {
		return fmt.Errorf("read arguments from stdin: %w", err)
	}
	// The call runs within the engine's time limit (ops.Engine.Timeout),
	// as every entry point's operations do.
	opts := ops.Options{Root: o.Root, Session: o.Session, UndoDepth: o.UndoDepth, MaxFileSize: o.MaxFileSize, RequireRead: o.RequireRead, Timeout: o.Timeout}
	call := func() (ops.Result, error) { return ops.Call(ctx, opts, o.Tool, args) }
	var res ops.Result
	if o.Observer != nil {
		res, err = o.Observer.Call(o.Tool, o.ID, args, call)
	} else {
		res, err = call()
	}
	if err != nil {
		return err
	}
	// Code is full of <, > and &: keep them readable, not \u003c.
	enc := json.NewEncoder(o.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.Value); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	if !res.OK {
		return clikit.ErrRefused
	}
	return nil
}
