package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/session"
	"github.com/urfave/cli/v2"
)

// callTimeout bounds one call, mostly the wait for another process's edit
// lock, so a stuck process cannot hang an agent forever.
const callTimeout = 2 * time.Minute

// callOptions are the inputs of `git-edit call`.
type callOptions struct {
	Root, Session, Tool string
	// Overrides of git config, nil when not given.
	UndoDepth   *int
	MaxFileSize *int64
	RequireRead *bool
	// ID names the call in logs; Observer logs it (nil: not at all).
	ID       string
	Observer *engine.Observer
	Stdin    io.Reader
	Stdout   io.Writer
}

func callCommand() *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "run one tool: JSON arguments on stdin, the JSON result on stdout",
		ArgsUsage: "TOOL (one of: " + strings.Join(engine.Tools(), ", ") + ")",
		Flags: append([]cli.Flag{rootFlag(), sessionFlag(),
			&cli.StringFlag{Name: "id", Usage: "the call's `ID` in logs (such as the agent's tool-use id; default: generated)"},
			&cli.IntFlag{Name: "undo-depth", Usage: "how many edits of one file undo_edit reaches back; overrides git config edit.undoDepth (0: unlimited)"},
			&cli.Int64Flag{Name: "max-file-size", Usage: "largest file read for editing, in bytes; overrides edit.maxFileSize"},
			&cli.BoolFlag{Name: "require-read", Usage: "Edit/MultiEdit need a prior Read; overrides edit.requireRead (--require-read=false turns it off)"},
		}, logFlags()...),
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("call takes exactly one tool name, got %d arguments; the tools are: %s", c.NArg(), strings.Join(engine.Tools(), ", "))
			}
			obs, closeLogs, err := observer(c)
			if err != nil {
				return err
			}
			defer closeLogs()
			o := callOptions{
				Root: c.String("root"), Session: sessionName(c), Tool: c.Args().First(),
				ID: c.String("id"), Observer: obs, Stdin: c.App.Reader, Stdout: c.App.Writer,
			}
			if o.ID == "" {
				o.ID = "call-" + newSessionName(time.Now())[len("mcp-"):]
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
			return runCall(c.Context, o)
		},
	}
}

// runCall reads the arguments, runs the tool and prints its result. A
// refused call prints its JSON too and returns errRefused.
func runCall(ctx context.Context, o callOptions) error {
	// The tool and the session name are part of the command line: a bad
	// one is misuse, not a tool call to log.
	if !slices.Contains(engine.Tools(), o.Tool) {
		return fmt.Errorf("%w %q; the tools are: %s", engine.ErrUnknownTool, o.Tool, strings.Join(engine.Tools(), ", "))
	}
	if err := session.ValidateName(o.Session); err != nil {
		return fmt.Errorf("--session: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	args, err := io.ReadAll(io.LimitReader(o.Stdin, engine.MaxArgsBytes+1))
	if err != nil {
		return fmt.Errorf("read arguments from stdin: %w", err)
	}
	opts := engine.Options{Root: o.Root, Session: o.Session, UndoDepth: o.UndoDepth, MaxFileSize: o.MaxFileSize, RequireRead: o.RequireRead}
	call := func() (engine.Result, error) { return engine.Call(ctx, opts, o.Tool, args) }
	var res engine.Result
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
		return errRefused
	}
	return nil
}
