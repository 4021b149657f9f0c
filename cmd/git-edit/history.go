package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

func logCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "list a session's commits, newest first",
		ArgsUsage: "[PATH...]",
		Flags: append([]cli.Flag{clikit.RootFlag(), historySessionFlag(),
			&cli.BoolFlag{Name: "all", Usage: "every session, merged by time"},
			&cli.IntFlag{Name: "n", Usage: "show at most `N` commits (0: all)"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array"},
		}, reviewFlags()...),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			ro, err := reviewOptionsOf(c)
			if err != nil {
				return err
			}
			mode := pickSay
			if c.Bool("json") {
				mode = pickQuiet // each entry names its session
			}
			if c.Bool("all") {
				mode = pickNone
			}
			e, err := openHistory(c, mode)
			if err != nil {
				return err
			}
			defer e.Close()
			o := logOptions{All: c.Bool("all"), N: c.Int("n"), Paths: c.Args().Slice(), JSON: c.Bool("json")}
			return withReview(c, e, ro, func(rv *review) error { return runLog(rv, e, o, time.Now()) })
		},
	}
}

// withReview runs print with the output set up as startReview decides, then
// waits for the pager. JSON goes to stdout as it is: a program reads it.
func withReview(c *cli.Context, e *ops.Engine, o reviewOptions, print func(*review) error) error {
	if c.Bool("json") {
		o.NoPager, o.Color = true, "never"
	}
	rv, err := startReview(o, e.Repo, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return clikit.Refused(err)
	}
	rv.opts = o
	return rv.finish(print(rv))
}

type logOptions struct {
	All   bool
	N     int
	Paths []string
	JSON  bool
}

// runLog prints one line per commit in aligned columns: short id, session
// (with --all), age, op, tool (a checkpoint's name), lines added and
// removed, paths, and what an undo or redo reverts; with --stat or
// --name-only, each commit's paths under its line, as git log --oneline
// prints them. Consecutive commits of one turn are grouped under a line
// "turn T (N edits)", indented by two spaces; a commit between them (a
// sync, an undo) ends the group, so the log stays in time order.
func runLog(rv *review, e *ops.Engine, o logOptions, now time.Time) error {
	w := rv.w
	entries, err := e.Log(o.N, o.Paths, o.All)
	if err != nil {
		return clikit.Refused(err)
	}
	if o.JSON {
		if entries == nil {
			entries = []ops.LogEntry{}
		}
		return writeJSON(w, entries)
	}
	rows := make([][5]string, len(entries))
	var widths [5]int
	for i, en := range entries {
		session := ""
		if o.All {
			session = "[" + en.Session + "]"
		}
		tool := en.Tool
		if en.Op == "checkpoint" {
			tool = en.Checkpoint
		}
		rows[i] = [5]string{session, age(en.Time.Time, now), en.Op, tool, fmt.Sprintf("+%d -%d", en.Added, en.Removed)}
		for j, cell := range rows[i] {
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}
	p := rv.paint
	pad := func(j int, s string) string {
		return s + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(s)) + "  "
	}
	sameTurn := func(i, j int) bool {
		return j >= 0 && j < len(entries) && entries[i].Turn != "" && entries[i].Turn == entries[j].Turn && entries[i].Session == entries[j].Session
	}
	for i, en := range entries {
		r := rows[i]
		var b strings.Builder
		if en.Turn != "" {
			if !sameTurn(i, i-1) {
				n := 1
				for sameTurn(i, i+n) {
					n++
				}
				edits := "edits"
				if n == 1 {
					edits = "edit"
				}
				fmt.Fprintf(w, "turn %s (%d %s)\n", en.Turn, n, edits)
			}
			b.WriteString("  ")
		}
		b.WriteString(p.yellow(en.Commit[:7]) + "  ")
		if o.All {
			b.WriteString(pad(0, r[0]))
		}
		b.WriteString(pad(1, r[1]) + pad(2, r[2]))
		if widths[3] > 0 {
			b.WriteString(pad(3, r[3]))
		}
		counts := p.green(fmt.Sprintf("+%d", en.Added)) + " " + p.red(fmt.Sprintf("-%d", en.Removed))
		b.WriteString(counts + strings.Repeat(" ", widths[4]-len(r[4])) + "  " + quotePaths(en.Paths))
		if en.Undoes != "" {
			b.WriteString("  (reverts " + en.Undoes[:7] + ")")
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " ")) // a checkpoint has no paths
		switch {
		case rv.opts.Stat:
			writeStat(w, p, rv.width, en.Stats)
		case rv.opts.NameOnly:
			for _, path := range en.Paths {
				fmt.Fprintln(w, ops.QuotePath(path))
			}
		}
	}
	return nil
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one session commit: its message and its diff",
		ArgsUsage: "EDIT (a commit id of any session, or SESSION~N)",
		Flags: append([]cli.Flag{clikit.RootFlag(), historySessionFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print a JSON object"}}, reviewFlags()...),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("show takes one EDIT (a commit id from git edit log), got %d arguments", c.NArg())
			}
			ro, err := reviewOptionsOf(c)
			if err != nil {
				return err
			}
			// The output names the session; a commit id is found in any.
			e, err := openHistory(c, pickQuiet)
			if err != nil {
				return err
			}
			defer e.Close()
			return withReview(c, e, ro, func(rv *review) error { return runShow(rv, e, c.Args().First(), c.Bool("json")) })
		},
	}
}

