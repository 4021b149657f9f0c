package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/urfave/cli/v2"
)

func blameCommand() *cli.Command {
	return &cli.Command{
		Name:  "blame",
		Usage: "who wrote each line of a file: an agent's edit (session, commit, tool, turn) or the person",
		Description: "For each line of PATH (the working file, or the file at REV) prints the commit that wrote it: an edit of a session, or the\n" +
			"person's commit in the branch's history (or \"not committed\"). With --stat, counts the lines a commit (default HEAD) or a\n" +
			"range A..B added that agents (per session) and the person wrote. Every session is considered unless --session names some.\n" +
			"It writes nothing: the objects it needs live in a temporary directory.",
		ArgsUsage: "PATH [REV] | --stat [REV|A..B]",
		Flags: []cli.Flag{clikit.RootFlag(),
			// Not GIT_EDIT_SESSION: blame answers who wrote a line, not
			// what one session did.
			&cli.StringSliceFlag{Name: "session", Usage: "consider only session `S` (repeat for several); without it, every session"},
			&cli.BoolFlag{Name: "all", Usage: "consider every session (the default)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON: an array of lines, or with --stat the counts"},
			&cli.BoolFlag{Name: "stat", Usage: "count the agents' and the person's lines that a commit or range added, per file"},
			&cli.StringFlag{Name: "color", Usage: "`WHEN` to colour: always, never or auto (on a terminal or in the pager); default from git config color.diff, else color.ui, else auto"},
			&cli.BoolFlag{Name: "no-color", Usage: "never colour (--color=never)"},
			&cli.BoolFlag{Name: "no-pager", Aliases: []string{"P"}, Usage: "print to stdout, never through the pager"},
			blameFormatFlag(),
		},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			ro, err := reviewOptionsOf(c)
			if err != nil {
				return err
			}
			o := blameOptions{Sessions: c.StringSlice("session"), JSON: c.Bool("json"), Stat: c.Bool("stat")}
			if c.Bool("all") && len(o.Sessions) > 0 {
				return errors.New("--all and --session cannot be used together; --all considers every session, --session only those named")
			}
			args := c.Args().Slice()
			switch f := c.String("format"); {
			case f == "agent-trace" && (o.Stat || o.JSON || len(o.Sessions) > 0):
				return errors.New("blame --format=agent-trace prints every session's and the person's lines of a commit or range as JSON records; it takes no --stat, --json or --session")
			case f == "agent-trace" && len(args) > 1:
				return fmt.Errorf("blame --format=agent-trace takes one REV or range A..B, not %d arguments", len(args))
			case f == "agent-trace":
				e, err := openHistory(c, pickNone)
				if err != nil {
					return err
				}
				defer e.Close()
				return runAgentTrace(c, e, c.Args().First(), c.App.Writer)
			case f != "":
				return fmt.Errorf("blame --format: unknown format %q; the one format is agent-trace", f)
			}
			switch {
			case o.Stat && len(args) > 1:
				return fmt.Errorf("blame --stat takes one REV or range A..B, not %d arguments", len(args))
			case o.Stat && len(args) == 1:
				o.Rev = args[0]
			case o.Stat:
			case len(args) == 0:
				return errors.New("blame needs the file's PATH (and optionally a REV to blame it at)")
			case len(args) > 2:
				return fmt.Errorf("blame takes PATH and an optional REV, not %d arguments", len(args))
			default:
				o.Path = args[0]
				if len(args) == 2 {
					o.Rev = args[1]
				}
			}
			e, err := openHistory(c, pickNone)
			if err != nil {
				return err
			}
			defer e.Close()
			return withReview(c, e, ro, func(rv *review) error { return runBlame(c, rv, e, o) })
		},
	}
}

type blameOptions struct {
	Path, Rev string
	Sessions  []string
	JSON      bool
	Stat      bool
}

// blameRefusal says whether err is a refusal of what was asked (a path,
// a revision, a session), rather than a failure.
func blameRefusal(err error) error {
	for _, want := range []error{ops.ErrNoSuchFile, ops.ErrUnknownRev, ops.ErrUnknownSession, session.ErrBadName, ops.ErrPathRefused} {
		if errors.Is(err, want) {
			return clikit.Refused(err)
		}
	}
	return err
}

func runBlame(c *cli.Context, rv *review, e *ops.Engine, o blameOptions) error {
	if o.Stat {
		st, err := e.BlameStat(c.Context, o.Rev, o.Sessions)
		if err != nil {
			return blameRefusal(err)
		}
		if o.JSON {
			return writeJSON(rv.w, blameStatJSON(st))
		}
		return writeBlameStat(rv.w, st)
	}
	lines, err := e.Blame(c.Context, o.Path, o.Rev, o.Sessions)
	if err != nil {
		return blameRefusal(err)
	}
	if o.JSON {
		out := make([]blameLineJSON, len(lines))
		for i, l := range lines {
			out[i] = blameLineOf(l)
		}
		return writeJSON(rv.w, out)
	}
	return writeBlame(rv.w, rv.paint, lines)
}

