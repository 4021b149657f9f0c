package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "where the same lines changed since, put the file back whole as it was before the edit (what changed since is recorded first and stays in history)"}
}

func undoCommand(redo bool) *cli.Command {
	name, usage := "undo", "take back an edit's own change, keeping later changes (EDIT, the last edit of PATH still in effect, or the session's newest)"
	if redo {
		name, usage = "redo", "re-apply what an undo took back, keeping later changes (UNDO, the last undo of PATH, or the session's newest)"
	}
	flags := []cli.Flag{clikit.RootFlag(), historySessionFlag(), forceFlag(), dryRunFlag(name)}
	if !redo {
		flags = append(flags, &cli.IntFlag{Name: "undo-depth", Usage: "how many edits of one file undo reaches back (0: unlimited); overrides git config edit.undoDepth", DefaultText: undoDepthDefault},
			&cli.StringFlag{Name: "turn", Usage: "take back every edit of turn `T` still in effect, in one undo commit"})
	}
	return &cli.Command{
		Name:         name,
		Usage:        usage,
		ArgsUsage:    "[EDIT | PATH]",
		Flags:        flags,
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("%s takes at most one EDIT or PATH, got %d", name, c.NArg())
			}
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			defer e.Close()
			arg := c.Args().First()
			if err := emptyFlag(c, "turn", "T", "undo the newest edit"); err != nil {
				return err
			}
			req := ops.HistoryRequest{Op: name, Turn: c.String("turn"), Force: c.Bool("force"), DryRun: c.Bool("dry-run")}
			if req.Turn != "" && arg != "" {
				return fmt.Errorf("undo takes EDIT, PATH or --turn T, not both %q and --turn %s", arg, req.Turn)
			}
			isEdit, err := namesEdit(e, name, arg)
			if err != nil {
				return clikit.Refused(err)
			}
			if isEdit {
				req.Edit = arg
			} else {
				req.Path = arg
			}
			res, err := e.History(c.Context, req)
			if err != nil {
				return clikit.Refused(explainRevert(name, err))
			}
			if err := reportRevert(c.App.Writer, name, res); err != nil {
				return err
			}
			if !res.DryRun {
				reportBeyond(c.App.Writer, e, name, res)
			}
			return nil
		},
	}
}

func rollbackCommand() *cli.Command {
	return &cli.Command{
		Name:  "rollback",
		Usage: "return every path the session touched to its state before the session (or right after EDIT, at CHECKPOINT, or right after TURN's last edit)",
		Flags: []cli.Flag{clikit.RootFlag(), historySessionFlag(), dryRunFlag("rollback"),
			&cli.BoolFlag{Name: "force", Usage: "discard the person's work too: files changed on disk (recorded first as a sync commit), changes made outside git-edit during the session, and changes committed to HEAD since the session started; all stay in history"},
			&cli.StringFlag{Name: "to", Usage: "roll back to the state right after `EDIT` (a commit id from git edit log), at a checkpoint (its name), or right after a turn's last edit (its id); turn:T and checkpoint:NAME say which"}},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("rollback takes no arguments; use --to EDIT|CHECKPOINT|TURN to stop there")
			}
			if err := emptyFlag(c, "to", "EDIT|CHECKPOINT|TURN", "roll back to the start of the session"); err != nil {
				return err
			}
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			defer e.Close()
			res, err := e.History(c.Context, ops.HistoryRequest{Op: ops.HistRollback, To: c.String("to"), Force: c.Bool("force"), DryRun: c.Bool("dry-run")})
			if err != nil {
				return clikit.Refused(explainRevert("rollback", err))
			}
			if err := reportRevert(c.App.Writer, "rollback", res); err != nil {
				return err
			}
			return reportRollback(c.App.Writer, e.Session.Name, res)
		},
	}
}

// emptyFlag refuses a flag given with an empty value: "" would otherwise
// read as the flag left out (undo the newest edit, roll back to the
// start), which is not what was asked.
// without says what leaving the flag out does.
func emptyFlag(c *cli.Context, flag, value, without string) error {
	if c.IsSet(flag) && c.String(flag) == "" {
		return fmt.Errorf("--%s is empty; nothing was changed. Give --%s %s, or leave it out to %s", flag, flag, value, without)
	}
	return nil
}

