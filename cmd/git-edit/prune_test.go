package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/repo/gittest"
)

// snapshotTree returns every file under root, path to bytes (symlinks as
// their target), so that "changes nothing" is checked byte for byte.
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var b []byte
		if d.Type()&fs.ModeSymlink != 0 {
			s, err := os.Readlink(p)
			b = []byte("-> " + s)
			if err != nil {
				return err
			}
		} else if b, err = os.ReadFile(p); err != nil {
			return err
		}
		m[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed or removed %s", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// prune --session and --dry-run, read-only sessions (issue 15, item 7):
// `sessions` lists every session with its state, a session that only read
// files included; --dry-run prints what prune would remove and leaves
// every byte of the repository (refs, reflogs, objects, read records,
// history index) and the worktree as it was; prune --session removes one
// session, its read records and its history index with it.
func TestPruneSessionDryRunAndReadOnly(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	state := filepath.Join(dir, ".git", "git-edit", "sessions")
	var steps []cliStep
	// Session s: ten edits, so that its history index is written beside
	// the ref (it is written back after more than 8 commits).
	for i := range 10 {
		steps = append(steps, cliStep{stdin: fmt.Sprintf(`{"path":"a.txt","operations":[{"op":"insert","afterLine":0,"content":["%d"]}]}`, i),
			args: []string{"call", "--session", "s", "edit_lines"}, out: "-"})
	}
	steps = append(steps,
		cliStep{args: []string{"log", "--session", "s", "-n", "1"}, out: "-"},
		cliStep{stdin: `{"file_path":"b.txt"}`, args: []string{"call", "--session", "reader", "Read"}, out: "-"},
		cliStep{stdin: `{"command":"view","path":"a.txt"}`, args: []string{"call", "--session", "reader", "text_editor"}, out: "-"},
		cliStep{stdin: `{"command":"create","path":"c.txt","file_text":"c\n"}`, args: []string{"call", "--session", "t", "text_editor"}, out: "-"},
		cliStep{args: []string{"sessions"}, out: "" +
			"reader  read-only: 2 files read, no edits  last <age>\n" +
			"s       10 commits (10 edits)  1 path  base <id>  last <age>\n" +
			"t       1 commit (1 edit)  1 path  base <id>  last <age>\n"},
	)
	playGitEdit(t, dir, steps)
	for _, f := range []string{"reader/seen", "s/history.idx", "s/history.commits"} {
		if _, err := os.Stat(filepath.Join(state, f)); err != nil {
			t.Fatalf("the test needs %s: %v", f, err)
		}
	}

	before := snapshotTree(t, dir)
	playGitEdit(t, dir, []cliStep{
		{args: []string{"prune", "--dry-run", "--older-than", "0s"}, out: "" +
			"would prune read-only session reader (2 files read, last <age>)\n" +
			"would prune refs/edits/s (10 commits, last <age>, was at <id>)\n" +
			"would prune refs/edits/t (1 commit, last <age>, was at <id>)\n" +
			"(dry run: nothing was pruned)\n"},
		{args: []string{"prune", "-n", "--session", "t", "--session", "reader"}, out: "" +
			"would prune refs/edits/t (1 commit, last <age>, was at <id>)\n" +
			"would prune read-only session reader (2 files read, last <age>)\n" +
			"(dry run: nothing was pruned)\n"},
		{args: []string{"prune", "--dry-run", "--older-than", "2w"}, out: "no session is older than 2w\n(dry run: nothing was pruned)\n"},
	})
	sameTree(t, "prune --dry-run", before, snapshotTree(t, dir))

	tTip := gittest.Rev(t, dir, "refs/edits/t")
	playGitEdit(t, dir, []cliStep{
		{args: []string{"prune", "--session", "nosuch"}, code: 1, out: "", err: "no session \"nosuch\" in this repository (nothing was pruned); `git edit sessions` lists them"},
		{args: []string{"prune", "--session", "reader"}, out: "pruning read-only session reader (2 files read, last <age>)\npruned 1 session\n"},
		{args: []string{"prune", "--session", "s"}, out: "pruning refs/edits/s (10 commits, last <age>, was at <id>)\n" + restoreLine("s") + prunedLine(1)},
		{args: []string{"sessions"}, out: "t  1 commit (1 edit)  1 path  base <id>  last <age>\n"},
	})
	for _, name := range []string{"reader", "s"} {
		if _, err := os.Stat(filepath.Join(state, name)); !os.IsNotExist(err) {
			t.Errorf("the state of session %s is left: %v", name, err)
		}
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/edits/"); refs != "refs/edits/t "+tTip+"\n" {
		t.Errorf("refs after pruning reader and s:\n%s", refs)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "9\n8\n7\n6\n5\n4\n3\n2\n1\n0\na\n" {
		t.Errorf("prune changed a worktree file: %q", got)
	}
}

// TestSessionsNamesARefGitEditDidNotWrite: a session ref set by hand to a
// commit git-edit did not write is listed as such, with the way to remove
// it (it used to show "0 commits … last 292 years ago"), and prune removes
// it.
func TestSessionsNamesARefGitEditDidNotWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "update-ref", "refs/edits/odd", "HEAD")
	r := gitEdit(t, dir, "", nil, "sessions")
	want := "odd  no git-edit commits: refs/edits/odd names a commit git-edit did not write; remove it with `git edit prune --session odd`\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("sessions: %+v\nwant stdout %q", r, want)
	}
	if r := gitEdit(t, dir, "", nil, "prune", "--session", "odd"); r.code != 0 || !strings.HasPrefix(r.stdout, "pruning refs/edits/odd (no session commits") {
		t.Fatalf("prune --session odd: %+v", r)
	}
	if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != "" {
		t.Errorf("refs left: %s", got)
	}
	gittest.Fsck(t, dir)
}