// runShow prints one commit as git show does: a commit id is found in
// whatever session holds it.
func runShow(rv *review, e *ops.Engine, name string, asJSON bool) error {
	w := rv.w
	entry, err := e.Show(name, false)
	if err != nil {
		return clikit.Refused(err)
	}
	if asJSON {
		return writeJSON(w, entry)
	}
	pt := rv.paint
	fmt.Fprintf(w, "%s\nSession: %s\nDate:   %s\n\n", pt.yellow("commit "+entry.Commit), entry.Session, entry.Time.Format("Mon Jan 2 15:04:05 2006 -0700"))
	for _, line := range strings.Split(strings.TrimRight(entry.Message, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", clikit.Printable(line))
	}
	return writeChanges(rv, entry.Changes, "\n", ops.FileDiff.Unified)
}

// writeChanges writes changes as the patch (each path's as diff renders
// it), or with --stat or --name-only as those; sep goes first when there
// is anything to write.
func writeChanges(rv *review, changes []ops.FileDiff, sep string, diff func(ops.FileDiff) string) error {
	if len(changes) == 0 {
		return nil
	}
	w := rv.w
	switch {
	case rv.opts.Stat:
		stats := make([]ops.PathStat, len(changes))
		for i, c := range changes {
			stats[i] = c.Stat()
		}
		fmt.Fprint(w, sep)
		writeStat(w, rv.paint, rv.width, stats)
	case rv.opts.NameOnly:
		fmt.Fprint(w, sep)
		for _, c := range changes {
			fmt.Fprintln(w, ops.QuotePath(c.Path))
		}
	default:
		var patch strings.Builder
		for _, c := range changes {
			patch.WriteString(diff(c))
		}
		if patch.Len() == 0 {
			return nil
		}
		fmt.Fprint(w, sep)
		_, err := io.WriteString(w, paintDiff(rv.paint, patch.String()))
		return err
	}
	return nil
}

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:         "diff",
		Usage:        "print the session's net change: each path from before the session touched it to the session's tip",
		ArgsUsage:    "[PATH...]",
		Flags:        append([]cli.Flag{clikit.RootFlag(), historySessionFlag()}, reviewFlags()...),
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			ro, err := reviewOptionsOf(c)
			if err != nil {
				return err
			}
			e, err := openHistory(c, pickSay)
			if err != nil {
				return err
			}
			defer e.Close()
			return withReview(c, e, ro, func(rv *review) error { return runDiff(rv, e, c.Args().Slice()) })
		},
	}
}

func runDiff(rv *review, e *ops.Engine, paths []string) error {
	changes, err := e.NetChanges(paths)
	if err != nil {
		return clikit.Refused(err)
	}
	// The hunks are numbered: `git edit reject --hunk N` takes the numbers.
	return writeChanges(rv, changes, "", ops.FileDiff.Numbered)
}
