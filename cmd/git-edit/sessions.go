package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/urfave/cli/v2"
)

// sessionSummary is one session as `sessions --json` prints it.
type sessionSummary struct {
	Session string   `json:"session"`
	Ref     string   `json:"ref"`
	Tip     string   `json:"tip"`
	Commits int      `json:"commits"`
	Edits   int      `json:"edits"`
	Paths   []string `json:"paths"`
	Base    string   `json:"base,omitempty"`
	Last    string   `json:"last"`
	// Broken says what is wrong with a session whose history is missing
	// from the repository, and how to remove it; the other fields are empty.
	Broken string `json:"broken,omitempty"`
}

// summarize reads a session's history. A broken session (see
// session.BrokenError) is no error here: its summary says so in
// Broken, so that listing and pruning still work for the others.
func summarize(r *repo.Repo, s *session.Session) (sessionSummary, time.Time, error) {
	sum := sessionSummary{Session: s.Name, Ref: s.Ref(), Paths: []string{}}
	tip, err := s.Tip()
	var all []undo.Commit
	if err == nil {
		all, err = undo.Log(s, tip, 0, nil)
	}
	if errors.Is(err, session.ErrBroken) {
		sum.Broken = err.Error()
		return sum, time.Time{}, nil
	}
	if err != nil || len(all) == 0 {
		return sum, time.Time{}, err
	}
	sum.Tip, sum.Commits = tip.String(), len(all)
	seen := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Meta.Op == session.OpEdit {
			sum.Edits++
		}
		for _, p := range all[i].Meta.Paths {
			if !seen[p] {
				seen[p] = true
				sum.Paths = append(sum.Paths, p)
			}
		}
	}
	if base := all[len(all)-1].Parent; !base.IsZero() {
		sum.Base = base.String()
	}
	last := all[0].Time
	sum.Last = last.Format(time.RFC3339)
	return sum, last, nil
}

func sessionsCommand() *cli.Command {
	return &cli.Command{
		Name:         "sessions",
		Usage:        "list every session with its edits, paths, base commit and last time",
		Flags:        []cli.Flag{rootFlag(), &cli.BoolFlag{Name: "json", Usage: "print a JSON array"}},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			e, err := engine.Open(engine.Options{Root: c.String("root"), Session: "default"})
			if err != nil {
				return refused(err)
			}
			return runSessions(c.App.Writer, e.Repo, c.Bool("json"), time.Now())
		},
	}
}

// runSessions lists every session; a broken one is listed with what is
// wrong and the command that removes it (exit status 0: the listing itself
// worked).
func runSessions(w io.Writer, r *repo.Repo, asJSON bool, now time.Time) error {
	sessions, err := session.All(r)
	if err != nil {
		return refused(err)
	}
	sums := []sessionSummary{}
	var lasts []time.Time
	for _, s := range sessions {
		sum, last, err := summarize(r, s)
		if err != nil {
			return refused(err)
		}
		sums, lasts = append(sums, sum), append(lasts, last)
	}
	if asJSON {
		return writeJSON(w, sums)
	}
	p := newPainter(w)
	for i, s := range sums {
		if s.Broken != "" {
			fmt.Fprintf(w, "%s  %s %s\n", p.yellow(s.Session), p.red("BROKEN:"), s.Broken)
			continue
		}
		base := "(unborn)"
		if s.Base != "" {
			base = s.Base[:7]
		}
		fmt.Fprintf(w, "%s  %d commits (%d edits)  %d paths  base %s  last %s\n",
			p.yellow(s.Session), s.Commits, s.Edits, len(s.Paths), base, age(lasts[i], now))
	}
	return nil
}

func pruneCommand() *cli.Command {
	return &cli.Command{
		Name:  "prune",
		Usage: "delete session refs: those whose last commit is older than DURATION (such as 72h, 14d or 2w), or the sessions named",
		Flags: []cli.Flag{rootFlag(),
			&cli.StringFlag{Name: "older-than", Usage: "`DURATION`: Go's units (h, m, s) plus d and w"},
			// Not sessionFlag: prune must never pick up GIT_EDIT_SESSION.
			&cli.StringSliceFlag{Name: "session", Usage: "`NAME` of a session to delete, whatever its age, even a broken one (repeatable); with --older-than, a healthy one only if older"},
		},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			var opts pruneOptions
			if c.IsSet("older-than") {
				d, err := parseDuration(c.String("older-than"))
				if err != nil {
					return err
				}
				opts.OlderThan, opts.Age = d, c.String("older-than")
			}
			opts.Sessions = c.StringSlice("session")
			if opts.Age == "" && len(opts.Sessions) == 0 {
				return fmt.Errorf("prune needs --older-than DURATION (such as 14d) or --session NAME; see git-edit prune --help")
			}
			for _, name := range opts.Sessions {
				if err := session.ValidateName(name); err != nil {
					return err
				}
			}
			e, err := engine.Open(engine.Options{Root: c.String("root"), Session: "default"})
			if err != nil {
				return refused(err)
			}
			return runPrune(c, e.Repo, opts, time.Now())
		},
	}
}

