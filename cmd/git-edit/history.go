package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/undo"
	"github.com/urfave/cli/v2"
)

// logEntry is one commit as `log --json` and `show --json` print it.
type logEntry struct {
	Commit     string   `json:"commit"`
	Session    string   `json:"session"`
	Op         string   `json:"op"`
	Tool       string   `json:"tool,omitempty"`
	Paths      []string `json:"paths"`
	Time       string   `json:"time"`
	Undoes     string   `json:"undoes,omitempty"`
	RollbackTo string   `json:"rollback_to,omitempty"`
	Subject    string   `json:"subject"`
	Added      int      `json:"added"`
	Removed    int      `json:"removed"`
	Message    string   `json:"message,omitempty"`
	Diff       string   `json:"diff,omitempty"`
}

func logCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "list a session's commits, newest first",
		ArgsUsage: "[PATH...]",
		Flags: []cli.Flag{rootFlag(), sessionFlag(),
			&cli.BoolFlag{Name: "all", Usage: "every session, merged by time"},
			&cli.IntFlag{Name: "n", Usage: "show at most `N` commits (0: all)"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array"},
		},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			return runLog(c.App.Writer, e, logOptions{All: c.Bool("all"), N: c.Int("n"), Paths: c.Args().Slice(), JSON: c.Bool("json")}, time.Now())
		},
	}
}

type logOptions struct {
	All   bool
	N     int
	Paths []string
	JSON  bool
}

func runLog(w io.Writer, e *engine.Engine, o logOptions, now time.Time) error {
	var rels []string
	for _, p := range o.Paths {
		path, err := e.Repo.Resolve(e.Root, p)
		if err != nil {
			return refused(err)
		}
		rels = append(rels, path.Rel)
	}
	sessions := []*repo.Session{e.Session}
	if o.All {
		var err error
		if sessions, err = allSessions(e.Repo); err != nil {
			return refused(err)
		}
	}
	var entries []logEntry
	for _, s := range sessions {
		tip, err := e.Repo.ReadRef(s.Ref())
		if err != nil {
			return refused(err)
		}
		commits, err := undo.Log(s, tip, o.N, rels)
		if err != nil {
			return refused(err)
		}
		for _, c := range commits {
			entry, err := describe(s, c)
			if err != nil {
				return refused(err)
			}
			entries = append(entries, entry)
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Time > entries[j].Time })
	if o.N > 0 && len(entries) > o.N {
		entries = entries[:o.N]
	}
	if o.JSON {
		if entries == nil {
			entries = []logEntry{}
		}
		return writeJSON(w, entries)
	}
	p := newPainter(w)
	for _, en := range entries {
		t, _ := time.Parse(time.RFC3339, en.Time)
		what := en.Op
		if en.Tool != "" {
			what += "  " + en.Tool
		}
		session := ""
		if o.All {
			session = "[" + en.Session + "]  "
		}
		reverts := ""
		if en.Undoes != "" {
			reverts = "  (reverts " + en.Undoes[:7] + ")"
		}
		fmt.Fprintf(w, "%s  %s%s  %s  %s  %s %s%s\n", p.yellow(en.Commit[:7]), session, p.dim(age(t, now)), what,
			strings.Join(en.Paths, ", "), p.green(fmt.Sprintf("+%d", en.Added)), p.red(fmt.Sprintf("-%d", en.Removed)), reverts)
	}
	return nil
}

// describe turns a commit into a log entry, counting the lines it added
// and removed in each path.
func describe(s *repo.Session, c undo.Commit) (logEntry, error) {
	en := logEntry{Commit: c.Hash.String(), Session: s.Name, Op: c.Meta.Op, Tool: c.Meta.Tool, Paths: c.Meta.Paths,
		Time: c.Time.Format(time.RFC3339), Subject: c.Subject, RollbackTo: c.Meta.RollbackTo}
	if !c.Meta.Undoes.IsZero() {
		en.Undoes = c.Meta.Undoes.String()
	}
	for _, p := range c.Meta.Paths {
		before, after, err := around(s.Repo, c, p)
		if err != nil {
			return en, err
		}
		a, r := diffview.Stat(before.Content, after.Content)
		en.Added, en.Removed = en.Added+a, en.Removed+r
	}
	return en, nil
}

// around is path before and after commit c.
func around(r *repo.Repo, c undo.Commit, path string) (before, after repo.FileState, err error) {
	if before, err = r.FileAt(c.Parent, path); err != nil {
		return
	}
	after, err = r.FileAt(c.Hash, path)
	return
}

