package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// rejectBefore and rejectAfter: one file whose session change is three
// hunks (two changed lines and a replacement by two lines, each more than
// six lines from the next).
const rejectBefore = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20\n"

var rejectAfter = strings.NewReplacer("l2\n", "TWO\n", "l10\n", "TEN\n", "l18\n", "EIGHTEEN\nextra\n").Replace(rejectBefore)

// rejectState is what a refusal must leave as it was: every file's bytes,
// the session refs, and the person's state (HEAD, index, branches).
func rejectState(t *testing.T, dir string) string {
	t.Helper()
	return fmt.Sprint(gittest.TreeSnapshot(t, dir), gittest.Git(t, dir, "for-each-ref", "refs/edits"), gittest.Snapshot(t, dir))
}

// git edit diff numbers the hunks; git edit reject takes them back by
// those numbers, dry run first, as one reject commit with a trailer per
// hunk that undo takes back; an out-of-range hunk and a hunk the person
// changed since are refused, naming it, with nothing changed.
func TestRejectCommandByHunkNumber(t *testing.T) {
	dir, _ := sessionOfFiles(t, map[string]string{"a.txt": rejectBefore}, map[string]string{"a.txt": rejectAfter})
	r := gitEdit(t, dir, "", nil, "diff", "--session", "s")
	wantDiff := "--- a/a.txt\n+++ b/a.txt\n" +
		"@@ -1,5 +1,5 @@ hunk 1\n l1\n-l2\n+TWO\n l3\n l4\n l5\n" +
		"@@ -7,7 +7,7 @@ hunk 2\n l7\n l8\n l9\n-l10\n+TEN\n l11\n l12\n l13\n" +
		"@@ -15,6 +15,7 @@ hunk 3\n l15\n l16\n l17\n-l18\n+EIGHTEEN\n+extra\n l19\n l20\n"
	if r.code != 0 || r.stdout != wantDiff {
		t.Fatalf("diff: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
	// The numbered diff still applies: git apply ignores the labels.
	patch := filepath.Join(t.TempDir(), "net.patch")
	os.WriteFile(patch, []byte(wantDiff), 0o644)
	if out, err := gittest.GitErr(dir, "apply", "--check", "-R", patch); err != nil {
		t.Fatalf("git apply -R of the numbered diff: %v %s", err, out)
	}

	before := rejectState(t, dir)
	wantReport := "  a.txt hunk 2 @@ -7,7 +7,7 @@\n  a.txt hunk 3 @@ -15,6 +15,7 @@\n  changed    a.txt (+2 -3)\n"
	wantRejectDiff := "--- a/a.txt\n+++ b/a.txt\n" +
		"@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-TEN\n+l10\n l11\n l12\n l13\n" +
		"@@ -15,7 +15,6 @@\n l15\n l16\n l17\n-EIGHTEEN\n-extra\n+l18\n l19\n l20\n"
	r = gitEdit(t, dir, "", nil, "reject", "--session", "s", "a.txt", "--hunk", "3", "--hunk", "2", "--dry-run")
	if want := "Dry run: nothing was written or recorded. Would reject 2 hunks:\n" + wantReport + wantRejectDiff; r.code != 0 || r.stdout != want {
		t.Fatalf("dry run: exit %d %s\n%q\nwant\n%q", r.code, r.stderr, r.stdout, want)
	}
	if rejectState(t, dir) != before {
		t.Fatal("the dry run changed something")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hunk", "4"}, "git-edit: no such hunk: a.txt has 3 hunks in session s's change, so there is no hunk 4; nothing was changed. See them numbered with `git edit diff --session s a.txt`\n"},
		{[]string{"--hunk", "0"}, "git-edit: no such hunk: a.txt has 3 hunks in session s's change, so there is no hunk 0; nothing was changed. See them numbered with `git edit diff --session s a.txt`\n"},
	} {
		r = gitEdit(t, dir, "", nil, append([]string{"reject", "--session", "s", "a.txt"}, c.args...)...)
		if r.code != 1 || r.stdout != "" || r.stderr != c.want {
			t.Errorf("reject %v: exit %d %q %q", c.args, r.code, r.stdout, r.stderr)
		}
		if rejectState(t, dir) != before {
			t.Fatalf("reject %v changed something", c.args)
		}
	}

	r = gitEdit(t, dir, "", nil, "reject", "--session", "s", "a.txt", "--hunk", "2", "--hunk", "3")
	id := gittest.Rev(t, dir, "refs/edits/s")[:7]
	want := "Rejected 2 hunks, recorded as " + id + ":\n" + wantReport + "To take the reject back, run `git edit undo --session s " + id + "`.\n" + wantRejectDiff
	if r.code != 0 || r.stdout != want {
		t.Fatalf("reject: exit %d %s\n%q\nwant\n%q", r.code, r.stderr, r.stdout, want)
	}
	if got, want := gittest.ReadFile(t, dir, "a.txt"), strings.Replace(rejectBefore, "l2\n", "TWO\n", 1); got != want {
		t.Fatalf("a.txt after the reject:\n%q\nwant\n%q", got, want)
	}
	show := gittest.Git(t, dir, "show", "--format=%B", "refs/edits/s")
	seq := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Seq,valueonly)", "refs/edits/s"))
	prev := gittest.Rev(t, dir, "refs/edits/s~1")
	wantShow := "reject 2 hunks of a.txt\n\nEdit-Op: reject\nEdit-Tool: git-edit reject\nEdit-Session: s\nEdit-Path: a.txt\nEdit-Prev: " + prev + " a.txt\nEdit-Stat: 2 3 a.txt\n" +
		"Edit-Rejects: a.txt @@ -7,7 +7,7 @@\nEdit-Rejects: a.txt @@ -15,6 +15,7 @@\nEdit-Seq: " + seq + "\n\n\n" +
		"diff --git a/a.txt b/a.txt\nindex " + gittest.Rev(t, dir, "refs/edits/s~1:a.txt")[:7] + ".." + gittest.Rev(t, dir, "refs/edits/s:a.txt")[:7] + " 100644\n" + wantRejectDiff
	if show != wantShow {
		t.Fatalf("git show of the reject:\n%q\nwant\n%q", show, wantShow)
	}
	gittest.Fsck(t, dir)

	// Undo of the reject puts the hunks back, byte for byte.
	r = gitEdit(t, dir, "", nil, "undo", "--session", "s", id)
	if r.code != 0 || gittest.ReadFile(t, dir, "a.txt") != rejectAfter {
		t.Fatalf("undo of the reject: exit %d %s %s\n%q", r.code, r.stdout, r.stderr, gittest.ReadFile(t, dir, "a.txt"))
	}

	// The person changes hunk 2's line: rejecting it is refused, naming
	// it; hunk 1 alone still goes, keeping the person's line.
	gittest.WriteFile(t, dir, "a.txt", strings.Replace(rejectAfter, "TEN\n", "ten by hand\n", 1))
	before = rejectState(t, dir)
	r = gitEdit(t, dir, "", nil, "reject", "--session", "s", "a.txt", "--hunk", "1", "--hunk", "2")
	if want := "git-edit: cannot reject: hunk 2 of a.txt (@@ -7,7 +7,7 @@) (line 10 of the file on disk) was changed since the session's edit, and rejecting would overwrite that; nothing was changed. Keep it, or edit those lines by hand; the other hunks can be rejected alone (see them numbered with `git edit diff --session s`)\n"; r.code != 1 || r.stderr != want {
		t.Fatalf("reject of a changed hunk: exit %d %q\nwant %q", r.code, r.stderr, want)
	}
	if rejectState(t, dir) != before {
		t.Fatal("the refused reject changed something")
	}
	r = gitEdit(t, dir, "", nil, "reject", "--session", "s", "a.txt", "--hunk", "1")
	if want := strings.NewReplacer("l10\n", "ten by hand\n", "l18\n", "EIGHTEEN\nextra\n").Replace(rejectBefore); r.code != 0 || gittest.ReadFile(t, dir, "a.txt") != want {
		t.Fatalf("reject of hunk 1: exit %d %s %s\n%q", r.code, r.stdout, r.stderr, gittest.ReadFile(t, dir, "a.txt"))
	}
	if !strings.HasPrefix(r.stdout, "Rejected 1 hunk; the changes on disk were recorded first as ") {
		t.Fatalf("reject after a change on disk: %q", r.stdout)
	}
	if got := gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly)", "-2", "refs/edits/s"); got != "reject\n\nsync\n\n" {
		t.Fatalf("ops: %q", got)
	}
	gittest.Fsck(t, dir)
}
