package ops_test

import (
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestEditOfAnotherCaseRecordsGitsPath: in a repository git made on a
// case-folding file system (core.ignoreCase), an agent's `readme.md`
// edits README.md and the session records README.md, the path git has,
// not a second path for the same file (which a case-sensitive checkout of
// the session would turn into two files).
func TestEditOfAnotherCaseRecordsGitsPath(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"README.md": "hello\n", "Docs/Guide.md": "guide\n"})
	gittest.Git(t, dir, "config", "core.ignoreCase", "true")
	e := openEngine(t, dir)
	engineCall(t, e, "text_editor", map[string]any{"command": "str_replace", "path": "readme.md", "old_str": "hello", "new_str": "hi"})
	engineCall(t, e, "text_editor", map[string]any{"command": "create", "path": "docs/new.md", "file_text": "new\n"})
	if got := gittest.ReadFile(t, dir, "README.md"); got != "hi\n" {
		t.Fatalf("README.md = %q", got)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "refs/edits/s"); got != "Docs/Guide.md\nDocs/new.md\nREADME.md\n" {
		t.Fatalf("the session's tree lists\n%s", got)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != " M README.md\n?? Docs/new.md\n" {
		t.Fatalf("git status:\n%s", got)
	}
	gittest.Fsck(t, dir)
}