// pruneOptions selects the sessions prune deletes.
type pruneOptions struct {
	OlderThan time.Duration
	Age       string   // --older-than as given; "" when not given
	Sessions  []string // --session names; none: every session
}

// runPrune deletes the selected session refs in one git transaction: all of
// them or, if any moved or is locked meanwhile, none (the error names it).
// A broken session is deleted only when named, as its age is unknown;
// otherwise it is reported and kept. A named session that does not exist
// is refused before anything is deleted.
func runPrune(c *cli.Context, r *repo.Repo, o pruneOptions, now time.Time) error {
	unlock, err := r.Lock(c.Context)
	if err != nil {
		return refused(err)
	}
	defer unlock()
	sessions, err := session.All(r)
	if err != nil {
		return refused(err)
	}
	if len(o.Sessions) > 0 {
		byName := map[string]*session.Session{}
		for _, s := range sessions {
			byName[s.Name] = s
		}
		sessions = sessions[:0]
		for _, name := range o.Sessions {
			s, ok := byName[name]
			if !ok {
				return refused(fmt.Errorf("no session %q in this repository (nothing was pruned); `git edit sessions` lists them", name))
			}
			sessions = append(sessions, s)
			delete(byName, name) // a name given twice is pruned once
		}
	}
	var (
		doomed []repo.Ref
		report []string
		kept   []string
	)
	for _, s := range sessions {
		sum, last, err := summarize(r, s)
		if err != nil {
			return refused(err)
		}
		tip, err := r.ReadRef(s.Ref())
		if err != nil {
			return refused(err)
		}
		named := len(o.Sessions) > 0
		switch {
		case sum.Broken != "" && !named:
			kept = append(kept, fmt.Sprintf("kept %s: %s", s.Ref(), sum.Broken))
			continue
		case sum.Broken != "":
			report = append(report, fmt.Sprintf("pruned %s (broken: it named %s, which was missing)", s.Ref(), tip.String()[:7]))
		case o.Age != "" && (sum.Tip == "" || now.Sub(last) <= o.OlderThan):
			continue
		case sum.Tip == "":
			report = append(report, fmt.Sprintf("pruned %s (no session commits, was at %s)", s.Ref(), tip.String()[:7]))
		default:
			report = append(report, fmt.Sprintf("pruned %s (%d commits, last %s, was at %s)", s.Ref(), sum.Commits, age(last, now), tip.String()[:7]))
		}
		doomed = append(doomed, repo.Ref{Name: s.Ref(), Hash: tip})
	}
	if err := r.DeleteRefs(doomed); err != nil {
		return refused(err)
	}
	for _, ref := range doomed {
		s, err := session.New(r, strings.TrimPrefix(ref.Name, "refs/edits/"))
		if err == nil {
			err = s.RemoveState()
		}
		if err != nil {
			return refused(fmt.Errorf("%s was pruned, but removing its state failed: %w", ref.Name, err))
		}
	}
	w := c.App.Writer
	for _, line := range append(report, kept...) {
		fmt.Fprintln(w, line)
	}
	if len(doomed) == 0 && o.Age != "" {
		fmt.Fprintf(w, "no session is older than %s\n", o.Age)
	}
	return nil
}

var durationUnit = regexp.MustCompile(`^(\d+)([dw])$`)

// parseDuration reads Go durations ("72h", "90m") and whole days or weeks
// ("14d", "2w").
func parseDuration(s string) (time.Duration, error) {
	if m := durationUnit.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		n, err := strconv.Atoi(m[1])
		if err == nil && n < 100_000 {
			day := 24 * time.Hour
			if m[2] == "w" {
				day *= 7
			}
			return time.Duration(n) * day, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--older-than %q is not a duration; use a number with a unit, such as 72h, 14d or 2w", s)
	}
	return d, nil
}
