package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// terminalRun is git-edit running on a pseudo-terminal: what it wrote so
// far (line endings as written before the terminal's CRLF), and the
// keyboard.
type terminalRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	reader *os.File
	mu     sync.Mutex
	out    bytes.Buffer
	seen   int // bytes of out already matched by expect
	done   chan struct{}
	stderr bytes.Buffer
}

func startOnTerminal(t *testing.T, dir string, args ...string) *terminalRun {
	t.Helper()
	term, reader := openPTY(t)
	r := &terminalRun{t: t, reader: reader, done: make(chan struct{})}
	r.cmd = exec.Command(filepath.Join(binDir(t), "git-edit"), args...)
	r.cmd.Dir = dir
	r.cmd.Env = append(gittest.Env(), "GIT_EDIT_SESSION=", "NO_COLOR=1", "COLUMNS=", "TERM=xterm", "PAGER=", "GIT_PAGER=")
	r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr = term, term, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Only the child holds the terminal side now: when it exits, reading
	// the other side ends (EIO).
	term.Close()
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := reader.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
			r.cmd.Wait()
		}
	})
	return r
}

// text is the output so far, with the terminal's CRLF as "\n".
func (r *terminalRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.ReplaceAll(r.out.String(), "\r\n", "\n")
}

// expect waits until the output holds want after what was matched before;
// a guard against a hang, not a timing assertion.
func (r *terminalRun) expect(want string) {
	r.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out := r.text()
		if i := strings.Index(out[r.seen:], want); i >= 0 {
			r.seen += i + len(want)
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *terminalRun) send(keys string) {
	r.t.Helper()
	if _, err := r.reader.Write([]byte(keys)); err != nil {
		r.t.Fatal(err)
	}
}

// wait ends the run: its exit code and everything it showed.
func (r *terminalRun) wait() (int, string) {
	r.t.Helper()
	err := r.cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	r.reader.Close()
	<-r.done
	return code, r.text()
}

const (
	reviewBBefore = "b1\nb2\nb3\nb4\nb5\nb6\n"
	reviewBAfter  = "b1\nB2\nb3\nb4\nB5\nb6\n"
)

// Issue 26, review: `git edit review` on a terminal walks the net change
// hunk by hunk; keep two, reject one, split one and reject one part: the
// worktree and the one reject commit are exactly right, git fsck is clean,
// and undo of the reject restores the hunks byte for byte.
func TestReviewOnATerminal(t *testing.T) {
	dir, _ := sessionOfFiles(t, map[string]string{"a.txt": rejectBefore, "b.txt": reviewBBefore}, map[string]string{"a.txt": rejectAfter, "b.txt": reviewBAfter})
	// On a pipe it refuses and points to reject.
	before := rejectState(t, dir)
	r := gitEdit(t, dir, "", nil, "review", "--session", "s")
	if want := "git-edit: standard input is not a terminal: review asks about each hunk on a terminal; nothing was changed. From a script, reject hunks by number with `git edit reject PATH --hunk N` (the numbers `git edit diff` prints)\n"; r.code != 1 || r.stderr != want {
		t.Fatalf("review on a pipe: exit %d %q", r.code, r.stderr)
	}
	if rejectState(t, dir) != before {
		t.Fatal("review on a pipe changed something")
	}

	run := startOnTerminal(t, dir, "review", "--session", "s")
	run.expect("(1/4) Keep this hunk [y,n,q,?]? ")
	run.send("y\n")
	run.expect("(2/4) Keep this hunk [y,n,q,?]? ")
	run.send("n\n")
	run.expect("(3/4) Keep this hunk [y,n,q,?]? ")
	run.send("?\n")
	run.expect("(3/4) Keep this hunk [y,n,q,?]? ")
	run.send("y\n")
	run.expect("(4/4) Keep this hunk [y,n,s,q,?]? ")
	run.send("s\n")
	run.expect("(4/5) Keep this hunk [y,n,q,?]? ")
	run.send("n\n")
	run.expect("(5/5) Keep this hunk [y,n,q,?]? ")
	run.send("y\n")
	code, out := run.wait()
	tip := gittest.Rev(t, dir, "refs/edits/s")
	id := tip[:7]
	want := "--- a/a.txt\n+++ b/a.txt\n" +
		"@@ -1,5 +1,5 @@\n l1\n-l2\n+TWO\n l3\n l4\n l5\n(1/4) Keep this hunk [y,n,q,?]? y\n" +
		"@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+TEN\n l11\n l12\n l13\n(2/4) Keep this hunk [y,n,q,?]? n\n" +
		"@@ -15,6 +15,7 @@\n l15\n l16\n l17\n-l18\n+EIGHTEEN\n+extra\n l19\n l20\n(3/4) Keep this hunk [y,n,q,?]? ?\n" +
		reviewHelp + "(3/4) Keep this hunk [y,n,q,?]? y\n" +
		"--- a/b.txt\n+++ b/b.txt\n" +
		"@@ -1,6 +1,6 @@\n b1\n-b2\n+B2\n b3\n b4\n-b5\n+B5\n b6\n(4/4) Keep this hunk [y,n,s,q,?]? s\nSplit into 2 hunks.\n" +
		"@@ -1,4 +1,4 @@\n b1\n-b2\n+B2\n b3\n b4\n(4/5) Keep this hunk [y,n,q,?]? n\n" +
		"@@ -3,4 +3,4 @@\n b3\n b4\n-b5\n+B5\n b6\n(5/5) Keep this hunk [y,n,q,?]? y\n" +
		"Rejected 2 hunks, recorded as " + id + ":\n" +
		"  a.txt hunk 2 @@ -7,7 +7,7 @@\n  b.txt hunk 1 part 1 @@ -1,4 +1,4 @@\n" +
		"  changed    a.txt (+1 -1)\n  changed    b.txt (+1 -1)\n" +
		"To take the reject back, run `git edit undo --session s " + id + "`.\n" +
		"--- a/a.txt\n+++ b/a.txt\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-TEN\n+l10\n l11\n l12\n l13\n" +
		"--- a/b.txt\n+++ b/b.txt\n@@ -1,5 +1,5 @@\n b1\n-B2\n+b2\n b3\n b4\n B5\n"
	if code != 0 || out != want {
		t.Fatalf("review: exit %d %s\n%q\nwant\n%q", code, run.stderr.String(), out, want)
	}
	wantA, wantB := strings.Replace(rejectAfter, "TEN\n", "l10\n", 1), "b1\nb2\nb3\nb4\nB5\nb6\n"
	if a, b := gittest.ReadFile(t, dir, "a.txt"), gittest.ReadFile(t, dir, "b.txt"); a != wantA || b != wantB {
		t.Fatalf("after review: a.txt %q, b.txt %q", a, b)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%s%n%(trailers:key=Edit-Op,key=Edit-Tool,key=Edit-Rejects)", "refs/edits/s"); got != "reject 1 hunk of a.txt, 1 hunk of b.txt\nEdit-Op: reject\nEdit-Tool: git-edit review\nEdit-Rejects: a.txt @@ -7,7 +7,7 @@\nEdit-Rejects: b.txt @@ -1,4 +1,4 @@\n\n" {
		t.Fatalf("the reject commit:\n%s", got)
	}
	if got := gittest.Git(t, dir, "diff", "refs/edits/s~1", "refs/edits/s"); got != "diff --git a/a.txt b/a.txt\nindex "+gittest.Rev(t, dir, "refs/edits/s~1:a.txt")[:7]+".."+gittest.Rev(t, dir, "refs/edits/s:a.txt")[:7]+" 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-TEN\n+l10\n l11\n l12\n l13\n"+
		"diff --git a/b.txt b/b.txt\nindex "+gittest.Rev(t, dir, "refs/edits/s~1:b.txt")[:7]+".."+gittest.Rev(t, dir, "refs/edits/s:b.txt")[:7]+" 100644\n--- a/b.txt\n+++ b/b.txt\n@@ -1,5 +1,5 @@\n b1\n-B2\n+b2\n b3\n b4\n B5\n" {
		t.Fatalf("the reject commit's diff:\n%q", got)
	}
	gittest.Fsck(t, dir)

	// Undo of the reject restores the rejected hunks exactly.
	if r := gitEdit(t, dir, "", nil, "undo", "--session", "s", id); r.code != 0 {
		t.Fatalf("undo: %+v", r)
	}
	if a, b := gittest.ReadFile(t, dir, "a.txt"), gittest.ReadFile(t, dir, "b.txt"); a != rejectAfter || b != reviewBAfter {
		t.Fatalf("after undo of the reject: a.txt %q, b.txt %q", a, b)
	}
	gittest.Fsck(t, dir)

	// A hunk the person changes while the review asks is refused at the
	// end, naming it; nothing changes.
	run = startOnTerminal(t, dir, "review", "--session", "s", "a.txt")
	run.expect("(1/3) Keep this hunk [y,n,q,?]? ")
	run.send("y\n")
	run.expect("(2/3) Keep this hunk [y,n,q,?]? ")
	gittest.WriteFile(t, dir, "a.txt", strings.Replace(rejectAfter, "TEN\n", "ten by hand\n", 1))
	before = rejectState(t, dir)
	run.send("n\n")
	run.expect("(3/3) Keep this hunk [y,n,q,?]? ")
	run.send("q\n")
	code, out = run.wait()
	if want := "git-edit: cannot reject: hunk 2 of a.txt (@@ -7,7 +7,7 @@) (line 10 of the file on disk) was changed since the session's edit, and rejecting would overwrite that; nothing was changed. Keep it, or edit those lines by hand; the other hunks can be rejected alone (see them numbered with `git edit diff --session s`)\n"; code != 1 || run.stderr.String() != want {
		t.Fatalf("review of a changed hunk: exit %d %q\n%s", code, run.stderr.String(), out)
	}
	if rejectState(t, dir) != before {
		t.Fatal("the refused review changed something")
	}
}
