package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/urfave/cli/v2"
)

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
			defer e.Close()
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
	entries, err := e.Log(o.N, o.Paths, o.All)
	if err != nil {
		return refused(err)
	}
	if o.JSON {
		if entries == nil {
			entries = []engine.LogEntry{}
		}
		return writeJSON(w, entries)
	}
	p := newPainter(w)
	for _, en := range entries {
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
		fmt.Fprintf(w, "%s  %s%s  %s  %s  %s %s%s\n", p.yellow(en.Commit[:7]), session, p.dim(age(en.Time.Time, now)), what,
			strings.Join(en.Paths, ", "), p.green(fmt.Sprintf("+%d", en.Added)), p.red(fmt.Sprintf("-%d", en.Removed)), reverts)
	}
	return nil
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
			defer e.Close()
			return runShow(c.App.Writer, e, c.Args().First(), c.IsSet("session"), c.Bool("json"))
		},
	}
}

// runShow prints one commit as git show does.
func runShow(w io.Writer, e *engine.Engine, name string, onlySession, asJSON bool) error {
	entry, err := e.Show(name, onlySession)
	if err != nil {
		return refused(err)
	}
	if asJSON {
		return writeJSON(w, entry)
	}
	pt := newPainter(w)
	fmt.Fprintf(w, "%s\nSession: %s\nDate:   %s\n\n", pt.yellow("commit "+entry.Commit), entry.Session, entry.Time.Format("Mon Jan 2 15:04:05 2006 -0700"))
	for _, line := range strings.Split(strings.TrimRight(entry.Message, "\n"), "\n") {
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
			defer e.Close()
			return runDiff(c.App.Writer, e, c.Args().Slice())
		},
	}
}

func runDiff(w io.Writer, e *engine.Engine, paths []string) error {
	diff, err := e.NetDiff(paths)
	if err != nil {
		return refused(err)
	}
	_, err = io.WriteString(w, diff)
	return err
}
