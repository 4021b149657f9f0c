package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// `git edit review`: the session's net change, hunk by hunk, as `git add
// -p` walks a diff (review.go is the colour and pager of log, show and
// diff; this is the interactive walk).

// errNoTerminal: review asks on a terminal, and stdin is not one.
var errNoTerminal = errors.New("standard input is not a terminal")

func reviewHunksCommand() *cli.Command {
	return &cli.Command{
		Name:         "review",
		Usage:        "walk the session's net change hunk by hunk on a terminal, as git add -p does, keeping or rejecting each; the rejected ones are taken back in one reject commit",
		ArgsUsage:    "[PATH...]",
		Flags:        []cli.Flag{clikit.RootFlag(), historySessionFlag()},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			in, ok := c.App.Reader.(*os.File)
			if _, tty := terminalWidth(in); !ok || !tty {
				return clikit.Refused(fmt.Errorf("%w: review asks about each hunk on a terminal; nothing was changed. From a script, reject hunks by number with `git edit reject PATH --hunk N` (the numbers `git edit diff` prints)", errNoTerminal))
			}
			e, err := openHistory(c, pickSay)
			if err != nil {
				return err
			}
			defer e.Close()
			rv, err := startReview(reviewOptions{NoPager: true}, e.Repo, c.App.Writer, c.App.ErrWriter)
			if err != nil {
				return clikit.Refused(err)
			}
			return runReviewHunks(c, rv, e, bufio.NewReader(in), c.Args().Slice())
		},
	}
}

// reviewItem is one hunk (or part of one) to ask about.
type reviewItem struct {
	path   string
	header string // the file's "--- a/…\n+++ b/…" lines
	label  string // "hunk 2", "hunk 2 part 1"
	hunk   ops.Hunk
	reject bool
}

const reviewHelp = `y - keep this hunk
n - reject this hunk (take it back out of the file)
s - split this hunk into smaller hunks
q - quit; the hunks answered so far are kept or rejected, the rest kept
? - print help
`

// runReviewHunks asks about each hunk of the net change (of paths) on w,
// reading answers a line at a time from in, then rejects the hunks
// answered n in one commit (ops.Engine.RejectChosen, refused if the
// session moved meanwhile or a rejected hunk was changed on disk since).
func runReviewHunks(c *cli.Context, rv *review, e *ops.Engine, in *bufio.Reader, paths []string) error {
	w, p := rv.w, rv.paint
	tip, files, err := e.ReviewHunks(paths)
	if err != nil {
		return clikit.Refused(err)
	}
	var items []reviewItem
	for _, f := range files {
		q := ops.QuotePath(f.Path)
		header := fmt.Sprintf("--- a/%s\n+++ b/%s\n", q, q)
		for i, h := range f.Hunks {
			items = append(items, reviewItem{path: f.Path, header: header, label: fmt.Sprintf("hunk %d", i+1), hunk: h})
		}
	}
	if len(items) == 0 {
		fmt.Fprintf(w, "Session %s has no change to review.\n", e.Session.Name)
		return nil
	}
	shownHeader := ""
	for i := 0; i < len(items); i++ {
		it := &items[i]
		if it.path != shownHeader {
			io.WriteString(w, paintDiff(p, it.header))
			shownHeader = it.path
		}
		io.WriteString(w, paintDiff(p, it.hunk.String()))
		parts := ops.SplitHunk(it.hunk)
		choices := "y,n,q,?"
		if len(parts) > 1 {
			choices = "y,n,s,q,?"
		}
	ask:
		fmt.Fprintf(w, "%s", p.paint("1;34", fmt.Sprintf("(%d/%d) Keep this hunk [%s]? ", i+1, len(items), choices)))
		line, err := in.ReadString('\n')
		answer := strings.TrimSpace(line)
		if err != nil && answer == "" {
			fmt.Fprintln(w)
			answer = "q" // end of input: as q
		}
		switch {
		case answer == "y":
		case answer == "n":
			it.reject = true
		case answer == "s" && len(parts) > 1:
			fmt.Fprintf(w, "Split into %d hunks.\n", len(parts))
			split := make([]reviewItem, len(parts))
			for k, part := range parts {
				split[k] = reviewItem{path: it.path, header: it.header, label: fmt.Sprintf("%s part %d", it.label, k+1), hunk: part}
			}
			items = append(items[:i], append(split, items[i+1:]...)...)
			i--
			continue
		case answer == "q":
			i = len(items)
		default:
			if answer == "s" {
				fmt.Fprintln(w, p.red("Sorry, cannot split this hunk"))
			}
			io.WriteString(w, p.red(reviewHelp))
			goto ask
		}
	}
	var chosen []ops.ChosenHunk
	for _, it := range items {
		if it.reject {
			chosen = append(chosen, ops.ChosenHunk{Path: it.path, Label: it.label, Hunk: it.hunk})
		}
	}
	if len(chosen) == 0 {
		fmt.Fprintln(w, "No hunk rejected; nothing was changed.")
		return nil
	}
	res, err := e.RejectChosen(c.Context, tip, chosen, false)
	if err != nil {
		return clikit.Refused(explainRevert("reject", err))
	}
	return reportReject(w, res)
}
