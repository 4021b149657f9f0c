package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops"
	"github.com/urfave/cli/v2"
)

// refusedError is a command that was refused: its message goes to stderr
// and the exit status is 1 (the call command prints JSON instead and
// returns the bare errRefused).
type refusedError struct{ err error }

func (r *refusedError) Error() string { return r.err.Error() }
func (r *refusedError) Unwrap() error { return r.err }

func refused(err error) error { return &refusedError{err} }

// isRefusal reports errors that mean "refused" rather than misuse.
func isRefusal(err error) bool {
	var r *refusedError
	return errors.As(err, &r)
}

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

// printable is s with every control character but newline and tab written
// as git writes it in a quoted path (\r, \033...): a message or subject
// may carry a file name an agent made, whose ESC or CR would otherwise
// drive the person's terminal. Bytes that are not UTF-8 and the C1
// controls (U+0080 to U+009F, which some terminals obey as ESC [) are
// written in octal too.
func printable(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r != utf8.RuneError || size > 1) && !unsafeRune(r) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		for _, c := range []byte(s[i : i+size]) {
			switch c {
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			case '\v':
				b.WriteString(`\v`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			default:
				fmt.Fprintf(&b, "\\%03o", c)
			}
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports a control character a terminal may act on: C0 but
// newline and tab, DEL, and C1.
func unsafeRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0
}
