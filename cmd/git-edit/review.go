package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// reviewFlags are the output options of log, show and diff, as git spells
// them.
func reviewFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "color", Usage: "`WHEN` to colour: always, never or auto (on a terminal or in the pager); default from git config color.diff, else color.ui, else auto"},
		&cli.BoolFlag{Name: "no-color", Usage: "never colour (--color=never)"},
		&cli.BoolFlag{Name: "no-pager", Aliases: []string{"P"}, Usage: "print to stdout, never through the pager (GIT_PAGER, core.pager, PAGER, else less), which is used only when stdout is a terminal"},
		&cli.BoolFlag{Name: "stat", Usage: "a diffstat, as git diff --stat, instead of the patch"},
		&cli.BoolFlag{Name: "name-only", Usage: "only the names of the paths changed, instead of the patch"},
	}
}

// reviewOptions are reviewFlags as given.
type reviewOptions struct {
	Color    string // "always", "never", "auto", or "" (git config decides)
	NoPager  bool
	Stat     bool
	NameOnly bool
}

func reviewOptionsOf(c *cli.Context) (reviewOptions, error) {
	o := reviewOptions{Color: c.String("color"), NoPager: c.Bool("no-pager"), Stat: c.Bool("stat"), NameOnly: c.Bool("name-only")}
	if c.Bool("no-color") {
		o.Color = "never"
	}
	if o.Color != "" {
		if _, ok := colorWhen(o.Color); !ok {
			return o, fmt.Errorf("--color=%s: say always, never or auto", o.Color)
		}
	}
	if o.Stat && o.NameOnly {
		return o, errors.New("--stat and --name-only cannot be used together; choose one")
	}
	return o, nil
}

// colorWhen reads a colour setting as git does: always/true/yes/on/1,
// never/false/no/off/0, auto. ok is false for anything else.
func colorWhen(v string) (when string, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "always", "true", "yes", "on", "1":
		return "always", true
	case "never", "false", "no", "off", "0":
		return "never", true
	case "auto":
		return "auto", true
	}
	return "", false
}

// A review is where a history command writes: stdout, or the pager
// reading from a pipe; colour on or off.
type review struct {
	w     io.Writer
	paint painter
	// width is the terminal's width (COLUMNS, else the terminal's, else
	// 80), which --stat fits its lines into as git does.
	width int
	pager *exec.Cmd
	pipe  io.WriteCloser
	opts  reviewOptions
}

// startReview decides colour and pager for output to stdout, as git
// decides them, and starts the pager when there is one: only when stdout
// is a terminal and not --no-pager; the command is GIT_PAGER, else git
// config core.pager, else PAGER, else "less"; empty or "cat" means none.
// It runs through sh with LESS=FRX and LV=-c unless they are set, as git
// sets them. Colour: --color, else color.diff, else color.ui, else auto,
// which colours on a terminal or in the pager (or in git's own pager:
// GIT_PAGER_IN_USE) unless NO_COLOR is set or TERM is dumb.
func startReview(o reviewOptions, r *session.Repository, stdout, stderr io.Writer) (*review, error) {
	rv := &review{w: stdout, width: 80}
	f, isFile := stdout.(*os.File)
	tty := false
	if isFile {
		var cols int
		if cols, tty = terminalWidth(f); tty && cols > 0 { // term_<os>.go
			rv.width = cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		rv.width = n
	}
	when := o.Color
	if when == "" {
		when = "auto"
		for _, key := range []string{"ui", "diff"} { // the later wins
			if v, ok, err := r.ConfigValue("color", key); err == nil && ok {
				w, valid := colorWhen(v)
				if !valid {
					return nil, fmt.Errorf("%w: color.%s = %q; set always, never or auto with `git config color.%s auto`", session.ErrBadConfig, key, v, key)
				}
				when = w
			}
		}
	}
	pager := ""
	if tty && !o.NoPager {
		pager = pagerCommand(r)
	}
	if pager != "" {
		cmd := exec.Command("sh", "-c", pager)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		cmd.Env = os.Environ()
		for _, kv := range [][2]string{{"LESS", "FRX"}, {"LV", "-c"}} {
			if _, set := os.LookupEnv(kv[0]); !set {
				cmd.Env = append(cmd.Env, kv[0]+"="+kv[1])
			}
		}
		pipe, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("start the pager %q: %w; set GIT_PAGER or core.pager to one that runs, or use --no-pager", pager, err)
		}
		rv.pager, rv.pipe, rv.w = cmd, pipe, pipe
	}
	switch when {
	case "always":
		rv.paint.on = true
	case "auto":
		inPager := rv.pager != nil || os.Getenv("GIT_PAGER_IN_USE") == "true"
		rv.paint.on = (tty || inPager) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	}
	return rv, nil
}