// unified renders a change of one path as a diff with git's headers.
func unified(path string, before, after repo.FileState) string {
	oldName, newName := path, path
	if !before.Exists {
		oldName = ""
	}
	if !after.Exists {
		newName = ""
	}
	return diffview.Unified(oldName, newName, before.Content, after.Content, 3)
}

func allSessions(r *repo.Repo) ([]*repo.Session, error) {
	refs, err := r.ListRefs("refs/edits/")
	if err != nil {
		return nil, err
	}
	var out []*repo.Session
	for _, ref := range refs {
		s, err := repo.NewSession(r, strings.TrimPrefix(ref.Name, "refs/edits/"))
		if err != nil {
			continue // a ref git-edit would not have written
		}
		out = append(out, s)
	}
	return out, nil
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:         "show",
		Usage:        "print one session commit: its message and its diff",
		ArgsUsage:    "EDIT (a commit id, or SESSION~N)",
		Flags:        []cli.Flag{rootFlag(), sessionFlag(), &cli.BoolFlag{Name: "json", Usage: "print a JSON object"}},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("show takes one EDIT (a commit id from git edit log), got %d arguments", c.NArg())
			}
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			return runShow(c.App.Writer, e, c.Args().First(), c.IsSet("session"), c.Bool("json"))
		},
	}
}

// runShow finds EDIT in the session (or, unless the session was named, in
// any session) and prints it as git show does.
func runShow(w io.Writer, e *engine.Engine, name string, onlySession, asJSON bool) error {
	sessions := []*repo.Session{e.Session}
	if !onlySession {
		all, err := allSessions(e.Repo)
		if err != nil {
			return refused(err)
		}
		sessions = append(sessions, all...)
	}
	var found *repo.Session
	var commit undo.Commit
	var firstErr error
	for _, s := range sessions {
		tip, err := e.Repo.ReadRef(s.Ref())
		if err != nil || tip.IsZero() {
			continue
		}
		c, err := undo.Resolve(s, tip, name)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if found != nil && found.Name != s.Name && c.Hash != commit.Hash {
			return refused(fmt.Errorf("%w %q: it names commits in sessions %q and %q; pass --session", undo.ErrUnknownEdit, name, found.Name, s.Name))
		}
		found, commit = s, c
	}
	if found == nil {
		if firstErr == nil {
			firstErr = fmt.Errorf("%w %q: there are no sessions in this repository", undo.ErrUnknownEdit, name)
		}
		return refused(firstErr)
	}
	entry, err := describe(found, commit)
	if err != nil {
		return refused(err)
	}
	full, err := e.Repo.ReadCommit(commit.Hash)
	if err != nil {
		return refused(err)
	}
	entry.Message = full.Message
	var diff strings.Builder
	for _, p := range commit.Meta.Paths {
		before, after, err := around(e.Repo, commit, p)
		if err != nil {
			return refused(err)
		}
		diff.WriteString(unified(p, before, after))
	}
	entry.Diff = diff.String()
	if asJSON {
		return writeJSON(w, entry)
	}
	pt := newPainter(w)
	fmt.Fprintf(w, "%s\nSession: %s\nDate:   %s\n\n", pt.yellow("commit "+entry.Commit), found.Name, full.Committer.When.Format("Mon Jan 2 15:04:05 2006 -0700"))
	for _, line := range strings.Split(strings.TrimRight(full.Message, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	if entry.Diff != "" {
		fmt.Fprintf(w, "\n%s", entry.Diff)
	}
	return nil
}

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:         "diff",
		Usage:        "print the session's net change: each path from before the session touched it to the session's tip",
		ArgsUsage:    "[PATH...]",
		Flags:        []cli.Flag{rootFlag(), sessionFlag()},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			e, err := openEngine(c)
			if err != nil {
				return err
			}
			return runDiff(c.App.Writer, e, c.Args().Slice())
		},
	}
}

func runDiff(w io.Writer, e *engine.Engine, args []string) error {
	only := map[string]bool{}
	for _, a := range args {
		p, err := e.Repo.Resolve(e.Root, a)
		if err != nil {
			return refused(err)
		}
		only[p.Rel] = true
	}
	tip, err := e.Repo.ReadRef(e.Session.Ref())
	if err != nil {
		return refused(err)
	}
	paths, first, err := undo.Touched(e.Session, tip)
	if err != nil {
		return refused(err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if len(only) > 0 && !only[p] {
			continue
		}
		before, err := undo.BeforeSession(e.Session, first[p], p)
		if err != nil {
			return refused(err)
		}
		after, err := e.Repo.FileAt(tip, p)
		if err != nil {
			return refused(err)
		}
		if _, err := io.WriteString(w, unified(p, before, after)); err != nil {
			return err
		}
	}
	return nil
}
