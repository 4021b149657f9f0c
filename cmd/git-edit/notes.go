package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

func notesCommand() *cli.Command {
	return &cli.Command{
		Name:  "notes",
		Usage: "write the Git AI Standard v3.0.0 authorship note (refs/notes/ai) of a commit or of each commit of a range, from git-edit's attribution",
		Description: "For each commit (default HEAD; A..B: each commit of the range) the note says, per file, which of the lines the commit added\n" +
			"each agent session wrote (the lines `git edit blame --stat` counts as the agents'), keyed s_<session>::t_<edit>, with the\n" +
			"sessions' agent and model in its JSON metadata. Attribution comes from the content and the session refs, so the notes of\n" +
			"commits a squash or a rebase made are rebuilt as right as the originals. It writes, with git notes, to refs/notes/ai only\n" +
			"(replacing git-edit's own earlier note; another tool's note is kept unless --force): the one git-edit command that writes\n" +
			"outside refs/edits/. --dry-run prints the notes instead.",
		ArgsUsage: "[REV|A..B]",
		Flags: []cli.Flag{clikit.RootFlag(),
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print each commit's note (after a line \"commit <id>\") and write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "replace a note another tool wrote in refs/notes/ai (kept otherwise)"},
		},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("notes takes one REV or range A..B, not %d arguments", c.NArg())
			}
			e, err := openHistory(c, pickNone)
			if err != nil {
				return err
			}
			defer e.Close()
			return runNotes(c, e, c.Args().First(), c.Bool("dry-run"), c.Bool("force"), c.App.Writer)
		},
	}
}

// runNotes builds the notes and prints them (dry run) or writes them,
// saying per commit, as it goes, what it wrote: a failure part-way leaves
// the lines of the notes written before it.
func runNotes(c *cli.Context, e *ops.Engine, spec string, dry, force bool, w io.Writer) error {
	notes, err := e.Notes(c.Context, spec)
	if err != nil {
		return blameRefusal(err)
	}
	for _, n := range notes {
		for _, p := range n.Skipped {
			fmt.Fprintf(c.App.ErrWriter, "warning: %s: %s left out of the note: the Git AI standard cannot write a path holding a newline, or whitespace and a quote; rename it to attest it\n", n.Commit[:12], ops.QuotePath(p))
		}
	}
	if dry {
		for _, n := range notes {
			if _, err := fmt.Fprintf(w, "commit %s\n%s", n.Commit, n.Note); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range notes {
		action, err := e.WriteNote(c.Context, n, force)
		if err != nil {
			if errors.Is(err, ops.ErrUnknownRev) {
				return clikit.Refused(err)
			}
			return err
		}
		counts := fmt.Sprintf("%d of %d added lines by agents", n.Agent, n.Added)
		switch action {
		case ops.NoteAdded, ops.NoteReplaced:
			fmt.Fprintf(w, "%s: note written to refs/notes/ai (%s)\n", n.Commit[:12], counts)
		case ops.NoteUnchanged:
			fmt.Fprintf(w, "%s: note in refs/notes/ai already up to date (%s)\n", n.Commit[:12], counts)
		case ops.NoteKept:
			fmt.Fprintf(c.App.ErrWriter, "warning: %s: refs/notes/ai holds another tool's note for this commit; kept it, nothing written. See it with `git notes --ref=ai show %s`; replace it with git-edit's with `git edit notes --force %s`\n", n.Commit[:12], n.Commit[:12], n.Commit[:12])
		}
	}
	return nil
}