// pagerCommand is the pager git would run: GIT_PAGER, core.pager, PAGER,
// else "less"; "" for none ("" or "cat").
func pagerCommand(r *session.Repository) string {
	pager, set := os.LookupEnv("GIT_PAGER")
	if !set {
		if v, ok, err := r.ConfigValue("core", "pager"); err == nil && ok {
			pager, set = v, true
		}
	}
	if !set {
		pager, set = os.LookupEnv("PAGER")
	}
	if !set {
		pager = "less"
	}
	if p := strings.TrimSpace(pager); p == "" || p == "cat" {
		return ""
	}
	return pager
}

// finish closes the pager's input and waits for it. err is the command's
// own error; a pager that quit early (the person pressed q) is no error.
func (rv *review) finish(err error) error {
	if rv.pager == nil {
		return err
	}
	rv.pipe.Close()
	werr := rv.pager.Wait()
	if isBrokenPipe(err) {
		err = nil
	}
	if err == nil && werr != nil {
		var exit *exec.ExitError
		if !errors.As(werr, &exit) {
			return werr
		}
	}
	return err
}

// git's diff colours (color.diff.* defaults).
const (
	colorMeta  = "1"  // bold: the ---/+++ header
	colorFrag  = "36" // cyan: the @@ line
	colorOld   = "31" // red
	colorNew   = "32" // green
	colorWS    = "41" // red background: whitespace errors in added lines
	colorReset = "\x1b[m"
)

// paintDiff colours a unified diff written by diffview exactly as git
// diff --color colours the same lines: header lines bold, the hunk header
// cyan, removed lines red, added lines green with the whitespace errors
// git checks by default (core.whitespace blank-at-eol and space-before-
// tab) on a red background. A line's "\r" before its newline is written
// after the colour is reset, as git does. Not done: blank-at-eof (a blank
// line added at the end of the file is not highlighted).
func paintDiff(p painter, diff string) string {
	if !p.on || diff == "" {
		return diff
	}
	var b strings.Builder
	header := false
	for _, line := range strings.SplitAfter(diff, "\n") {
		if line == "" {
			continue
		}
		body, nl := strings.CutSuffix(line, "\n")
		end := ""
		if nl {
			end = "\n"
		}
		switch {
		case strings.HasPrefix(body, "--- ") && !header:
			header = true
			b.WriteString(p.sgr(colorMeta) + stripCR(body, &end) + colorReset + end)
		case strings.HasPrefix(body, "+++ ") && header:
			header = false
			b.WriteString(p.sgr(colorMeta) + stripCR(body, &end) + colorReset + end)
		case strings.HasPrefix(body, "@@ "):
			frag, rest := body, ""
			if i := strings.Index(body[3:], " @@"); i >= 0 {
				frag, rest = body[:3+i+3], body[3+i+3:]
			}
			b.WriteString(p.sgr(colorFrag) + frag + colorReset)
			if rest != "" {
				b.WriteString(rest + colorReset)
			}
			b.WriteString(end)
		case strings.HasPrefix(body, "-"):
			b.WriteString(p.sgr(colorOld) + stripCR(body, &end) + colorReset + end)
		case strings.HasPrefix(body, "+"):
			b.WriteString(p.sgr(colorNew) + "+" + colorReset)
			wsCheckEmit(&b, p, body[1:])
			b.WriteString(end)
		default: // context, "\ No newline at end of file"
			b.WriteString(stripCR(body, &end) + colorReset + end)
		}
	}
	return b.String()
}

