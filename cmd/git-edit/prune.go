package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/urfave/cli/v2"
)

// pruneOptions is what `git edit prune` was asked to do.
type pruneOptions struct {
	Root string
	// OlderThan is --older-than as given ("": not given).
	OlderThan string
	Sessions  []string
	DryRun    bool
	// Remote: a fetched session named is deleted on its server too.
	Remote bool
	Now    time.Time
	Stdout io.Writer
}

func pruneCommand() *cli.Command {
	return &cli.Command{
		Name:  "prune",
		Usage: "delete sessions (the ref, the read records, the history index): those whose last commit or read is older than a date (git's forms: 2.weeks.ago, 1.month.ago, 2026-11-01, now; or 72h, 14d, 2w), or the sessions named; it prints, before deleting, the command that brings each session back",
		Flags: []cli.Flag{clikit.RootFlag(),
			&cli.StringFlag{Name: "older-than", Usage: "`DATE`: as git gc --prune= takes it (2.weeks.ago, 3.days, 1.month.ago, 2026-11-01, \"2026-11-01 12:00\", now), or a number of hours, days or weeks (72h, 14d, 2w); minutes and months are written out (30.minutes.ago, 1.month.ago)"},
			// Not sessionFlag: prune must never pick up GIT_EDIT_SESSION.
			&cli.StringSliceFlag{Name: "session", Usage: "`NAME` of a session to delete, whatever its age, even a broken one (repeatable); with --older-than, a healthy one only if older"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print what would be pruned, and change nothing"},
			&cli.BoolFlag{Name: "remote", Usage: "for a fetched session named (REMOTE/OWNER/SESSION), delete it on its server too, not only the copy here (git push --force-with-lease: not if its owner pushed since the fetch)"},
		},
		OnUsageError: clikit.UsageError,
		Action: func(c *cli.Context) error {
			o := pruneOptions{Root: c.String("root"), Sessions: c.StringSlice("session"), DryRun: c.Bool("dry-run"), Remote: c.Bool("remote"), Now: time.Now(), Stdout: c.App.Writer}
			if c.IsSet("older-than") {
				o.OlderThan = c.String("older-than")
				if o.OlderThan == "" {
					return errors.New("--older-than needs a date, such as 2.weeks.ago, 1.month.ago, 2026-11-01 or now")
				}
			}
			return runPrune(c.Context, o)
		},
	}
}

// runPrune selects the sessions, says what it is about to delete and how
// to bring each back (before deleting anything: the ref's reflog goes
// with it), deletes them, and says which broken sessions it kept. A date it
// cannot read, or reads two ways, is misuse, and changes nothing.
func runPrune(ctx context.Context, o pruneOptions) error {
	opts := session.PruneOptions{Now: o.Now, Sessions: o.Sessions, DryRun: o.DryRun}
	if o.OlderThan != "" {
		cutoff, err := parseOlderThan(ctx, o.OlderThan, o.Now)
		if err != nil {
			return err
		}
		// Prune deletes a session when Now-Last > OlderThan, that is when
		// Last is before the cutoff; Sub saturates for "now" (the cutoff
		// git gives it is the end of time), which then selects everything.
		opts.ByAge, opts.OlderThan = true, o.Now.Sub(cutoff)
	}
	if o.OlderThan == "" && len(opts.Sessions) == 0 {
		return errors.New("prune needs --older-than DATE (such as 2.weeks.ago or 14d) or --session NAME; see git-edit prune --help")
	}
	var fetched, own []string
	for _, name := range opts.Sessions {
		if session.IsFetched(name) {
			if err := session.ValidateReadName(name); err != nil {
				return err
			}
			fetched = append(fetched, name)
			continue
		}
		if err := session.ValidateName(name); err != nil {
			return err
		}
		own = append(own, name)
	}
	if len(fetched) > 0 {
		if o.OlderThan != "" || len(own) > 0 {
			return errors.New("prune fetched sessions (REMOTE/OWNER/SESSION) on their own, without --older-than or sessions of your own; nothing was pruned")
		}
		return pruneFetched(ctx, o, fetched)
	}
	if o.Remote {
		return errors.New("--remote deletes a fetched session on its server: name it as REMOTE/OWNER/SESSION (`git edit fetch` then `git edit sessions` lists them); nothing was pruned")
	}
	r, err := session.OpenRepository(o.Root)
	if err != nil {
		return clikit.Refused(err)
	}
	opts.Announce = func(res session.PruneResult) error {
		return reportPrune(o.Stdout, res, "pruning", o.Now)
	}
	res, err := session.Prune(ctx, r, opts)
	if err != nil {
		return clikit.Refused(err)
	}
	if o.DryRun {
		if err := reportPrune(o.Stdout, res, "would prune", o.Now); err != nil {
			return err
		}
	}
	for _, k := range res.Kept {
		fmt.Fprintf(o.Stdout, "kept %s: %s\n", k.Ref, k.Broken)
	}
	switch {
	case len(res.Pruned) == 0 && o.OlderThan != "":
		fmt.Fprintf(o.Stdout, "no session is older than %s\n", o.OlderThan)
	case !o.DryRun && restorable(res) > 0:
		// The commits are unreachable now: git's gc removes them once
		// they are older than gc.pruneExpire (counted from when they were
		// written, so an old session's may go at the next gc).
		fmt.Fprintf(o.Stdout, "pruned %s; a `git update-ref` above works until git gc removes the commits (unreachable ones older than gc.pruneExpire, 2.weeks.ago by default)\n", plural(len(res.Pruned), "session"))
	case !o.DryRun:
		fmt.Fprintf(o.Stdout, "pruned %s\n", plural(len(res.Pruned), "session"))
	}
	if o.DryRun {
		fmt.Fprintln(o.Stdout, "(dry run: nothing was pruned)")
	}
	return nil
}

// restorable counts the pruned sessions a ref update brings back.
func restorable(res session.PruneResult) int {
	n := 0
	for _, p := range res.Pruned {
		if !p.ReadOnly && p.Broken == nil {
			n++
		}
	}
	return n
}

// reportPrune prints a line per session of res.Pruned, with verb
// ("pruning", "would prune"); under a session with commits, the command
// that brings it back, with the full commit id.
func reportPrune(w io.Writer, res session.PruneResult, verb string, now time.Time) error {
	var b bytes.Buffer
	for _, p := range res.Pruned {
		switch {
		case p.ReadOnly:
			fmt.Fprintf(&b, "%s read-only session %s (%s read, last %s)\n", verb, p.Name, plural(p.Reads, "file"), age(p.Last, now))
		case p.Broken != nil:
			fmt.Fprintf(&b, "%s %s (broken: it named %s, which was missing)\n", verb, p.Ref, p.Was.String()[:7])
		case p.Tip.IsZero():
			fmt.Fprintf(&b, "%s %s (no session commits, was at %s)\n", verb, p.Ref, p.Was.String()[:7])
		default:
			fmt.Fprintf(&b, "%s %s (%s, last %s, was at %s)\n", verb, p.Ref, plural(p.Commits, "commit"), age(p.Last, now), p.Was.String()[:7])
		}
		if !p.ReadOnly && p.Broken == nil && verb == "pruning" {
			fmt.Fprintf(&b, "  to bring it back: git update-ref %s %s\n", p.Ref, p.Was)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ErrAmbiguousDate refuses an --older-than whose unit reads as minutes to
// some and months to others (1m, 1M, 1mo).
var ErrAmbiguousDate = errors.New("ambiguous unit")

var (
	// shortAge is git-edit's own short form: whole hours, days or weeks
	// (72h, 14d, 2w), and seconds (0s); several add up (1d12h).
	shortAge  = lazyRegexp(`^(?:\d{1,9}[hdws])+$`)
	shortPart = lazyRegexp(`(\d+)([hdws])`)
	// mUnit is a number with a unit that starts with m and is not a word
	// git reads one way (minutes or months spelled out).
	mUnit = lazyRegexp(`(?i)^\d+[ ._-]*(?:m|mo|mon|mos|mons|min|mins|mth|mths)[ ._-]*(?:ago)?$`)
	// gitRelative is git's relative form: 2.weeks.ago, 3.days,
	// "1 year 2 months ago", with the units spelled out.
	gitRelative = lazyRegexp(`(?i)^(?:\d+[ ._-]*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)[ .,_-]*)+(?:ago)?$`)
	// gitAbsolute is an ISO date, with a time and a zone if wanted.
	gitAbsolute = lazyRegexp(`^\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?: ?(?:Z|[+-]\d{2}:?\d{2}))?)?$`)
	// gitWords are the words git's expiry parser gives a meaning of its
	// own: now and all (everything), never (nothing); in lower case only,
	// as git reads them.
	gitWords = lazyRegexp(`^(?:now|all|never)$`)
)

// parseOlderThan reads --older-than and returns the cutoff: a session whose
// last commit or read is before it is pruned. It takes git's expiry forms
// (what `git gc --prune=` and `git reflog expire --expire=` take: relative
// dates with their units spelled out, ISO dates, now, all, never), read by
// git itself (`git config --type=expiry-date`), and git-edit's own short
// forms in hours, days or weeks (72h, 14d, 2w), and 0 for now. git's parser
// reads almost anything as some date ("72h" as 1972, "1m" as the first of
// the month), so only the documented forms are handed to it; a unit that
// reads as minutes or months (1m, 1M, 1mo) is refused with
// ErrAmbiguousDate, and anything else with a message that shows the forms.
func parseOlderThan(ctx context.Context, s string, now time.Time) (time.Time, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "0":
		return endOfTime, nil
	case shortAge().MatchString(t):
		return now.Add(-shortDuration(t)), nil
	case mUnit().MatchString(t):
		n := strings.TrimLeft(t, "0123456789")
		n = t[:len(t)-len(n)]
		return time.Time{}, fmt.Errorf("--older-than %q: %w: m reads as minutes to some and as months to others; write %s.minutes.ago or %s.months.ago (or %sh, %sd in hours or days)", s, ErrAmbiguousDate, n, n, n, n)
	case gitAbsolute().MatchString(t) && validDate(t), gitRelative().MatchString(t), gitWords().MatchString(t):
		return gitExpiryDate(ctx, s, now)
	}
	return time.Time{}, fmt.Errorf("--older-than %q is not a date git-edit reads; write it as git gc --prune= does (2.weeks.ago, 3.days, 1.month.ago, 2026-11-01, \"2026-11-01 12:00\", now) or in hours, days or weeks (72h, 14d, 2w)", s)
}

// validDate reports whether an ISO date's day exists (git reads
// 2026-13-45 as some other date).
func validDate(s string) bool {
	if _, err := time.Parse(time.DateOnly, s[:len(time.DateOnly)]); err != nil {
		return false
	}
	// The time of day, if given, must be one: git reads 25:00 or 99:99 as
	// the date at the current time of day, moving the cutoff by up to a day.
	clock := validClock().FindStringSubmatch(s[len(time.DateOnly):])
	if clock == nil {
		return true
	}
	h, _ := strconv.Atoi(clock[1])
	m, _ := strconv.Atoi(clock[2])
	sec := 0
	if clock[3] != "" {
		sec, _ = strconv.Atoi(clock[3])
	}
	return h < 24 && m < 60 && sec < 60
}

// validClock is the time of day in an absolute --older-than.
var validClock = lazyRegexp(`^[ T](\d{1,2}):(\d{2})(?::(\d{2}))?`)

// lazyRegexp is expr compiled at its first use: only prune reads
// --older-than, so no other command's start pays for these.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// endOfTime is the cutoff of "now" and "all": every session is before it.
var endOfTime = time.Unix(math.MaxInt64/2, 0)

// shortDuration adds up a short form that shortAge matched; past 200
// years (older than any session) it stops adding, so that it cannot
// overflow.
func shortDuration(s string) time.Duration {
	const limit = 200 * 365 * 24 * time.Hour
	var d time.Duration
	for _, m := range shortPart().FindAllStringSubmatch(s, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64) // at most 9 digits
		unit := map[string]time.Duration{"s": time.Second, "h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour}[m[2]]
		if n >= int64((limit-d)/unit) {
			return limit
		}
		d += time.Duration(n) * unit
	}
	return d
}

// gitExpiryDate asks git what an expiry date means, as `git gc --prune=`
// would read it: git config's expiry-date type, with the date as the
// default of a key no file has (--file /dev/null: no setting of the
// person's is read or changes it). A relative date counts back from now,
// handed to git as GIT_TEST_DATE_NOW (git's own clock override, which its
// date parser reads), so that git and git-edit agree on "now" to the second.
func gitExpiryDate(ctx context.Context, s string, now time.Time) (time.Time, error) {
	cmd := exec.CommandContext(ctx, "git", "config", "--file", os.DevNull, "--type=expiry-date", "--default", s, "--get", "gitedit.olderthan")
	cmd.Env = append(os.Environ(), "GIT_TEST_DATE_NOW="+strconv.FormatInt(now.Unix(), 10))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return time.Time{}, fmt.Errorf("--older-than %q: run git to read it: %w (git-edit asks git to read dates, so git must be on PATH)", s, err)
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return time.Time{}, fmt.Errorf("--older-than %q is not a date git reads (%s); write it as 2.weeks.ago, 1.month.ago, 2026-11-01 or now", s, strings.TrimPrefix(msg, "error: "))
	}
	u, err := strconv.ParseUint(strings.TrimSpace(stdout.String()), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("--older-than %q: git printed %q, not a time: %w", s, stdout.String(), err)
	}
	if u > math.MaxInt64/2 {
		return endOfTime, nil // "now", "all": everything
	}
	return time.Unix(int64(u), 0), nil
}

// pruneFetched deletes the copies of fetched sessions here and, with
// --remote, the sessions on their servers, one by one, saying before each
// what it deletes. A copy deleted without --remote comes back at the next
// fetch, as the server still has it.
func pruneFetched(ctx context.Context, o pruneOptions, names []string) error {
	r, err := session.OpenRepository(o.Root)
	if err != nil {
		return clikit.Refused(err)
	}
	var copies []ops.FetchedCopy
	for _, name := range names {
		c, err := ops.ReadFetched(r, name)
		if err != nil {
			return clikit.Refused(fmt.Errorf("%w; nothing was pruned", err))
		}
		copies = append(copies, c)
	}
	verb := "deleting"
	if o.DryRun {
		verb = "would delete"
	}
	for _, c := range copies {
		if o.Remote {
			fmt.Fprintf(o.Stdout, "%s %s on %s (it names %s) and the copy %s here\n", verb, c.ServerRef, c.Remote, c.Tip.String()[:12], c.Ref)
			if !o.DryRun {
				if err := ops.PruneRemote(ctx, r, c, stdinIsTerminal()); err != nil {
					return clikit.Refused(err)
				}
			}
			continue
		}
		fmt.Fprintf(o.Stdout, "%s the copy %s here (it names %s); %s keeps %s, and the next `git edit fetch %s` brings it back: --remote deletes it there too\n",
			verb, c.Ref, c.Tip.String()[:12], c.Remote, c.ServerRef, c.Remote)
		if !o.DryRun {
			if err := ops.PruneCopy(r, c); err != nil {
				return clikit.Refused(err)
			}
		}
	}
	if o.DryRun {
		fmt.Fprintln(o.Stdout, "(dry run: nothing was pruned)")
	}
	return nil
}
