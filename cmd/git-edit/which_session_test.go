package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// untouched is what a refused command must leave exactly as it was: every
// ref (the sessions' included), the person's repository state, and every
// file of the worktree, byte for byte.
func untouched(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"))
	fmt.Fprintf(&b, "%+v\n", gittest.Snapshot(t, dir))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Issue 23: while an agent's session is the one last written, the person
// writes a line by hand in b.txt, a command writes c.txt, and the person
// runs `git edit record` and `git edit undo`. record used to record into
// default both the command's file and the person's line as the command's
// change, and the undo then deleted the person's line. Now record (into
// the agent's session, the one last written here) refuses, naming both
// paths and what to run, and changes nothing; the advice, followed,
// records only c.txt; and undo takes back exactly that, keeping the
// person's line.
func TestAttackRecordThenUndoKeepsThePersonsLine(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	edit(t, dir, "agent", "a.txt", "a1", "A1")
	gittest.WriteFile(t, dir, "b.txt", "b1\nthe person's line\n")
	sh(t, dir, "echo t > c.txt")

	before := untouched(t, dir)
	r := runCLI(t, "", "record", "--root", dir)
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("bare record of two paths: %+v", r)
	}
	for _, s := range []string{
		"session agent, the last written in this worktree; --session NAME to choose another\n",
		"git-edit: record: which changes are the command's is not known: record would take 2 changed paths as one command's change",
		"  b.txt: changed on disk by no git-edit session (yours, or a command's)\n",
		"  c.txt: changed on disk by no git-edit session (yours, or a command's)\n",
		"Record only the command's files with `git edit record --session agent PATH…`, or every path as the command's change with `git edit record --session agent --all`; " +
			"next time run `git edit record --session agent --before` before the command",
		"; nothing was recorded\n",
	} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("the refusal lacks %q:\n%s", s, r.stderr)
		}
	}
	if after := untouched(t, dir); after != before {
		t.Fatalf("the refused record changed something:\n%s\nwas\n%s", after, before)
	}

	// The advice, as printed: only the command's file.
	mustRun(t, dir, "", "record", "--session", "agent", "c.txt")
	if got := nameStatus(t, dir, "refs/edits/agent"); strings.Join(got, "|") != "A c.txt" {
		t.Fatalf("record c.txt recorded %v", got)
	}
	r = runCLI(t, "", "undo", "--root", dir)
	if r.code != 0 || !strings.Contains(r.stderr, "session agent, the last written in this worktree") {
		t.Fatalf("undo: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); !os.IsNotExist(err) {
		t.Errorf("undo of the record left c.txt: %v", err)
	}
	if got := gittest.ReadFile(t, dir, "b.txt"); got != "b1\nthe person's line\n" {
		t.Errorf("the person's line is gone: b.txt = %q", got)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "A1\n" {
		t.Errorf("a.txt = %q, the agent's edit is not the record's to undo", got)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"); refs != "refs/edits/agent\n" {
		t.Errorf("sessions made: %q", refs)
	}
	gittest.Fsck(t, dir)
}

// Issue 23: record then undo in the same second act on the same session.
// Ties of the commits' whole seconds used to be broken by name, so the
// undo acted on session zz, not on default where record had recorded.
// Now both mean the session last written in this worktree. Repeated, so
// that most rounds fall within one second.
func TestAttackRecordThenUndoSameSecond(t *testing.T) {
	rounds := 5
	if testing.Short() {
		rounds = 2
	}
	for i := range rounds {
		dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n"})
		gittest.Git(t, dir, "config", "edit.requireRead", "false")
		// A session the person wrote in earlier, then the agent's.
		mustRun(t, dir, "", "checkpoint", "--session", "default", "start")
		edit(t, dir, "zz", "a.txt", "a1", "A1")
		gittest.WriteFile(t, dir, "c.txt", "by a command\n")
		r := runCLI(t, "", "record", "--root", dir)
		if r.code != 0 {
			t.Fatalf("round %d: record: %+v", i, r)
		}
		writer := regexp.MustCompile(`^\[(\S+) `).FindStringSubmatch(r.stdout)
		r2 := runCLI(t, "", "undo", "--root", dir)
		if r2.code != 0 {
			t.Fatalf("round %d: undo: %+v", i, r2)
		}
		if writer == nil || !strings.HasPrefix(r2.stderr, "session "+writer[1]+",") {
			t.Fatalf("round %d: record wrote %v (%q), undo said %q", i, writer, r.stdout, r2.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "c.txt")); !os.IsNotExist(err) {
			t.Fatalf("round %d: undo did not take back the record: c.txt is there (%v); undo said %q %q", i, err, r2.stdout, r2.stderr)
		}
		if got := gittest.ReadFile(t, dir, "a.txt"); got != "A1\n" {
			t.Fatalf("round %d: undo took back another edit: a.txt = %q", i, got)
		}
	}
}

// Issue 23: the session a writer chose is the one the reader that follows
// means, whichever was named: call --session x, then call and log and
// checkpoint without it, all mean x, and say so.
func TestWriterAndReaderMeanTheSameSession(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	mustRun(t, dir, "", "checkpoint", "--session", "default", "first")
	edit(t, dir, "x", "a.txt", "a1", "A1")
	note := "session x, the last written in this worktree; --session NAME to choose another\n"
	r := runCLI(t, `{"command":"str_replace","path":"b.txt","old_str":"b1","new_str":"B1"}`, "call", "--root", dir, "text_editor")
	if r.code != 0 || r.stderr != note {
		t.Fatalf("call without --session: %+v", r)
	}
	if got := nameStatus(t, dir, "refs/edits/x"); strings.Join(got, "|") != "M b.txt" {
		t.Errorf("call without --session wrote %v on x", got)
	}
	for _, args := range [][]string{{"log", "-n", "1"}, {"diff", "--name-only"}, {"checkpoint", "mark"}} {
		r := runCLI(t, "", append([]string{args[0], "--root", dir}, args[1:]...)...)
		if r.code != 0 || r.stderr != note {
			t.Errorf("%v: %+v", args, r)
		}
	}
	if op := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", "refs/edits/x"); strings.TrimSpace(op) != "checkpoint" {
		t.Errorf("checkpoint without --session did not mark x: %q", op)
	}
	// GIT_EDIT_SESSION names another: no note, and it becomes the current.
	t.Setenv("GIT_EDIT_SESSION", "default")
	if r := runCLI(t, "", "checkpoint", "--root", dir, "second"); r.code != 0 || r.stderr != "" {
		t.Errorf("checkpoint with GIT_EDIT_SESSION: %+v", r)
	}
	t.Setenv("GIT_EDIT_SESSION", "")
	if r := runCLI(t, "", "log", "--root", dir, "-n", "1"); r.code != 0 || r.stderr != "session default, the last written in this worktree; --session NAME to choose another\n" {
		t.Errorf("log after a checkpoint of default: %+v", r)
	}
}

