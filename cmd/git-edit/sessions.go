package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/git-edit/git-edit/session"
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

// summaryJSON is a session's summary as `sessions --json` prints it.
func summaryJSON(sum session.Summary) sessionSummary {
	out := sessionSummary{Session: sum.Name, Ref: sum.Ref, Paths: sum.Paths}
	if sum.Broken != nil {
		out.Broken = sum.Broken.Error()
		return out
	}
	if sum.Tip.IsZero() {
		return out
	}
	out.Tip, out.Commits, out.Edits = sum.Tip.String(), sum.Commits, sum.Edits
	if !sum.Base.IsZero() {
		out.Base = sum.Base.String()
	}
	out.Last = sum.Last.Format(time.RFC3339)
	return out
}

func sessionsCommand() *cli.Command {
	return &cli.Command{
		Name:         "sessions",
		Usage:        "list every session with its edits, paths, base commit and last time",
		Flags:        []cli.Flag{rootFlag(), &cli.BoolFlag{Name: "json", Usage: "print a JSON array"}},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			r, err := session.OpenRepository(c.String("root"))
			if err != nil {
				return refused(err)
			}
			sums, err := session.List(r)
			if err != nil {
				return refused(err)
			}
			return printSessions(c.App.Writer, sums, c.Bool("json"), time.Now())
		},
	}
}

// printSessions lists the sessions; a broken one is listed with what is
// wrong and the command that removes it (exit status 0: the listing itself
// worked).
func printSessions(w io.Writer, sums []session.Summary, asJSON bool, now time.Time) error {
	if asJSON {
		out := make([]sessionSummary, len(sums))
		for i, sum := range sums {
			out[i] = summaryJSON(sum)
		}
		return writeJSON(w, out)
	}
	p := newPainter(w)
	for _, s := range sums {
		if s.Broken != nil {
			fmt.Fprintf(w, "%s  %s %s\n", p.yellow(s.Name), p.red("BROKEN:"), s.Broken)
			continue
		}
		base := "(unborn)"
		if !s.Base.IsZero() {
			base = s.Base.String()[:7]
		}
		fmt.Fprintf(w, "%s  %s (%s)  %s  base %s  last %s\n",
			p.yellow(s.Name), plural(s.Commits, "commit"), plural(s.Edits, "edit"), plural(len(s.Paths), "path"), base, age(s.Last, now))
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
			opts := session.PruneOptions{Now: time.Now(), Sessions: c.StringSlice("session")}
			olderThan := ""
			if c.IsSet("older-than") {
				d, err := parseDuration(c.String("older-than"))
				if err != nil {
					return err
				}
				opts.ByAge, opts.OlderThan, olderThan = true, d, c.String("older-than")
			}
			if olderThan == "" && len(opts.Sessions) == 0 {
				return fmt.Errorf("prune needs --older-than DURATION (such as 14d) or --session NAME; see git-edit prune --help")
			}
			for _, name := range opts.Sessions {
				if err := session.ValidateName(name); err != nil {
					return err
				}
			}
			r, err := session.OpenRepository(c.String("root"))
			if err != nil {
				return refused(err)
			}
			res, err := session.Prune(c.Context, r, opts)
			if err != nil {
				return refused(err)
			}
			reportPrune(c.App.Writer, res, olderThan, opts.Now)
			return nil
		},
	}
}

// reportPrune says what prune deleted and which broken sessions it kept;
// olderThan is --older-than as given ("" when not given).
func reportPrune(w io.Writer, res session.PruneResult, olderThan string, now time.Time) {
	for _, p := range res.Pruned {
		was := p.Was.String()[:7]
		switch {
		case p.Broken != nil:
			fmt.Fprintf(w, "pruned %s (broken: it named %s, which was missing)\n", p.Ref, was)
		case p.Tip.IsZero():
			fmt.Fprintf(w, "pruned %s (no session commits, was at %s)\n", p.Ref, was)
		default:
			fmt.Fprintf(w, "pruned %s (%s, last %s, was at %s)\n", p.Ref, plural(p.Commits, "commit"), age(p.Last, now), was)
		}
	}
	for _, k := range res.Kept {
		fmt.Fprintf(w, "kept %s: %s\n", k.Ref, k.Broken)
	}
	if len(res.Pruned) == 0 && olderThan != "" {
		fmt.Fprintf(w, "no session is older than %s\n", olderThan)
	}
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