// stripCR returns line without a final "\r", moving it to the front of
// *end, as git writes a line's carriage return after the colour reset.
func stripCR(line string, end *string) string {
	if s, ok := strings.CutSuffix(line, "\r"); ok {
		*end = "\r" + *end
		return s
	}
	return line
}

// wsCheckEmit writes an added line's text (without its newline) as git's
// ws_check_emit does with the default rules: the tabs of the indentation
// uncoloured, a run of spaces before a tab and the trailing whitespace
// (carriage return included) on red, the rest green.
func wsCheckEmit(b *strings.Builder, p painter, line string) {
	trailing := len(line)
	for trailing > 0 && isSpace(line[trailing-1]) {
		trailing--
	}
	written, i := 0, 0
	for ; i < trailing; i++ {
		if line[i] == ' ' {
			continue
		}
		if line[i] != '\t' {
			break
		}
		if written < i { // space before tab
			b.WriteString(p.sgr(colorWS) + line[written:i] + colorReset + "\t")
		} else {
			b.WriteString(line[written : i+1])
		}
		written = i + 1
	}
	if trailing > written {
		b.WriteString(p.sgr(colorNew) + line[written:trailing] + colorReset)
	}
	if trailing < len(line) {
		b.WriteString(p.sgr(colorWS) + line[trailing:] + colorReset)
	}
}

// isSpace is git's isspace (sane-ctype.h): space, tab, newline, carriage
// return.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// sgr is the escape sequence that starts colour code, "" when off.
func (p painter) sgr(code string) string {
	if !p.on {
		return ""
	}
	return "\x1b[" + code + "m"
}

// writeStat writes a diffstat as git diff --stat does for text files
// (diff.c show_stats, with its defaults): one line per path with a change,
// the names padded to the longest (cut to "..." and the rest from a slash
// when too wide), the count right-aligned, a graph of + and - scaled to
// fit width columns, and the summary line.
func writeStat(w io.Writer, p painter, width int, stats []ops.PathStat) {
	maxLen, maxChange := 0, 0
	var shown []ops.PathStat
	names := map[string]string{}
	for _, s := range stats {
		if s.Added+s.Removed == 0 {
			continue
		}
		shown = append(shown, s)
		names[s.Path] = ops.QuotePath(s.Path)
		maxLen = max(maxLen, utf8.RuneCountInString(names[s.Path]))
		maxChange = max(maxChange, s.Added+s.Removed)
	}
	numberWidth := len(strconv.Itoa(maxChange))
	width = max(width, 16+6+numberWidth)
	graphWidth, nameWidth := maxChange, maxLen
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = max(width*3/8-numberWidth-6, 6)
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	adds, dels := 0, 0
	for _, s := range shown {
		name, prefix := names[s.Path], ""
		room := nameWidth
		if n := utf8.RuneCountInString(name); nameWidth < n {
			prefix, room = "...", max(room-3, 0)
			r := []rune(name)
			name = string(r[len(r)-room:])
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[i:]
			}
		}
		padding := max(room-utf8.RuneCountInString(name), 0)
		add, del := s.Added, s.Removed
		adds, dels = adds+add, dels+del
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		fmt.Fprintf(w, " %s%s%*s | %*d ", prefix, name, padding, "", numberWidth, s.Added+s.Removed)
		if add > 0 {
			fmt.Fprint(w, p.sgr(colorNew)+strings.Repeat("+", add)+p.reset())
		}
		if del > 0 {
			fmt.Fprint(w, p.sgr(colorOld)+strings.Repeat("-", del)+p.reset())
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, statSummary(len(shown), adds, dels))
}

// scaleLinear is git's scale_linear: at least one column for any change.
func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

// statSummary is git's print_stat_summary line.
func statSummary(files, ins, dels int) string {
	if files == 0 {
		return " 0 files changed"
	}
	s := " " + plural(files, "file") + " changed"
	if ins > 0 || dels == 0 {
		s += ", " + plural(ins, "insertion") + "(+)"
	}
	if dels > 0 || ins == 0 {
		s += ", " + plural(dels, "deletion") + "(-)"
	}
	return s
}

// plural is "1 edit", "2 edits".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (p painter) reset() string {
	if !p.on {
		return ""
	}
	return colorReset
}