// Issue 23: a checkpoint's hint runs as printed after another session has
// become the one last written: it names its session. It used to print
// `git edit rollback --to NAME`, which then meant the newer session and
// failed.
func TestCheckpointHintRunsAsPrinted(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	edit(t, dir, "a", "a.txt", "a1", "A1")
	out := mustRun(t, dir, "", "checkpoint", "mark")
	hint := regexp.MustCompile("Return to it with `([^`]+)`").FindStringSubmatch(out)
	if hint == nil {
		t.Fatalf("checkpoint printed no hint: %q", out)
	}
	edit(t, dir, "a", "a.txt", "A1", "A2")
	edit(t, dir, "b", "b.txt", "b1", "B1") // b is now the last written
	bTip := gittest.Rev(t, dir, "refs/edits/b")
	cmd := exec.Command("sh", "-c", hint[1])
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_EDIT_SESSION=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the hint %q, run as printed: %v\n%s", hint[1], err, out)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "A1\n" {
		t.Errorf("after the hint a.txt = %q, want A1 (the checkpoint's)", got)
	}
	if gittest.Rev(t, dir, "refs/edits/b") != bTip || gittest.ReadFile(t, dir, "b.txt") != "B1\n" {
		t.Error("the hint acted on session b")
	}
	gittest.Fsck(t, dir)
}

