package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// Recorded is what Record did.
type Recorded struct {
	session.Recorded
	// Skipped are changed paths Record left out, and why: anything but a
	// regular file (a symlink, a FIFO...), a file over edit.maxFileSize, an
	// unreadable one, a path whose directory is now a symlink.
	Skipped []Skipped
}

// RecordScope says what a Record may take as its command's change (see
// check).
type RecordScope struct {
	// All takes every change as the command's (record --all).
	All bool
	// Named: the command that ran is named (-m, or a hook's input), and
	// the person says the changes are its.
	Named bool
}

// ErrNotTheCommands refuses a record that would take changes as one
// command's work when nothing says they are: see RecordScope.check.
var ErrNotTheCommands = errors.New("which changes are the command's is not known")

// check is the rule for what a record takes as its command's change.
// Another session's edit on disk is never the command's: the session
// records it first as a sync commit naming that session. The rest is the
// command's when that is unambiguous: the person named the paths
// (explicit), or a `record --before` of this session is pending (the hook
// flow: everything changed since is the command's that ran after it), or
// --all, or the command is named (-m, --hook-input), or there is one path
// only. Otherwise (a bare `git edit record` with two or more changed
// paths: the person's own unrecorded work may be among them) it refuses,
// naming each path and whose it would be, and what to run instead.
func (sc RecordScope) check(e *Engine, explicit bool) func(session.RecordPlan) error {
	if sc.All || sc.Named || explicit {
		return nil
	}
	return func(plan session.RecordPlan) error {
		if plan.BeforePending || len(plan.Changed) < 2 {
			return nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "record would take %d changed paths as one command's change, and nothing says they are (no `record --before` ran before the command, and no PATH or -m was given); your own unrecorded changes may be among them:\n", len(plan.Changed))
		for _, p := range plan.Changed {
			fmt.Fprintf(&b, "  %s: changed on disk by no git-edit session (yours, or a command's)\n", QuotePath(p))
		}
		var others []string
		for p := range plan.Others {
			others = append(others, p)
		}
		slices.Sort(others)
		for _, p := range others {
			fmt.Fprintf(&b, "  %s: the edit of session %s (recorded as its, in a sync commit, never as the command's)\n", QuotePath(p), plan.Others[p])
		}
		name := e.Session.Name
		// "PATH…" is a placeholder: appended as it is, not quoted.
		fmt.Fprintf(&b, "Record only the command's files with `%s`, or every path as the command's change with `%s`; "+
			"next time run `%s` before the command, so that the record after it holds only what the command changed",
			session.Hint(name, "record")+" PATH…", session.Hint(name, "record", "--all"), session.Hint(name, "record", "--before"))
		return fmt.Errorf("%w: %s", ErrNotTheCommands, b.String())
	}
}

// Skipped is a changed path that Record did not record.
type Skipped struct {
	Path   string
	Reason error
}

