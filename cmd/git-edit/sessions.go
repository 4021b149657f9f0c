package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo"
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
}

func summarize(r *repo.Repo, s *repo.Session) (sessionSummary, time.Time, error) {
	sum := sessionSummary{Session: s.Name, Ref: s.Ref(), Paths: []string{}}
	tip, err := r.ReadRef(s.Ref())
	if err != nil {
		return sum, time.Time{}, err
	}
	all, err := undo.Log(s, tip, 0, nil)
	if err != nil || len(all) == 0 {
		return sum, time.Time{}, err
	}
	sum.Tip, sum.Commits = tip.String(), len(all)
	seen := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Meta.Op == repo.OpEdit {
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

func runSessions(w io.Writer, r *repo.Repo, asJSON bool, now time.Time) error {
	sessions, err := engine.AllSessions(r)
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
		Name:         "prune",
		Usage:        "delete session refs whose last commit is older than DURATION (such as 72h, 14d or 2w)",
		Flags:        []cli.Flag{rootFlag(), &cli.StringFlag{Name: "older-than", Required: true, Usage: "`DURATION`: Go's units (h, m, s) plus d and w"}},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			d, err := parseDuration(c.String("older-than"))
			if err != nil {
				return err
			}
			e, err := engine.Open(engine.Options{Root: c.String("root"), Session: "default"})
			if err != nil {
				return refused(err)
			}
			return runPrune(c, e.Repo, d, time.Now())
		},
	}
}

func runPrune(c *cli.Context, r *repo.Repo, olderThan time.Duration, now time.Time) error {
	unlock, err := r.Lock(c.Context)
	if err != nil {
		return refused(err)
	}
	defer unlock()
	sessions, err := engine.AllSessions(r)
	if err != nil {
		return refused(err)
	}
	pruned := 0
	for _, s := range sessions {
		sum, last, err := summarize(r, s)
		if err != nil {
			return refused(err)
		}
		if sum.Tip == "" || now.Sub(last) <= olderThan {
			continue
		}
		tip, err := r.ReadRef(s.Ref())
		if err != nil {
			return refused(err)
		}
		if err := r.DeleteRef(s.Ref(), tip); err != nil {
			return refused(err)
		}
		if err := s.RemoveState(); err != nil {
			return refused(err)
		}
		pruned++
		fmt.Fprintf(c.App.Writer, "pruned %s (%d commits, last %s, was at %s)\n", s.Ref(), sum.Commits, age(last, now), tip.String()[:7])
	}
	if pruned == 0 {
		fmt.Fprintf(c.App.Writer, "no session is older than %s\n", c.String("older-than"))
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
