package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
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
	// State is "edits" (a session with history), "read-only" (it only
	// read files: read records, no ref) or "broken".
	State string `json:"state"`
	// Fetched is set for another person's session that `git edit fetch`
	// brought (read-only here), named <remote>/<owner>/<session>.
	Fetched bool `json:"fetched,omitempty"`
	// Reads counts a read-only session's read records.
	Reads int `json:"reads,omitempty"`
	// Shared lists the paths on which this session's changes and another
	// session's are both in effect, each with every such session.
	Shared []sharedJSON `json:"shared,omitempty"`
}

// sharedJSON is a path two or more sessions' changes are in effect on.
type sharedJSON struct {
	Path     string   `json:"path"`
	Sessions []string `json:"sessions"`
}

// summaryJSON is a session's summary as `sessions --json` prints it.
func summaryJSON(sum session.Summary) sessionSummary {
	out := sessionSummary{Session: sum.Name, Ref: sum.Ref, Paths: sum.Paths, State: "edits", Fetched: session.IsFetched(sum.Name)}
	switch {
	case sum.Broken != nil:
		out.Broken, out.State = sum.Broken.Error(), "broken"
		return out
	case sum.ReadOnly:
		out.State, out.Reads, out.Last = "read-only", sum.Reads, sum.Last.Format(time.RFC3339)
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
		Usage:        "list every session: with edits (commit and edit counts, paths, base commit, last time), read-only (files read, last read) or broken; then the sessions `git edit fetch` brought from others, named REMOTE/OWNER/SESSION",
		Flags:        []cli.Flag{clikit.RootFlag(), &cli.BoolFlag{Name: "json", Usage: "print a JSON array"}},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			r, err := session.OpenRepository(c.String("root"))
			if err != nil {
				return clikit.Refused(err)
			}
			sums, err := session.List(r)
			if err != nil {
				return clikit.Refused(err)
			}
			stuck, err := session.StuckLocks(r)
			if err != nil {
				return clikit.Refused(err)
			}
			for _, l := range stuck {
				fmt.Fprintln(c.App.ErrWriter, "warning:", l)
			}
			shared, err := session.Shared(r, sums)
			if err != nil {
				return clikit.Refused(err)
			}
			// Then the sessions fetched from others, by their names
			// <remote>/<owner>/<session>.
			fetched, err := session.Fetched(r)
			if err != nil {
				return clikit.Refused(err)
			}
			for _, s := range fetched {
				sum, err := s.Summarize()
				if err != nil {
					return clikit.Refused(err)
				}
				sums = append(sums, sum)
			}
			return printSessions(c.App.Writer, sums, shared, c.Bool("json"), time.Now())
		},
	}
}

// printSessions lists the sessions; a broken one is listed with what is
// wrong and the command that removes it (exit status 0: the listing itself
// worked). Then, one line each, the paths on which two or more sessions'
// changes are in effect (see session.Shared).
func printSessions(w io.Writer, sums []session.Summary, shared []session.SharedPath, asJSON bool, now time.Time) error {
	if asJSON {
		out := make([]sessionSummary, len(sums))
		for i, sum := range sums {
			out[i] = summaryJSON(sum)
			for _, sp := range shared {
				if slices.Contains(sp.Sessions, sum.Name) {
					out[i].Shared = append(out[i].Shared, sharedJSON{Path: sp.Path, Sessions: sp.Sessions})
				}
			}
		}
		return writeJSON(w, out)
	}
	p := newPainter(w)
	// Names padded to one width, so that the columns line up; the
	// padding goes outside the colour codes.
	width := 0
	for _, s := range sums {
		width = max(width, len(s.Name))
	}
	for _, s := range sums {
		name := p.yellow(s.Name) + strings.Repeat(" ", width-len(s.Name))
		switch {
		case s.Broken != nil:
			fmt.Fprintf(w, "%s  %s %s\n", name, p.red("BROKEN:"), s.Broken)
		case s.ReadOnly:
			fmt.Fprintf(w, "%s  read-only: %s read, no edits  last %s\n", name, plural(s.Reads, "file"), age(s.Last, now))
		case s.Tip.IsZero():
			// The ref names a commit git-edit did not write (set by hand
			// or by another tool): it has no session commits to count.
			fmt.Fprintf(w, "%s  no git-edit commits: %s names a commit git-edit did not write; remove it with `%s`\n", name, s.Ref, session.Hint(s.Name, "prune"))
		default:
			base := "(unborn)"
			if !s.Base.IsZero() {
				base = s.Base.String()[:7]
			}
			fmt.Fprintf(w, "%s  %s (%s)  %s  base %s  last %s\n",
				name, plural(s.Commits, "commit"), plural(s.Edits, "edit"), plural(len(s.Paths), "path"), base, age(s.Last, now))
		}
	}
	for _, sp := range shared {
		fmt.Fprintf(w, "shared: %s (%s)\n", ops.QuotePath(sp.Path), strings.Join(sp.Sessions, ", "))
	}
	return nil
}