// blameLineJSON is one line of `blame --json`: every field of
// ops.LineOrigin, the commit as full hex (forty zeros for a line not
// committed anywhere, as git blame --porcelain names it), the time in
// RFC 3339 ("" when not committed), and kind "agent" or "person".
type blameLineJSON struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Kind    string `json:"kind"`
	Agent   bool   `json:"agent"`
	Session string `json:"session"`
	Commit  string `json:"commit"`
	Op      string `json:"op"`
	Tool    string `json:"tool"`
	Turn    string `json:"turn"`
	Model   string `json:"model"`
	Author  string `json:"author"`
	Time    string `json:"time"`
}

func blameLineOf(l ops.LineOrigin) blameLineJSON {
	j := blameLineJSON{Line: l.Line, Text: l.Text, Kind: "person", Agent: l.Agent, Session: l.Session,
		Commit: l.Commit.String(), Op: l.Op, Tool: l.Tool, Turn: l.Turn, Model: l.Model, Author: l.Author}
	if l.Agent {
		j.Kind = "agent"
	}
	if !l.Time.IsZero() {
		j.Time = l.Time.Format("2006-01-02T15:04:05Z07:00")
	}
	return j
}

// colorAgent is the colour of an agent line's commit and author columns.
const colorAgent = "33" // yellow

// blameWho is the author column: "agent S tool [turn T]", "person NAME"
// or "person (not committed)"; control characters (from trailers and
// names, which anyone may write) are shown as "?".
func blameWho(l ops.LineOrigin) string {
	var who string
	switch {
	case l.Agent:
		tool := l.Tool
		if i := strings.LastIndexByte(tool, '.'); i >= 0 {
			tool = tool[i+1:]
		}
		who = "agent " + l.Session + " " + tool
		if l.Turn != "" {
			who += " turn " + l.Turn
		}
	case l.Author != "":
		who = "person " + l.Author
	default:
		who = "person (not committed)"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, who)
}

// writeBlame prints the lines as git blame's default format does:
// "<id> (<who> <date> <n>) <text>", the id 8 hex digits, who padded to
// the widest, n right-aligned. A line not committed anywhere has git's
// "00000000" and no date.
func writeBlame(w io.Writer, p painter, lines []ops.LineOrigin) error {
	whoWidth, numWidth := 0, len(strconv.Itoa(len(lines)))
	whos := make([]string, len(lines))
	for i, l := range lines {
		whos[i] = blameWho(l)
		whoWidth = max(whoWidth, len([]rune(whos[i])))
	}
	for i, l := range lines {
		date := strings.Repeat(" ", len("2006-01-02 15:04:05 -0700"))
		if !l.Time.IsZero() {
			date = l.Time.Format("2006-01-02 15:04:05 -0700")
		}
		id := l.Commit.String()[:8]
		pad := whoWidth - len([]rune(whos[i]))
		head := fmt.Sprintf("%s (%s%s %s %*d)", id, whos[i], strings.Repeat(" ", pad), date, numWidth, l.Line)
		if l.Agent {
			head = p.sgr(colorAgent) + head + p.reset()
		}
		if _, err := fmt.Fprintf(w, "%s %s\n", head, l.Text); err != nil {
			return err
		}
	}
	return nil
}

// blameStatJSON is `blame --stat --json`: the range (from: "" for a root
// commit's empty tree), each file's counts and the total's.
type blameStatJSONOut struct {
	From  string          `json:"from"`
	To    string          `json:"to"`
	Files []ops.StatCount `json:"files"`
	Total ops.StatCount   `json:"total"`
}

func blameStatJSON(st ops.BlameStat) blameStatJSONOut {
	out := blameStatJSONOut{To: st.To.String(), Files: st.Files, Total: st.Total}
	if st.From != plumbing.ZeroHash {
		out.From = st.From.String()
	}
	if out.Files == nil {
		out.Files = []ops.StatCount{}
	}
	return out
}

// writeBlameStat prints one row per file the range added lines to, then
// the total: added, agent and person lines, then the agent lines per
// session ("S N", by name).
func writeBlameStat(w io.Writer, st ops.BlameStat) error {
	rows := [][]string{{"added", "agent", "person", "file", "agent lines per session"}}
	row := func(name string, c ops.StatCount) []string {
		names := make([]string, 0, len(c.Sessions))
		for s := range c.Sessions {
			names = append(names, s)
		}
		sort.Strings(names)
		var per []string
		for _, s := range names {
			per = append(per, fmt.Sprintf("%s %d", s, c.Sessions[s]))
		}
		return []string{strconv.Itoa(c.Added), strconv.Itoa(c.Agent), strconv.Itoa(c.Person), name, strings.Join(per, ", ")}
	}
	for _, f := range st.Files {
		rows = append(rows, row(ops.QuotePath(f.Path), f))
	}
	rows = append(rows, row("total", st.Total))
	var widths [5]int
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%*s %*s %*s  %-*s  %s", widths[0], r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3], r[4])
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	return nil
}
