package ops

import (
	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops/companion"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// The commands (cmd) reach only this layer and the session layer below it;
// what they need of the history questions (undo) and of diffview is named
// here, so that they never reach past the layer below them.

// ResolveEdit finds the commit of e's session that name refers to, as
// `show` reads it: a commit id of at least 4 hex digits, "tip" or the
// session's name, optionally followed by ~N (undo.Resolve, whose errors it
// returns: undo.ErrUnknownEdit and the session's read errors).
func (e *Engine) ResolveEdit(tip plumbing.Hash, name string) (undo.Commit, error) {
	return undo.Resolve(e.Session, tip, name)
}

// WhatElse says what the revert res (a forced undo or redo) removed of
// path besides its target's own change: whose it was and how to bring it
// back (undo.WhatElse, whose errors it returns).
func (e *Engine) WhatElse(res Reverted, path string) (undo.Beyond, error) {
	return undo.WhatElse(e.Session, e.Repo, res.Commit, res.Target, path)
}

// LineStat counts the lines a change of old to new adds and removes, as
// `git diff --numstat` does (diffview.Stat, with its bounds).
func LineStat(old, new []byte) (added, removed int) { return diffview.Stat(old, new) }

// QuotePath is path as git writes it in a diff header, a diffstat or a
// list of names: C-quoted when it holds a control byte, '"' or '\\'
// (diffview.QuotePath).
func QuotePath(path string) string { return diffview.QuotePath(path) }

// Hunk is one hunk of a net change, as ReviewHunks gives it
// (diffview.Hunk).
type Hunk = diffview.Hunk

// SplitHunk splits h into smaller hunks where unchanged lines separate
// its changes, as `git add -p` splits one (diffview.Split); a hunk that
// cannot be split is returned alone.
func SplitHunk(h Hunk) []Hunk { return diffview.Split(h) }

// The companion programs the commands run in their place (see
// ops/companion).
const CompanionMCP = companion.MCP

// FindCompanion is where the companion program name is (companion.Find):
// in $GIT_EDIT_EXEC_PATH, else beside the running program, else on PATH;
// a *companion.MissingError names it and says how to install it.
func FindCompanion(name string) (string, error) { return companion.Find(name) }