// restoreLine is the line prune prints under a session it is about to
// delete (ids normalized).
func restoreLine(name string) string {
	return "  to bring it back: git update-ref refs/edits/" + name + " <id>\n"
}

// prunedLine is prune's closing line after deleting n sessions with commits.
func prunedLine(n int) string {
	return "pruned " + plural(n, "session") + "; a `git update-ref` above works until git gc removes the commits (unreachable ones older than gc.pruneExpire, 2.weeks.ago by default)\n"
}

// prune --older-than reads git's expiry forms (issue 23): what `git gc
// --prune=` takes, read by git itself, and git-edit's own 72h, 14d, 2w.
// Each form is tried against a session that is `age` old (runPrune's
// clock, which git's relative dates count back from too): it is pruned
// exactly when it is older than the date. The same runs through the
// binary, with the date given on the command line as a person types it.
func TestPruneOlderThanGitForms(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	if r := runCLI(t, `{"command":"create","path":"b.txt","file_text":"b\n"}`, "call", "--root", dir, "--session", "s", "text_editor"); r.code != 0 {
		t.Fatalf("call: %+v", r)
	}
	ct, err := strconv.ParseInt(strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%ct", "refs/edits/s")), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	last := time.Unix(ct, 0)
	day := 24 * time.Hour
	// Absolute dates around the session's last commit, in local time as
	// git reads them.
	before := last.Add(-day).Format("2006-01-02 15:04")
	after := last.Add(day).Format("2006-01-02 15:04")
	for _, tc := range []struct {
		form  string
		age   time.Duration // how old the session is when prune runs
		prune bool
	}{
		{"2.weeks.ago", 15 * day, true}, {"2.weeks.ago", 13 * day, false},
		{"2 weeks ago", 15 * day, true},
		{"1.month.ago", 40 * day, true}, {"1.month.ago", 20 * day, false},
		{"1.month", 40 * day, true},
		{"3.days", 4 * day, true}, {"3.days", 2 * day, false},
		{"30.minutes.ago", time.Hour, true}, {"30.minutes.ago", 10 * time.Minute, false},
		{"1.year.2.months.ago", 500 * day, true}, {"1.year.2.months.ago", 400 * day, false},
		{"now", 0, true}, {"all", 0, true}, {"2.Weeks.Ago", 15 * day, true},
		{"never", 10000 * day, false},
		{before, 2 * day, false}, {after, 2 * day, true},
		{last.Add(day).Format("2006-01-02"), 3 * day, true},
		{"2000-01-01", 3 * day, false},
		{"72h", 4 * day, true}, {"72h", 2 * day, false},
		{"14d", 15 * day, true}, {"14d", 13 * day, false},
		{"2w", 15 * day, true}, {"2w", 13 * day, false},
		{"1d12h", 2 * day, true}, {"1d12h", day, false},
		{"0", 0, true}, {"0s", time.Second, true},
		{"999999999w", 10000 * day, false},
	} {
		var out bytes.Buffer
		err := runPrune(context.Background(), pruneOptions{Root: dir, OlderThan: tc.form, DryRun: true, Now: last.Add(tc.age), Stdout: &out})
		if err != nil {
			t.Errorf("--older-than %q: %v", tc.form, err)
			continue
		}
		want := "no session is older than " + tc.form + "\n(dry run: nothing was pruned)\n"
		if tc.prune {
			want = "would prune refs/edits/s (1 commit, last <age>, was at <id>)\n(dry run: nothing was pruned)\n"
		}
		if got := lastAge.ReplaceAllString(normalizeCLI(out.String()), "last <age>,"); got != want {
			t.Errorf("--older-than %q with the session %v old:\n%s\nwant\n%s", tc.form, tc.age, got, want)
		}
	}
	if got := gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"); got != "refs/edits/s\n" {
		t.Fatalf("a dry run deleted a session: %q", got)
	}
}

var lastAge = regexp.MustCompile(`last [^,]+,`)

