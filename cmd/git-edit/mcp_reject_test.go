package main

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// edit_reject over MCP: the hunks as edit_history "diff": true numbers
// them; the dry run answers with the exact diff and changes nothing; an
// out-of-range hunk and bad arguments are tool errors that change
// nothing; the real call records one reject commit with the exact text.
func TestMCPEditReject(t *testing.T) {
	dir, _ := sessionOfFiles(t, map[string]string{"a.txt": rejectBefore}, map[string]string{"a.txt": rejectAfter})
	cs := connect(t, dir, "s", nil, nil)
	text, _, isErr := callMeta(t, cs, "edit_history", map[string]any{"diff": true}, nil)
	if isErr || !strings.Contains(text, "@@ -7,7 +7,7 @@ hunk 2\n") || !strings.Contains(text, "@@ -15,6 +15,7 @@ hunk 3\n") {
		t.Fatalf("edit_history diff: %v %q", isErr, text)
	}
	before := rejectState(t, dir)
	wantDiff := "--- a/a.txt\n+++ b/a.txt\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-TEN\n+l10\n l11\n l12\n l13\n"
	text, obj, isErr := callMeta(t, cs, "edit_reject", map[string]any{"path": "a.txt", "hunks": []int{2}, "dry_run": true}, nil)
	if want := "Dry run: nothing was written or recorded. Would reject 1 hunk:\n  a.txt hunk 2 @@ -7,7 +7,7 @@\n  changed    a.txt (+1 -1)\n" + wantDiff; isErr || text != want || obj["diff"] != wantDiff || obj["dry_run"] != true {
		t.Fatalf("dry run: %v\n%q\nwant\n%q\n%v", isErr, text, want, obj)
	}
	if rejectState(t, dir) != before {
		t.Fatal("the dry run changed something")
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "a.txt", "hunks": []int{4}}, "no such hunk: a.txt has 3 hunks in session s's change, so there is no hunk 4; nothing was changed. See them numbered with `git edit diff --session s a.txt`"},
		{map[string]any{"path": "a.txt", "hunks": []int{}}, `"hunks" is empty; give the numbers of the hunks to reject`},
		{map[string]any{"path": "a.txt", "hunks": []any{"2"}}, `"hunks" must be a whole number, got a string`},
		{map[string]any{"path": "a.txt"}, `give "path" and "hunks"`},
		{map[string]any{"path": "../outside.txt", "hunks": []int{1}}, "outside"},
	} {
		text, _, isErr := callMeta(t, cs, "edit_reject", c.args, nil)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%v: %v %q; want %q", c.args, isErr, text, c.want)
		}
		if rejectState(t, dir) != before {
			t.Fatalf("%v changed something", c.args)
		}
	}
	text, obj, isErr = callMeta(t, cs, "edit_reject", map[string]any{"path": "a.txt", "hunks": []int{2}}, nil)
	tip := gittest.Rev(t, dir, "refs/edits/s")
	if want := "Rejected 1 hunk, recorded as " + tip[:12] + ":\n  a.txt hunk 2 @@ -7,7 +7,7 @@\n  changed    a.txt (+1 -1)\nTo take the reject back, run `git edit undo --session s " + tip[:12] + "`.\n" + wantDiff; isErr || text != want || obj["commit"] != tip {
		t.Fatalf("reject: %v\n%q\nwant\n%q\n%v", isErr, text, want, obj)
	}
	if got, want := gittest.ReadFile(t, dir, "a.txt"), strings.Replace(rejectAfter, "TEN\n", "l10\n", 1); got != want {
		t.Fatalf("a.txt: %q", got)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)%(trailers:key=Edit-Rejects,valueonly)", "refs/edits/s"); got != "reject\na.txt @@ -7,7 +7,7 @@\n\n" {
		t.Fatalf("trailers: %q", got)
	}
	gittest.Fsck(t, dir)
}
