package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// openEngine opens the repository and session undo, redo or rollback works
// on (see openHistory). Not being in a repository, or naming a session
// that does not exist, is a refusal; a bad session name is misuse.
func openEngine(c *cli.Context) (*ops.Engine, error) {
	if c.NArg() > 0 && c.Command.Name != "rollback" {
		return openHistory(c, pickNamed)
	}
	return openHistory(c, pickSay)
}

// painter colours output as git does: only on a terminal, never when
// NO_COLOR is set.
type painter struct{ on bool }

func newPainter(w io.Writer) painter {
	if os.Getenv("NO_COLOR") != "" {
		return painter{}
	}
	f, ok := w.(*os.File)
	if !ok {
		return painter{}
	}
	fi, err := f.Stat()
	return painter{on: err == nil && fi.Mode()&os.ModeCharDevice != 0}
}

func (p painter) paint(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[m"
}

func (p painter) yellow(s string) string { return p.paint("33", s) }
func (p painter) green(s string) string  { return p.paint("32", s) }
func (p painter) red(s string) string    { return p.paint("31", s) }
func (p painter) dim(s string) string    { return p.paint("2", s) }

// age says how long ago t was, in git's relative-date words.
func age(t, now time.Time) string {
	d := now.Sub(t)
	plural := func(n int64, unit string) string {
		if n == 1 {
			return "1 " + unit + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, unit)
	}
	switch {
	case d < 0:
		return "in the future"
	case d < 90*time.Second:
		return plural(int64(d/time.Second), "second")
	case d < 90*time.Minute:
		return plural(int64((d+30*time.Second)/time.Minute), "minute")
	case d < 36*time.Hour:
		return plural(int64((d+30*time.Minute)/time.Hour), "hour")
	case d < 14*24*time.Hour:
		return plural(int64((d+12*time.Hour)/(24*time.Hour)), "day")
	case d < 10*7*24*time.Hour:
		return plural(int64((d+84*time.Hour)/(7*24*time.Hour)), "week")
	case d < 365*24*time.Hour:
		return plural(int64((d+15*24*time.Hour)/(30*24*time.Hour)), "month")
	}
	return plural(int64(d/(365*24*time.Hour)), "year")
}

// writeJSON prints v as indented JSON with code left readable.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// quotePaths joins paths with ", ", each quoted as git quotes a path.
func quotePaths(paths []string) string {
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = ops.QuotePath(p)
	}
	return strings.Join(quoted, ", ")
}