// namesEdit reports whether undo's or redo's argument names a commit of
// the session (as `show` reads it: an id prefix, SESSION~N, tip~N) rather
// than a path. A name that is both is refused: the person says which.
func namesEdit(e *ops.Engine, what, arg string) (bool, error) {
	if arg == "" {
		return false, nil
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.Dir, p)
	}
	_, lerr := os.Lstat(p)
	resolved := "" // the commit's short id, when this session has it
	if tip, err := e.Session.Tip(); err == nil && !tip.IsZero() {
		if c, err := e.ResolveEdit(tip, arg); err == nil {
			resolved = c.Hash.String()[:7]
		}
	}
	if resolved == "" {
		// Not this session's: another session's id is named as its,
		// with the command that acts on it, not read as a path that
		// has nothing left to undo.
		if lerr != nil {
			if owner, oc := e.OtherSessionsEdit(arg); owner != "" {
				return false, fmt.Errorf("%w: commit %s is session %s's, not session %s's; nothing was changed. To %s it, run `%s`",
					ops.ErrOtherSessionsEdit, oc.Hash.String()[:7], owner, e.Session.Name, what, session.Hint(owner, what, arg))
			}
		}
		return false, nil
	}
	if lerr == nil {
		return false, fmt.Errorf("%q names both a file and commit %s of session %q; nothing was changed. Write ./%s for the file, or the commit's full id for the edit",
			arg, resolved, e.Session.Name, arg)
	}
	return true, nil
}

// reportRollback says, after a rollback's own report, what else it removed
// and how to get it all back: for --to, the session's later commits it
// reverses (the person's and other sessions' work it discarded is listed
// by reportRevert); then the undo that takes the rollback back and where
// each file's previous bytes stay.
func reportRollback(w io.Writer, name string, res ops.Reverted) error {
	if res.Commit.IsZero() {
		return nil
	}
	id := short(res.Commit.String())
	if !res.Target.Commit.IsZero() && len(res.Later) > 0 {
		fmt.Fprintf(w, "The rollback reversed the session's %s after %s:\n", plural(len(res.Later), "commit"), short(res.Target.Commit.String()))
		const most = 10
		for i, c := range res.Later {
			if i == most {
				fmt.Fprintf(w, "  … and %d more (`%s`)\n", len(res.Later)-most, session.Hint(name, "log"))
				break
			}
			fmt.Fprintf(w, "  %s %s\n", c.Short(), clikit.Printable(c.Subject))
		}
	}
	see := ""
	for _, pc := range res.Changes() {
		if pc.How == "changed" || pc.How == "removed" {
			see = fmt.Sprintf(", or see a file as it was with `git show %s^:%s`", id, ops.QuotePath(pc.Path))
			break
		}
	}
	_, err := fmt.Fprintf(w, "Get it all back with `%s` (it undoes this rollback, %s)%s.\n", session.Hint(name, "undo"), id, see)
	return err
}

// dryRunFlag is --dry-run of undo, redo and rollback.
func dryRunFlag(what string) cli.Flag {
	return &cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print what the " + what + " would do and the diff it would apply; write and record nothing"}
}

// reportRevert says what an undo, redo or rollback did, path by path (see
// ops.Reverted.Report); a dry run adds the diff it would apply.
func reportRevert(w io.Writer, what string, res ops.Reverted) error {
	if _, err := io.WriteString(w, res.Report(what, 7)); err != nil {
		return err
	}
	if res.DryRun {
		_, err := io.WriteString(w, res.Diff())
		return err
	}
	return nil
}

// explainRevert words a refusal for the command line: a file changed on
// disk gets its difference and the way forward.
func explainRevert(what string, err error) error {
	var outside *session.OutsideChangeError
	if errors.As(err, &outside) {
		diff := ops.Unified(outside.Disk.Path, outside.Recorded, outside.Disk)
		return fmt.Errorf("%s was changed outside git-edit since the session last recorded it, and %s would overwrite that; nothing was changed. Run it again with --force to record the change first (a sync commit keeps it in history) and %s anyway. The change on disk:\n%s",
			outside.Disk.Path, what, what, strings.TrimRight(diff, "\n"))
	}
	return err
}

// reportBeyond says, for each path a forced undo or redo put back whole
// (it conflicted), what it removed besides the target's own change, whose
// that was, and how to get it back: changes made after the target go too
// (issue 15: an undo that silently removed two other sessions' edits and a
// line written by hand). A selective undo keeps them, so it says nothing.
// The revert is done; a question it cannot answer is left out, not an
// error.
func reportBeyond(w io.Writer, e *ops.Engine, what string, res ops.Reverted) {
	if res.Commit.IsZero() {
		return
	}
	tc, _, err := e.Session.ReadCommit(res.Target.Commit)
	if err != nil {
		return
	}
	for _, path := range res.Whole {
		b, err := e.WhatElse(res, path)
		if err != nil || !b.Removed() {
			continue
		}
		added, removed := ops.LineStat(b.Later, b.Now)
		tshort := short(res.Target.Commit.String())
		fmt.Fprintf(w, "%s conflicted and went back whole (--force) to its state before %s, so the %s also removed what changed it since (+%d -%d):\n", ops.QuotePath(path), tshort, what, added, removed)
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
		fmt.Fprintf(w, "Get them back with `%s` (the whole file as it was), or see them with `git diff %s %s -- %s`.\n",
			session.Hint(e.Session.Name, undoAgain, path), tshort, before, ops.QuotePath(path))
	}
}

func short(id string) string { return id[:7] }
