package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// pushOptions is what `git edit push` was asked to do.
type pushOptions struct {
	Root    string
	Push    ops.PushOptions
	All     bool
	Pick    func(*session.Repository) (string, error) // the session without --session or --all
	Stdout  io.Writer
	Context context.Context
}

func pushCommand() *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "push sessions to the team's git server, as refs/edits/<owner>/<session> (owner: git config edit.owner, else your user.email), in one git push, after checking that nothing it sends is an ignored file or holds a secret",
		ArgsUsage: "[REMOTE]",
		Flags: []cli.Flag{clikit.RootFlag(),
			// Not historySessionFlag: a push names what it sends, never from the environment alone.
			&cli.StringSliceFlag{Name: "session", Usage: "`NAME` of a session to push (repeatable)", DefaultText: sessionDefault},
			&cli.BoolFlag{Name: "all", Usage: "push every session with edits"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "check and print what would be pushed, and push nothing"},
			&cli.StringSliceFlag{Name: "allow", Usage: "`PATH` the worktree ignores to push knowingly (repeatable)"},
			&cli.StringSliceFlag{Name: "allow-secret", Usage: "`FINGERPRINT` of a finding to push knowingly, as the refusal prints it (repeatable)"},
		},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("push takes one REMOTE, got %d arguments; see git-edit push --help", c.NArg())
			}
			if c.Bool("all") && c.IsSet("session") {
				return errors.New("give --session NAME or --all, not both; see git-edit push --help")
			}
			o := pushOptions{Root: c.String("root"), All: c.Bool("all"), Stdout: c.App.Writer, Context: c.Context,
				Push: ops.PushOptions{Remote: c.Args().First(), Sessions: c.StringSlice("session"), DryRun: c.Bool("dry-run"),
					AllowPaths: c.StringSlice("allow"), AllowSecrets: c.StringSlice("allow-secret"), Prompts: stdinIsTerminal()}}
			o.Pick = func(r *session.Repository) (string, error) { return chooseSession(c, r, c.App.ErrWriter, false, false) }
			return runPush(o)
		},
	}
}

// runPush picks the sessions, pushes them and prints, per session, where
// it went and what the push added.
func runPush(o pushOptions) error {
	r, err := session.OpenRepository(o.Root)
	if err != nil {
		return clikit.Refused(err)
	}
	switch {
	case o.All:
		all, err := session.All(r)
		if err != nil {
			return clikit.Refused(err)
		}
		for _, s := range all {
			if tip, err := s.Tip(); err == nil && !tip.IsZero() {
				o.Push.Sessions = append(o.Push.Sessions, s.Name)
			}
		}
		if len(o.Push.Sessions) == 0 {
			return clikit.Refused(errors.New("no session has edits to push; `git edit sessions` lists them"))
		}
	case len(o.Push.Sessions) == 0:
		name, err := o.Pick(r)
		if err != nil {
			return err
		}
		o.Push.Sessions = []string{name}
	}
	res, err := ops.Push(o.Context, r, o.Push)
	if err != nil {
		return clikit.Refused(err)
	}
	verb := "pushed"
	if res.DryRun {
		verb = "would push"
	}
	for _, p := range res.Sessions {
		if p.UpToDate {
			fmt.Fprintf(o.Stdout, "%s: up to date on %s as %s\n", p.Session, res.Remote, p.ServerRef)
			continue
		}
		what := "new"
		if !p.Old.IsZero() {
			what = "from " + p.Old.String()[:12]
		}
		fmt.Fprintf(o.Stdout, "%s %s to %s as %s (%s, %s): %s, %s\n", verb, p.Session, res.Remote, p.ServerRef, what, p.Tip.String()[:12],
			plural(p.Commits, "commit"), byteSize(p.Bytes))
	}
	sent := false
	for _, p := range res.Sessions {
		sent = sent || !p.UpToDate
	}
	if sent && !res.DryRun && !res.Atomic {
		fmt.Fprintf(o.Stdout, "(%s does not offer atomic pushes: each session was pushed on its own)\n", res.Remote)
	}
	if res.DryRun {
		fmt.Fprintln(o.Stdout, "(dry run: nothing was pushed)")
	}
	return nil
}

func fetchCommand() *cli.Command {
	return &cli.Command{
		Name:         "fetch",
		Usage:        "fetch the sessions on a git server into refs/edits-remote/<remote>/<owner>/<session>, read-only: log, show, diff, blame and sessions read them as --session REMOTE/OWNER/SESSION",
		ArgsUsage:    "[REMOTE]",
		Flags:        []cli.Flag{clikit.RootFlag()},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fmt.Errorf("fetch takes one REMOTE, got %d arguments; see git-edit fetch --help", c.NArg())
			}
			r, err := session.OpenRepository(c.String("root"))
			if err != nil {
				return clikit.Refused(err)
			}
			res, err := ops.Fetch(c.Context, r, ops.FetchOptions{Remote: c.Args().First(), Prompts: stdinIsTerminal()})
			if err != nil {
				return clikit.Refused(err)
			}
			w := c.App.Writer
			for _, f := range res.Changed {
				switch {
				case f.Old.IsZero():
					fmt.Fprintf(w, "new session %s (%s)\n", f.Name, f.New.String()[:12])
				case f.New.IsZero():
					fmt.Fprintf(w, "removed %s: it is gone from %s\n", f.Name, res.Remote)
				default:
					fmt.Fprintf(w, "updated %s: %s..%s\n", f.Name, f.Old.String()[:12], f.New.String()[:12])
				}
			}
			fmt.Fprintf(w, "fetched from %s: %d changed, %d unchanged; `git edit sessions` lists them\n", res.Remote, len(res.Changed), res.Kept)
			return nil
		},
	}
}

// stdinIsTerminal reports whether a person can answer git's credential
// prompts: only then may git ask.
func stdinIsTerminal() bool {
	_, ok := terminalWidth(os.Stdin)
	return ok
}

// byteSize is n in B, KiB or MiB.
func byteSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}