// An --older-than that reads as minutes to some and months to others (1m:
// Go's minutes; git's approxidate reads it as the 1st of this month) is
// refused, saying what to write instead; so is a form git would read as
// some unrelated date, or not at all. Nothing changes, byte for byte: on
// main, `prune --older-than 1m` pruned every session.
func TestPruneOlderThanRefusesAmbiguousAndUnreadable(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	for _, s := range []string{"s", "t"} {
		if r := runCLI(t, `{"command":"create","path":"`+s+`.txt","file_text":"x\n"}`, "call", "--root", dir, "--session", s, "text_editor"); r.code != 0 {
			t.Fatalf("call: %+v", r)
		}
	}
	// Older than a minute and than a month's first day, under both readings.
	later := time.Now().Add(40 * 24 * time.Hour)
	snap := snapshotTree(t, dir)
	for _, tc := range []struct{ form, stderr string }{
		{"1m", `--older-than "1m": ambiguous unit: m reads as minutes to some and as months to others; write 1.minutes.ago or 1.months.ago (or 1h, 1d in hours or days)`},
		{"1M", `--older-than "1M": ambiguous unit: m reads as minutes to some and as months to others; write 1.minutes.ago or 1.months.ago (or 1h, 1d in hours or days)`},
		{"90m", `--older-than "90m": ambiguous unit: m reads as minutes to some and as months to others; write 90.minutes.ago or 90.months.ago (or 90h, 90d in hours or days)`},
		{"3mo", ""}, {"2.mon.ago", ""}, {"5 min", ""}, {"1.m", ""},
		{"soon", ""}, {"garbage.ago", ""}, {"1.5h", ""}, {"-1d", ""}, {"5", ""},
		{"2.fortnights.ago", ""}, {"1h30m", ""}, {"2026-13-45", ""},
		// git reads an impossible time of day as the date at the current one.
		{"2026-11-01 25:00", ""}, {"2026-11-01 12:60", ""}, {"2026-11-01 99:99:99", ""},
	} {
		r := runCLI(t, "", "prune", "--root", dir, "--older-than", tc.form)
		if r.code != clikit.ExitMisuse || r.stdout != "" {
			t.Errorf("--older-than %q: exit %d, stdout %q, stderr %q; want a refusal", tc.form, r.code, r.stdout, r.stderr)
			continue
		}
		if tc.stderr != "" && r.stderr != "git-edit: "+tc.stderr+"\n" {
			t.Errorf("--older-than %q: stderr\n%s\nwant\n%s", tc.form, r.stderr, tc.stderr)
		}
		if !strings.Contains(r.stderr, "2.weeks.ago") && !strings.Contains(r.stderr, ".minutes.ago") {
			t.Errorf("--older-than %q: the refusal does not say what to write: %s", tc.form, r.stderr)
		}
		// And at a clock 40 days on, where both readings select every
		// session, in process: still refused.
		var out bytes.Buffer
		if err := runPrune(context.Background(), pruneOptions{Root: dir, OlderThan: tc.form, Now: later, Stdout: &out}); err == nil || out.Len() != 0 {
			t.Errorf("--older-than %q, 40 days on: err %v, printed %q", tc.form, err, out.String())
		}
	}
	sameTree(t, "a refused prune", snap, snapshotTree(t, dir))
	gittest.Fsck(t, dir)
}

// prune prints, before deleting, the command that brings each session
// back, with the full commit id; run verbatim in a shell it restores the
// session: git log and git edit log show its history again.
func TestPruneRestoreCommandRunsVerbatim(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	for i := range 3 {
		r := gitEdit(t, dir, fmt.Sprintf(`{"path":"a.txt","operations":[{"op":"insert","afterLine":0,"content":["%d"]}]}`, i), nil, "call", "--session", "s", "edit_lines")
		if r.code != 0 {
			t.Fatalf("call: %+v", r)
		}
	}
	tip := gittest.Rev(t, dir, "refs/edits/s")
	logBefore := gittest.Git(t, dir, "log", "--format=%H %s", "refs/edits/s")
	r := gitEdit(t, dir, "", nil, "prune", "--older-than", "now")
	want := "pruning refs/edits/s (3 commits, last <age>, was at <id>)\n" + restoreLine("s") + prunedLine(1)
	if r.code != 0 || normalizeCLI(r.stdout) != want {
		t.Fatalf("prune --older-than now: %+v\nwant stdout\n%s", r, want)
	}
	if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != "" {
		t.Fatalf("refs left: %s", got)
	}
	var restore string
	for _, line := range strings.Split(r.stdout, "\n") {
		if cmd, ok := strings.CutPrefix(line, "  to bring it back: "); ok {
			restore = cmd
		}
	}
	if restore != "git update-ref refs/edits/s "+tip {
		t.Fatalf("restore command %q, want the full id %s", restore, tip)
	}
	sh := exec.Command("sh", "-c", restore)
	sh.Dir = dir
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", restore, err, out)
	}
	if got := gittest.Git(t, dir, "log", "--format=%H %s", "refs/edits/s"); got != logBefore {
		t.Fatalf("git log after the restore:\n%s\nwant\n%s", got, logBefore)
	}
	if r := gitEdit(t, dir, "", nil, "log", "--session", "s"); r.code != 0 || strings.Count(r.stdout, "edit_lines") != 3 {
		t.Fatalf("git edit log after the restore: %+v", r)
	}
	gittest.Fsck(t, dir)
}
