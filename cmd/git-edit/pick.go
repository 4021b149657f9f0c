package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// historySessionFlag is --session for the commands that read or revert a
// session's history. A session named must exist; without one the command
// works on the session the rule picks (see chooseSession).
func historySessionFlag() cli.Flag {
	return &cli.StringFlag{Name: "session", EnvVars: []string{"GIT_EDIT_SESSION"}, DefaultText: sessionDefault,
		Usage: "session `NAME` (refs/edits/NAME); it must exist"}
}

// sessionDefault is what every command that works on one session does
// without --session, as its help says.
const sessionDefault = "$GIT_EDIT_SESSION, else the session last written in this worktree, else default"

// errNoSession: the session named does not exist, or there is none.
var errNoSession = errors.New("no such session")

// namedSession is --session, else $GIT_EDIT_SESSION; "" when neither names
// one (an empty value counts as unset, as an exported-but-empty variable
// usually means "no preference").
func namedSession(c *cli.Context) string {
	if c.IsSet("session") {
		return c.String("session")
	}
	return ""
}

// chooseSession is the one rule for which session a command means, the
// same for commands that write and commands that read: --session NAME,
// else $GIT_EDIT_SESSION, else this worktree's current session (the one
// that last wrote here; see session.Choose), else default. It names the
// session on stderr, with why, when neither the command line nor the
// environment named it, unless quiet or it is default and the only
// session. A reader (write false) refuses a session that does not exist
// with errNoSession, listing those that do; a writer makes it.
func chooseSession(c *cli.Context, r *session.Repository, stderr io.Writer, quiet, write bool) (string, error) {
	if named := namedSession(c); named != "" {
		if write {
			if err := session.ValidateName(named); err != nil {
				if errors.Is(err, session.ErrFetched) {
					return "", clikit.Refused(err)
				}
				return "", err
			}
			return named, nil
		}
		if err := session.ValidateReadName(named); err != nil {
			return "", err
		}
		// A named session is looked up alone: listing every session would
		// make each command cost the number of sessions.
		if ok, err := session.Exists(r, named); err != nil {
			return "", clikit.Refused(err)
		} else if ok {
			return named, nil
		}
		sums, err := session.Recent(r)
		if err != nil {
			return "", clikit.Refused(err)
		}
		return "", clikit.Refused(noSession(named, sums, time.Now()))
	}
	ch, err := session.Choose(r)
	if err != nil {
		return "", clikit.Refused(err)
	}
	if !ch.Exists && !write {
		sums, err := session.Recent(r)
		if err != nil {
			return "", clikit.Refused(err)
		}
		return "", clikit.Refused(noSession("", sums, time.Now()))
	}
	if quiet {
		return ch.Name, nil
	}
	refs, err := r.ListRefs(session.RefName(""))
	if err != nil {
		return "", clikit.Refused(err)
	}
	if ch.Name == "default" && (len(refs) == 0 || len(refs) == 1 && refs[0].Name == session.RefName("default")) {
		return ch.Name, nil // the only session, named default: what the person expects
	}
	why := ch.Why
	if !ch.Exists {
		why = "new: no session has written in this worktree"
	}
	fmt.Fprintf(stderr, "session %s, %s; --session NAME to choose another\n", ch.Name, why)
	return ch.Name, nil
}

// writerSession is the session a writing command (call, record,
// checkpoint) works on, by chooseSession's rule; an error choosing it is
// returned (refused), never turned into default. A repository it cannot
// open is the command's own error to report, in its own form: then it
// returns default, and the command opening the repository says why.
func writerSession(c *cli.Context) (string, error) {
	if named := namedSession(c); named != "" {
		return named, nil
	}
	r, err := session.OpenRepository(c.String("root"))
	if err != nil {
		return "default", nil
	}
	// An error choosing (a ref that cannot be read) is refused: writing
	// to default instead would put the edit where no reader looks.
	return chooseSession(c, r, c.App.ErrWriter, false, true)
}

// noSession says that the session named (or, named "", any session) does
// not exist, and lists those that do with their last time.
func noSession(named string, sums []session.Summary, now time.Time) error {
	what := fmt.Sprintf("no session %q in this repository", named)
	if named == "" && len(sums) == 0 {
		what = "no session in this repository has a commit"
	} else if named == "" {
		what = "no session has written in this worktree"
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
// works on (see chooseSession).
func openHistory(c *cli.Context, mode pickMode) (*ops.Engine, error) {
	name := "default"
	switch {
	case mode == pickNone:
	case mode == pickNamed && namedSession(c) != "":
		name = namedSession(c)
	default:
		r, err := session.OpenRepository(c.String("root"))
		if err != nil {
			return nil, clikit.Refused(err)
		}
		if name, err = chooseSession(c, r, c.App.ErrWriter, mode == pickQuiet, false); err != nil {
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
		return nil, clikit.Refused(err)
	}
	return e, nil
}
