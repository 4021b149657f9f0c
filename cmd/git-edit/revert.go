package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/history"
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
			if err := reportRevert(c.App.Writer, name, res); err != nil {
				return err
			}
			reportBeyond(c.App.Writer, e, name, res)
			return nil
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
			if err := reportRevert(c.App.Writer, "rollback", res); err != nil {
				return err
			}
			return reportRollback(c.App.Writer, e.Session.Name, res)
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

// reportRollback says, after a rollback's own report, what else it removed
// and how to get it all back: for --to, the session's later commits it
// reverses (the person's and other sessions' work it discarded is listed
// by reportRevert); then the undo that takes the rollback back and where
// each file's previous bytes stay.
func reportRollback(w io.Writer, name string, res engine.Reverted) error {
	if res.Commit.IsZero() {
		return nil
	}
	id := short(res.Commit.String())
	if !res.Target.Commit.IsZero() && len(res.Later) > 0 {
		fmt.Fprintf(w, "The rollback reversed the session's %s after %s:\n", plural(len(res.Later), "commit"), short(res.Target.Commit.String()))
		const most = 10
		for i, c := range res.Later {
			if i == most {
				fmt.Fprintf(w, "  … and %d more (`git edit log --session %s`)\n", len(res.Later)-most, name)
				break
			}
			fmt.Fprintf(w, "  %s %s\n", c.Short(), c.Subject)
		}
	}
	see := ""
	for _, pc := range res.Changes() {
		if pc.How == "changed" || pc.How == "removed" {
			see = fmt.Sprintf(", or see a file as it was with `git show %s^:%s`", id, pc.Path)
			break
		}
	}
	_, err := fmt.Fprintf(w, "Get it all back with `git edit undo --session %s` (it undoes this rollback, %s)%s.\n", name, id, see)
	return err
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

// reportBeyond says, for each path an undo or redo put back, what it
// removed besides the target's own change, whose that was, and how to get
// it back: undo and redo restore a path whole, as it was just before the
// target, so changes made after it go too (issue 15: an undo that silently
// removed two other sessions' edits and a line written by hand). The
// revert is done; a question it cannot answer is left out, not an error.
func reportBeyond(w io.Writer, e *engine.Engine, what string, res engine.Reverted) {
	if res.Commit.IsZero() {
		return
	}
	tc, _, err := e.Session.ReadCommit(res.Target.Commit)
	if err != nil {
		return
	}
	for _, path := range res.Paths {
		b, err := history.WhatElse(e.Session, e.Repo, res.Commit, res.Target, path)
		if err != nil || !b.Removed() {
			continue
		}
		added, removed := diffview.Stat(b.Later, b.Now)
		tshort := short(res.Target.Commit.String())
		fmt.Fprintf(w, "%s went back whole to its state before %s, so the %s also removed what changed it since (+%d -%d):\n", path, tshort, what, added, removed)
		if len(b.Syncs) > 0 {
			sync := b.Syncs[0]
			others, recorded := e.OtherSessions(path, tc.Time, time.Time{}, sync.Hash)
			if len(others) > 0 {
				fmt.Fprintf(w, "  edits of other sessions: %s (recorded here in sync commit %s)\n", strings.Join(others, ", "), short(sync.Hash.String()))
			}
			if !recorded {
				fmt.Fprintf(w, "  changes recorded in no session (by hand or by another tool), in sync commit %s\n", short(sync.Hash.String()))
			}
		}
		for _, c := range b.Own {
			fmt.Fprintf(w, "  a later commit of this session: %s %s\n", short(c.Hash.String()), c.Meta.Op)
		}
		before := res.Commit.String() + "~1" // the state just before the revert
		if rc, _, err := e.Session.ReadCommit(res.Commit); err == nil {
			before = short(rc.Parent.String())
		}
		undoAgain := "undo"
		if what == "undo" {
			undoAgain = "redo"
		}
		fmt.Fprintf(w, "Get them back with `git edit %s --session %s %s` (the whole file as it was), or see them with `git diff %s %s -- %s`.\n",
			undoAgain, e.Session.Name, path, tshort, before, path)
	}
}

func short(id string) string { return id[:7] }
