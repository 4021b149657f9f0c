package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// historySessionFlag is --session for the commands that read or revert a
// session's history. Unlike call's, it has no default: without it (and
// without GIT_EDIT_SESSION) the command works on the most recently updated
// session (see pickSession).
func historySessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, DefaultText: "the most recently updated session",
		Usage: "session `NAME` (refs/edits/NAME); it must exist"}
}

// errNoSession: the session named does not exist, or there is none.
var errNoSession = errors.New("no such session")

// pickSession returns the name of the session a history command works on:
// the one --session or GIT_EDIT_SESSION names, which must exist; else the
// session whose last commit is the newest (on a tie, the name last in
// order), which it names on stderr unless quiet or it is the only session
// and named default. A session that does not
// exist is refused with errNoSession, listing those that do.
func pickSession(c *cli.Context, r *session.Repository, stderr io.Writer, quiet bool) (string, error) {
	named := ""
	if c.IsSet("session") {
		named = c.String("session") // an empty GIT_EDIT_SESSION counts as unset
	}
	if named != "" {
		if err := session.ValidateName(named); err != nil {
			return "", err
		}
		// A named session is looked up alone: listing every session would
		// make each command cost the number of sessions.
		if ok, err := session.Exists(r, named); err != nil {
			return "", refused(err)
		} else if ok {
			return named, nil
		}
	}
	// The tips and their times are all the choice needs: no history index.
	sums, err := session.Recent(r)
	if err != nil {
		return "", refused(err)
	}
	var pick *session.Summary
	for i, s := range sums {
		if named != "" && s.Name == named {
			return named, nil
		}
		if s.Broken == nil && !s.Tip.IsZero() && (pick == nil || !s.Last.Before(pick.Last)) {
			pick = &sums[i]
		}
	}
	if named != "" || pick == nil {
		return "", refused(noSession(named, sums, time.Now()))
	}
	// The only session, named default, is what the person expects: no note.
	if !quiet && (len(sums) > 1 || pick.Name != "default") {
		if len(sums) == 1 {
			fmt.Fprintf(stderr, "session %s, the only one\n", pick.Name)
		} else {
			fmt.Fprintf(stderr, "session %s, the most recent of %d; --session NAME to choose another\n", pick.Name, len(sums))
		}
	}
	return pick.Name, nil
}

// noSession says that the session named (or, named "", any session) does
// not exist, and lists those that do with their last time.
func noSession(named string, sums []session.Summary, now time.Time) error {
	what := fmt.Sprintf("no session %q in this repository", named)
	if named == "" {
		what = "no session in this repository has a commit"
	}
	if len(sums) == 0 {
		return fmt.Errorf("%w: %s; sessions are made by `git edit call` and `git edit mcp`, which record each edit on refs/edits/<session>", errNoSession, what)
	}
	var list []string
	for _, s := range sums {
		switch {
		case s.Broken != nil:
			list = append(list, s.Name+" (broken)")
		case s.Tip.IsZero():
			list = append(list, s.Name)
		default:
			list = append(list, fmt.Sprintf("%s (last %s)", s.Name, age(s.Last, now)))
		}
	}
	return fmt.Errorf("%w: %s; the sessions are: %s. Choose one with --session NAME", errNoSession, what, strings.Join(list, ", "))
}

// How openHistory picks the session.
type pickMode int

const (
	pickSay   pickMode = iota // pick, saying which on stderr when not named
	pickQuiet                 // pick, silently (the output names it)
	// pickNamed: a named session need not exist here (undo PATH of a
	// file in a submodule finds the session in the submodule's repository).
	pickNamed
	pickNone // any session will do (log --all)
)

// openHistory opens the repository and the session a history command
// works on (see pickSession).
func openHistory(c *cli.Context, mode pickMode) (*ops.Engine, error) {
	name := "default"
	switch {
	case mode == pickNone:
	case mode == pickNamed && c.String("session") != "":
		name = c.String("session")
	default:
		r, err := session.OpenRepository(c.String("root"))
		if err != nil {
			return nil, refused(err)
		}
		if name, err = pickSession(c, r, c.App.ErrWriter, mode == pickQuiet); err != nil {
			return nil, err
		}
	}
	opts := ops.Options{Root: c.String("root"), Session: name}
	if c.IsSet("undo-depth") {
		d := c.Int("undo-depth")
		opts.UndoDepth = &d
	}
	e, err := ops.Open(opts)
	if err != nil {
		if errors.Is(err, session.ErrBadName) {
			return nil, err
		}
		return nil, refused(err)
	}
	return e, nil
}
