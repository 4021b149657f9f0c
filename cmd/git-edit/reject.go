package main

import (
	"fmt"
	"io"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// rejectCommand is `git edit reject PATH --hunk N...`: the non-interactive
// form of `git edit review`, for scripts and agents.
func rejectCommand() *cli.Command {
	return &cli.Command{
		Name:      "reject",
		Usage:     "take hunks of the session's net change back out of PATH (numbered as git edit diff prints them), as one reject commit that undo takes back",
		ArgsUsage: "PATH --hunk N [--hunk M...]",
		Flags: []cli.Flag{clikit.RootFlag(), historySessionFlag(), dryRunFlag("reject"),
			&cli.IntSliceFlag{Name: "hunk", Usage: "reject hunk `N` of PATH (as `git edit diff PATH` numbers it); repeat for more"}},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("reject takes one PATH, got %d arguments; give the hunks with --hunk N (see them numbered with git edit diff PATH)", c.NArg())
			}
			hunks := c.IntSlice("hunk")
			if len(hunks) == 0 {
				return fmt.Errorf("reject needs --hunk N: the hunk of %s to reject, as `git edit diff %s` numbers it", c.Args().First(), c.Args().First())
			}
			e, err := openHistory(c, pickNamed)
			if err != nil {
				return err
			}
			defer e.Close()
			res, err := e.Reject(c.Context, []ops.HunkPick{{Path: c.Args().First(), Hunks: hunks}}, c.Bool("dry-run"))
			if err != nil {
				return clikit.Refused(explainRevert("reject", err))
			}
			return reportReject(c.App.Writer, res)
		},
	}
}

// reportReject says what a reject did, hunk by hunk, and the diff it
// applied (or, dry, would apply).
func reportReject(w io.Writer, res ops.Rejection) error {
	if _, err := io.WriteString(w, res.Report(7)); err != nil {
		return err
	}
	_, err := io.WriteString(w, res.Diff())
	return err
}
