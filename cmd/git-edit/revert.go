package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/session"
	"github.com/urfave/cli/v2"
)

func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "if a file changed on disk since the session last recorded it, record that change (a sync commit) and go ahead"}
}

func undoCommand(redo bool) *cli.Command {
	name, usage := "undo", "revert the last edit still in effect (of PATH, or the session's newest)"
	if redo {
		name, usage = "redo", "re-apply the last undo (of PATH, or the session's newest), unless the file changed since"
	}
	flags := []cli.Flag{rootFlag(), historySessionFlag(), forceFlag()}
	if !redo {
		flags = append(flags, &cli.IntFlag{Name: "undo-depth", Usage: "how many edits of one file undo reaches back (0: unlimited); overrides git config edit.undoDepth", DefaultText: undoDepthDefault})
	}
	return &cli.Command{
		Name:         name,
		Usage:        usage,
		ArgsUsage:    "[PATH]",
		Flags:        flags,
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("%s takes at most one PATH, got %d", name, c.NArg())
			}
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			defer e.Close()
			var res engine.Reverted
			if redo {
				res, err = e.Redo(c.Context, c.Args().First(), c.Bool("force"))
			} else {
				res, err = e.Undo(c.Context, c.Args().First(), c.Bool("force"))
			}
			if err != nil {
				return refused(explainRevert(name, err))
			}
			return reportRevert(c.App.Writer, name, res)
		},
	}
}

func rollbackCommand() *cli.Command {
	return &cli.Command{
		Name:  "rollback",
		Usage: "return every path the session touched to its state before the session (or right after EDIT)",
		Flags: []cli.Flag{rootFlag(), historySessionFlag(),
			&cli.BoolFlag{Name: "force", Usage: "discard the person's work too: files changed on disk (recorded first as a sync commit), changes made outside git-edit during the session, and changes committed to HEAD since the session started; all stay in history"},
			&cli.StringFlag{Name: "to", Usage: "roll back to the state right after `EDIT` (a commit id from git edit log)"}},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("rollback takes no arguments; use --to EDIT to stop at an edit")
			}
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			defer e.Close()
			res, err := e.Rollback(c.Context, c.String("to"), c.Bool("force"))
			if err != nil {
				return refused(explainRevert("rollback", err))
			}
			return reportRevert(c.App.Writer, "rollback", res)
		},
	}
}

// reportRevert says what an undo, redo or rollback did, path by path.
func reportRevert(w io.Writer, what string, res engine.Reverted) error {
	if res.Commit.IsZero() {
		_, err := fmt.Fprintf(w, "Nothing to %s: every path is already as it would become.\n", what)
		return err
	}
	var head string
	switch what {
	case "rollback":
		head = "Rolled back to the start of the session"
		if !res.Target.Commit.IsZero() {
			head = "Rolled back to " + res.Target.Commit.String()[:7]
		}
	case "redo":
		head = fmt.Sprintf("Redid what %s undid (%s)", res.Target.Commit.String()[:7], res.Target.Meta.Undoes.String()[:7])
	default:
		head = fmt.Sprintf("Undid %s (%s)", toolOf(res), res.Target.Commit.String()[:7])
	}
	if !res.Sync.IsZero() {
		head += fmt.Sprintf("; the changes on disk were recorded first as %s", res.Sync.String()[:7])
	}
	fmt.Fprintf(w, "%s, recorded as %s:\n", head, res.Commit.String()[:7])
	for _, pc := range res.Changes() {
		switch pc.How {
		case "changed":
			fmt.Fprintf(w, "  changed    %s (+%d -%d)\n", pc.Path, pc.Added, pc.Removed)
		default:
			fmt.Fprintf(w, "  %-9s  %s\n", pc.How, pc.Path)
		}
	}
	if len(res.Discarded) > 0 {
		fmt.Fprintln(w, "Discarded from the worktree (--force), still in history:")
		for _, d := range res.Discarded {
			fmt.Fprintf(w, "  %s\n", d.Fact())
		}
	}
	return nil
}

func toolOf(res engine.Reverted) string {
	if res.Target.Meta.Tool != "" {
		return res.Target.Meta.Tool
	}
	return res.Target.Meta.Op
}

// explainRevert words a refusal for the command line: a file changed on
// disk gets its difference and the way forward.
func explainRevert(what string, err error) error {
	var outside *session.OutsideChangeError
	if errors.As(err, &outside) {
		diff := engine.Unified(outside.Disk.Path, outside.Recorded, outside.Disk)
		return fmt.Errorf("%s was changed outside git-edit since the session last recorded it, and %s would overwrite that; nothing was changed. Run it again with --force to record the change first (a sync commit keeps it in history) and %s anyway. The change on disk:\n%s",
			outside.Disk.Path, what, what, strings.TrimRight(diff, "\n"))
	}
	return err
}
