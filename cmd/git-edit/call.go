package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo"
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
	Stdin       io.Reader
	Stdout      io.Writer
}

func callCommand() *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "run one tool: JSON arguments on stdin, the JSON result on stdout",
		ArgsUsage: "TOOL (one of: " + strings.Join(engine.Tools(), ", ") + ")",
		Flags: []cli.Flag{rootFlag(), sessionFlag(),
			&cli.IntFlag{Name: "undo-depth", Usage: "how many edits of one file undo_edit reaches back; overrides git config edit.undoDepth (0: unlimited)"},
			&cli.Int64Flag{Name: "max-file-size", Usage: "largest file read for editing, in bytes; overrides edit.maxFileSize"},
			&cli.BoolFlag{Name: "require-read", Usage: "Edit/MultiEdit need a prior Read; overrides edit.requireRead (--require-read=false turns it off)"},
		},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("call takes exactly one tool name, got %d arguments; the tools are: %s", c.NArg(), strings.Join(engine.Tools(), ", "))
			}
			o := callOptions{
				Root: c.String("root"), Session: sessionName(c), Tool: c.Args().First(),
				Stdin: c.App.Reader, Stdout: c.App.Writer,
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
	// A session name is part of the command line: a bad one is misuse.
	if err := repo.ValidateSessionName(o.Session); err != nil {
		return fmt.Errorf("--session: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	args, err := io.ReadAll(io.LimitReader(o.Stdin, engine.MaxArgsBytes+1))
	if err != nil {
		return fmt.Errorf("read arguments from stdin: %w", err)
	}
	res, err := engine.Call(ctx, engine.Options{Root: o.Root, Session: o.Session,
		UndoDepth: o.UndoDepth, MaxFileSize: o.MaxFileSize, RequireRead: o.RequireRead}, o.Tool, args)
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