// Record records, as one `record` commit of the session, every change on
// disk that the session has not recorded: files modified, created
// (untracked and not ignored) or deleted since the session's record of
// them (its tip, or HEAD), in the whole root or under args (files or
// directories, relative to the engine's directory). A second Record with
// nothing new records nothing (Commit zero). op is session.OpRecord, or
// session.OpSync to record the changes as the person's (see
// session.Session.Record).
//
// Its cost follows what changed, not the repository: `git status` says
// which paths differ from the index and HEAD (repo.StatusPaths), and the
// paths the session recorded differently from HEAD are added (a shell
// command may have put one back to HEAD's bytes, which git status does not
// show). Only those are read and compared, as session.Apply compares them.
func (e *Engine) Record(ctx context.Context, args []string, op, subject, body string, scope RecordScope) (res Recorded, err error) {
	// Within the engine's Timeout, as every operation.
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	defer func() { err = e.timedOut("record", err) }()
	specs, err := e.recordSpecs(args)
	if err != nil {
		return Recorded{}, err
	}
	changed, err := e.Repo.StatusPaths(ctx, specs)
	if err != nil {
		return Recorded{}, err
	}
	differs, err := e.recordedAwayFromHead()
	if err != nil {
		return Recorded{}, err
	}
	seen := map[string]bool{}
	var rels []string
	for _, p := range append(changed, differs...) {
		if !seen[p] && underAny(p, specs) {
			seen[p] = true
			rels = append(rels, p)
		}
	}
	var paths []repo.Path
	recordTree := plumbing.ZeroHash // read by noFileEither when needed
	for _, rel := range rels {
		p, err := e.Repo.ResolveRecorded(e.Repo.Top, rel)
		if err == nil && p.Rel != rel {
			err = fmt.Errorf("%w: a directory on the way to %s is now a symlink", repo.ErrPathRefused, rel)
		}
		if err == nil {
			err = e.unrecordable(p)
		}
		if err != nil && e.noFileEither(p, &recordTree) {
			continue // a directory where the session records no file: nothing to record
		}
		if err != nil {
			res.Skipped = append(res.Skipped, Skipped{Path: rel, Reason: err})
			continue
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 && op == session.OpSync {
		// Nothing to record before the command: still, the record after
		// it means the command (see session.RecordPlan.BeforePending).
		return res, e.Session.MarkBefore(ctx)
	}
	// A path that cannot be read as a file is refused by the session with
	// a *session.PathError: leave it out, say why, record the rest.
	for len(paths) > 0 {
		res.Recorded, err = e.Session.RecordChecked(ctx, paths, op, subject, body, scope.check(e, len(args) > 0))
		pe, ok := errors.AsType[*session.PathError](err)
		if !ok {
			break
		}
		kept := paths[:0]
		for _, p := range paths {
			if p.Rel != pe.Path {
				kept = append(kept, p)
			}
		}
		if len(kept) == len(paths) {
			break // not one of ours: return the error
		}
		paths = kept
		reason := pe.Err
		if tc, ok := errors.AsType[*repo.TreeConflictError](reason); ok {
			// The commit would have deleted tc.Other without saying so
			// (see repo.EditTree): say how to record both.
			// The commands name the path and the session, so that they
			// record it as printed, from any state (see RecordScope).
			cmd := session.Hint(e.Session.Name, "record", tc.Other)
			reason = fmt.Errorf("%w; to record it, move %s aside and run `%s` (its removal is recorded), then put it back and run `%s` again", reason, tc.Other, cmd, cmd)
		}
		res.Skipped = append(res.Skipped, Skipped{Path: pe.Path, Reason: reason})
		err = nil // left out: with none left, nothing is recorded, and that is no error
	}
	return res, err
}

// unrecordable says why the session would refuse to read p as a file (a
// symlink, a FIFO, a directory where a file was), found before the lock
// by a stat: each refusal the session finds would cost Record a whole pass
// again (lock, read and compare every path), and a shell command can
// leave many such paths. A regular file (or none) passes; what changes
// after the stat the session still refuses, and the loop in Record leaves
// out.
func (e *Engine) unrecordable(p repo.Path) error {
	fi, err := os.Lstat(p.Abs)
	if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular() {
		return nil
	}
	// Anything else, a file in place of a directory on the way included
	// (ENOTDIR), is for the session's reader to word.
	// The session's own reader words the refusal (it reads no bytes of
	// what is not a regular file).
	_, err = repo.ReadWorkFile(p, e.Session.MaxFileSize)
	return err
}

// noFileEither reports whether p can hold no file on disk (a directory is
// there, or a file where one of its directories would be) and the session
// records no file there either: then there is nothing to record, and
// nothing to warn about, though git status lists the path until HEAD
// agrees (a file of HEAD the session recorded as removed, whose place a
// directory took). *tree caches the tree of the session's record (its
// tip, else HEAD); an error reads as "not known", and the path is warned
// about as before.
func (e *Engine) noFileEither(p repo.Path, tree *plumbing.Hash) bool {
	fi, err := os.Lstat(p.Abs)
	if !(err == nil && fi.IsDir() || repo.IsNotDirError(err)) {
		return false
	}
	if tree.IsZero() {
		c, err := e.Session.Tip()
		if err == nil && c.IsZero() {
			c, err = e.Repo.ReadRef("HEAD")
		}
		if err != nil || c.IsZero() {
			return false
		}
		if *tree, err = e.Repo.TreeOf(c); err != nil {
			return false
		}
	}
	entry, err := e.Repo.EntryAt(*tree, p.Rel)
	return err == nil && !entry.Exists()
}

// recordSpecs turns Record's arguments into paths relative to the worktree
// top, confined to the root as every path argument is; none (or the top
// itself) means the whole root: "" when the root is the worktree's top.
func (e *Engine) recordSpecs(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{e.Root}
	}
	var specs []string
	for _, arg := range args {
		// "dir/" names the directory, as in git.
		if trimmed := strings.TrimRight(arg, "/"); trimmed != "" {
			arg = trimmed
		}
		p, err := e.Repo.ResolveRecordedFrom(e.Root, e.Dir, arg)
		if err != nil {
			if errors.Is(err, repo.ErrIsDirectory) && !errors.As(err, new(*repo.NestedRepoError)) {
				return nil, nil // the worktree's top: everything
			}
			return nil, err
		}
		specs = append(specs, p.Rel)
	}
	return specs, nil
}

// underAny reports whether path is one of specs or under one (no specs:
// everything).
func underAny(path string, specs []string) bool {
	if len(specs) == 0 {
		return true
	}
	for _, s := range specs {
		if path == s || strings.HasPrefix(path, s+"/") {
			return true
		}
	}
	return false
}

// recordedAwayFromHead lists the paths the session touched whose entry in
// its tip differs from HEAD's: a change on disk that puts one back to
// HEAD's bytes leaves it clean to `git status`, yet it differs from the
// session's record.
func (e *Engine) recordedAwayFromHead() ([]string, error) {
	tip, err := e.Session.Tip()
	if err != nil || tip.IsZero() {
		return nil, err
	}
	touched, _, err := e.Session.Touched(tip)
	if err != nil {
		return nil, err
	}
	head, err := e.Repo.ReadRef("HEAD")
	if err != nil {
		return nil, err
	}
	tipTree, err := e.Repo.TreeOf(tip)
	if err != nil {
		return nil, err
	}
	headTree, err := e.Repo.TreeOf(head)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range touched {
		a, err := e.Repo.EntryAt(tipTree, p)
		if err != nil {
			return nil, err
		}
		b, err := e.Repo.EntryAt(headTree, p)
		if err != nil {
			return nil, err
		}
		if a != b {
			out = append(out, p)
		}
	}
	return out, nil
}
