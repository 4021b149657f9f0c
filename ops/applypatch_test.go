package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// An apply_patch that adds, moves and deletes is one commit; undo (of the
// session's newest edit) puts every file of it back, redo re-applies it,
// and rollback returns the worktree to HEAD: git status is clean again.
func TestApplyPatchMoveAndDeleteAreUndoneAsOne(t *testing.T) {
	head := map[string]string{"src/app.py": "def greet():\n    print(\"Hi\")\n", "obsolete.txt": "old\n"}
	dir := gittest.NewWithCommit(t, head)
	patch := "*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")\n*** Delete File: obsolete.txt\n*** End Patch"
	args, _ := json.Marshal(map[string]string{"input": patch})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	res, err := e.Call(ctx, "apply_patch", args)
	if err != nil || !res.OK {
		t.Fatalf("apply_patch: %v %s", err, res.Text)
	}
	applied := map[string]string{"hello.txt": "Hello\n", "src/main.py": "def greet():\n    print(\"Hello\")\n", "src/app.py": gittest.Missing, "obsolete.txt": gittest.Missing}
	expectFiles(t, dir, applied)
	if n := strings.Count(gittest.Git(t, dir, "log", "--format=%H", "HEAD..refs/edits/s"), "\n"); n != 1 {
		t.Fatalf("%d commits, want 1", n)
	}
	if got := gittest.Git(t, dir, "diff", "--name-status", "-M", "HEAD", "refs/edits/s"); !strings.Contains(got, "D\tobsolete.txt") || !strings.Contains(got, "A\thello.txt") || !strings.Contains(got, "src/main.py") {
		t.Fatalf("the commit records %q", got)
	}

	if _, err := e.Undo(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{"src/app.py": head["src/app.py"], "obsolete.txt": "old\n", "hello.txt": gittest.Missing, "src/main.py": gittest.Missing}
	expectFiles(t, dir, before)
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("after undo, git status says %q", st)
	}
	if _, err := e.Redo(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	expectFiles(t, dir, applied)
	if _, err := e.Rollback(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	expectFiles(t, dir, before)
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("after rollback, git status says %q", st)
	}
	gittest.Fsck(t, dir)
}

func expectFiles(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	for path, content := range want {
		if got := gittest.ReadFile(t, dir, path); got != content {
			t.Fatalf("%s = %q, want %q", path, got, content)
		}
	}
}
