package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// checkpointOptions is what `git edit checkpoint` was asked to do.
type checkpointOptions struct {
	Name   string
	DryRun bool
	Stdout io.Writer
}

func checkpointCommand() *cli.Command {
	return &cli.Command{
		Name:      "checkpoint",
		Usage:     "mark the session's current state, as a commit that changes no file, so that rollback --to NAME returns to it",
		ArgsUsage: "[NAME]",
		// It writes, as call and record do, to the session the one rule
		// picks (see chooseSession), which need not exist yet.
		Flags: []cli.Flag{clikit.RootFlag(), sessionFlag(),
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "check the name and say what would be recorded; record nothing"}},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("checkpoint takes at most one NAME, got %d arguments", c.NArg())
			}
			if name := c.Args().First(); name != "" {
				if err := session.ValidateCheckpoint(name); err != nil {
					return err
				}
			}
			name, err := writerSession(c)
			if err != nil {
				return err
			}
			e, err := ops.Open(ops.Options{Root: c.String("root"), Session: name})
			if err != nil {
				if errors.Is(err, session.ErrBadName) {
					return err
				}
				return clikit.Refused(err)
			}
			defer e.Close()
			return runCheckpoint(c.Context, e, checkpointOptions{Name: c.Args().First(), DryRun: c.Bool("dry-run"), Stdout: c.App.Writer})
		},
	}
}

// runCheckpoint records the checkpoint and reports it as `git tag` would
// not (it says nothing), but as `git commit` does: the session and short
// id with the subject, then how to return to it.
func runCheckpoint(ctx context.Context, e *ops.Engine, o checkpointOptions) error {
	c, err := e.Checkpoint(ctx, o.Name, o.DryRun)
	if err != nil {
		if errors.Is(err, session.ErrCheckpointExists) {
			return clikit.Refused(err)
		}
		return clikit.Refused(fmt.Errorf("checkpoint: %w; nothing was recorded", err))
	}
	if o.DryRun {
		_, err := fmt.Fprintf(o.Stdout, "would record: [%s] %s\n(dry run: nothing was recorded)\n", e.Session.Name, c.Subject)
		return err
	}
	to := o.Name
	if to == "" {
		to = c.Short()
	}
	// The hint names the session: run later, after another session
	// became the current one, it still means this one.
	_, err = fmt.Fprintf(o.Stdout, "[%s %s] %s\nReturn to it with `%s`.\n", e.Session.Name, c.Short(), c.Subject, session.Hint(e.Session.Name, "rollback", "--to", to))
	return err
}
