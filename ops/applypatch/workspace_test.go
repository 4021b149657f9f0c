package applypatch_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestForgivenHunkEditMatchTrailer_CopilotIssue267547 runs a patch whose
// hunk matches only with its indentation ignored through the real
// workspace: the file on disk is re-indented (VS Code Copilot Chat's
// microsoft/vscode#267547), the agent reads what was forgiven, the
// session commit carries the Edit-Match trailer git itself parses, undo
// puts back the exact bytes, and git fsck is clean.
func TestForgivenHunkEditMatchTrailer_CopilotIssue267547(t *testing.T) {
	const before = "services:\n  web:\n    environment:\n      - A=1\n      - B=2\n"
	dir := gittest.NewWithCommit(t, map[string]string{"ci.yaml": before})
	head := gittest.Rev(t, dir, "HEAD")
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()

	args, err := json.Marshal(map[string]string{"input": "*** Begin Patch\n*** Update File: ci.yaml\n@@\n   environment:\n     - A=1\n-    - B=2\n+    - B=3\n+    - C=4\n*** End Patch"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Call(context.Background(), "apply_patch", args)
	if err != nil || !res.OK {
		t.Fatalf("apply_patch refused: %v %s", err, res.Text)
	}
	const forgiven = "Hunk 1 of ci.yaml matched at line 3 ignoring leading whitespace on 3 lines; its added lines were re-indented as the file indents the lines they follow.\n"
	if want := "Success. Updated the following files:\nM ci.yaml\n" + forgiven; res.Text != want {
		t.Fatalf("result:\n%s\nwant:\n%s", res.Text, want)
	}
	if got, want := gittest.ReadFile(t, dir, "ci.yaml"), "services:\n  web:\n    environment:\n      - A=1\n      - B=3\n      - C=4\n"; got != want {
		t.Fatalf("ci.yaml = %q, want %q", got, want)
	}
	trailer := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Match,valueonly)", "refs/edits/s")
	if want := "indentation: hunk 1 of ci.yaml at line 3, leading whitespace on 3 lines\n"; strings.TrimRight(trailer, "\n")+"\n" != want {
		t.Fatalf("Edit-Match trailer = %q, want %q", trailer, want)
	}
	if n := strings.Count(gittest.Git(t, dir, "log", "--format=%H", head+"..refs/edits/s"), "\n"); n != 1 {
		t.Fatalf("%d session commits, want 1", n)
	}

	if _, err := e.Undo(context.Background(), "ci.yaml", false); err != nil {
		t.Fatal(err)
	}
	if got := gittest.ReadFile(t, dir, "ci.yaml"); got != before {
		t.Fatalf("after undo ci.yaml = %q, want %q", got, before)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("git status after undo: %q", st)
	}
	gittest.Fsck(t, dir)
}