// Issue 23: without --before, a bare record of two or more paths asks;
// after a `record --before` of the session (the hook flow), everything
// changed since is the command's, even when the --before recorded
// nothing; --all takes everything; one path is recorded as it was.
func TestRecordBeforePendingAndAll(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	// The hook flow on a clean worktree: --before records nothing.
	if out := mustRun(t, dir, "", "record", "--session", "s", "--before"); !strings.HasPrefix(out, "nothing to record") {
		t.Fatalf("record --before: %q", out)
	}
	sh(t, dir, "echo A > a.txt && echo B > b.txt")
	mustRun(t, dir, "", "record", "--session", "s")
	if got := nameStatus(t, dir, "refs/edits/s"); strings.Join(got, "|") != "M a.txt|M b.txt" {
		t.Fatalf("record after --before recorded %v", got)
	}
	// The mark is used up: the next bare record of two paths asks.
	sh(t, dir, "echo AA > a.txt && echo BB > b.txt")
	before := untouched(t, dir)
	if r := runCLI(t, "", "record", "--root", dir, "--session", "s"); r.code != 1 || !strings.Contains(r.stderr, "which changes are the command's is not known") {
		t.Fatalf("a second bare record: %+v", r)
	}
	if untouched(t, dir) != before {
		t.Fatal("the refused record changed something")
	}
	mustRun(t, dir, "", "record", "--session", "s", "--all")
	if got := nameStatus(t, dir, "refs/edits/s"); strings.Join(got, "|") != "M a.txt|M b.txt" {
		t.Fatalf("record --all recorded %v", got)
	}
	// One path: recorded.
	sh(t, dir, "echo AAA > a.txt")
	mustRun(t, dir, "", "record", "--session", "s")
	if got := nameStatus(t, dir, "refs/edits/s"); strings.Join(got, "|") != "M a.txt" {
		t.Fatalf("record of one path recorded %v", got)
	}
	gittest.Fsck(t, dir)
}

// Issue 23: authors named truthfully. A sync commit that records another
// session's edit names that session; a forced rollback that discards it
// says whose it was; an undo or redo of another session's commit says
// which session holds it and the exact command, and changes nothing.
func TestAttackMessagesNameTheOtherSession(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"x.txt": "x1\n", "y.txt": "y1\n", "z.txt": "z1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	edit(t, dir, "a", "y.txt", "y1", "Y1")
	edit(t, dir, "b", "x.txt", "x1", "xb")
	// a's first edit of x.txt finds b's bytes on disk: a sync of them.
	edit(t, dir, "a", "x.txt", "xb", "xa")
	sync := gittest.Rev(t, dir, "refs/edits/a~1")
	if got := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", sync)); got != "sync: edits of session b in x.txt" {
		t.Errorf("the sync of b's edit is titled %q", got)
	}
	// By hand and by b at once: both named.
	edit(t, dir, "b", "y.txt", "Y1", "yb")
	gittest.WriteFile(t, dir, "x.txt", "by hand\n")
	r := runCLI(t, "", "record", "--root", dir, "--session", "a", "--before")
	if r.code != 0 || !strings.Contains(r.stdout, "] sync: x.txt changed outside git-edit; edits of session b in y.txt\n") {
		t.Errorf("record --before: %+v", r)
	}
	// A forced rollback of a discards b's edits and the person's bytes.
	r = runCLI(t, "", "rollback", "--root", dir, "--session", "a", "--force")
	if r.code != 0 {
		t.Fatalf("rollback --force: %+v", r)
	}
	subject := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/a"))
	if want := "rollback to the start of session a, discarding the person's changes to x.txt; edits of session b to y.txt"; subject != want {
		t.Errorf("the rollback's subject is\n%q\nwant\n%q", subject, want)
	}
	// undo and redo of b's commit, asked of a.
	edit(t, dir, "b", "z.txt", "z1", "Z1")
	b := gittest.Rev(t, dir, "refs/edits/b")
	before := untouched(t, dir)
	for _, verb := range []string{"undo", "redo"} {
		r := runCLI(t, "", verb, "--root", dir, "--session", "a", b[:7])
		want := "git-edit: the edit is another session's: commit " + b[:7] + " is session b's, not session a's; nothing was changed. To " + verb + " it, run `git edit " + verb + " --session b " + b[:7] + "`\n"
		if r.code != 1 || r.stdout != "" || r.stderr != want {
			t.Errorf("%s of b's commit asked of a: %+v\nwant stderr %q", verb, r, want)
		}
	}
	if untouched(t, dir) != before {
		t.Fatal("a refused undo or redo changed something")
	}
	// The command it prints works.
	mustRun(t, dir, "", "undo", "--session", "b", b[:7])
	if got := gittest.ReadFile(t, dir, "z.txt"); got != "z1\n" {
		t.Errorf("after the printed undo z.txt = %q", got)
	}
	gittest.Fsck(t, dir)
}
