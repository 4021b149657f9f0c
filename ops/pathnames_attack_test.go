package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// warmUp makes one edit, so that git-edit's state directory and edit lock
// exist before the refusals are watched: they are made once per
// repository, not by the refused calls.
func warmUp(t *testing.T, w string) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"command": "create", "path": "warm.txt", "file_text": "warm\n"})
	if res, err := ops.Call(context.Background(), ops.Options{Root: w, Session: "s"}, "text_editor", raw); err != nil || !res.OK {
		t.Fatalf("warm-up edit: %v %+v", err, res.Value)
	}
}

// refusedUnchanged calls tool with args on the worktree w and asserts the
// call is refused and that nothing under base (the worktree and the git
// directory: files, modes, refs, objects) changed, byte for byte. The
// refusal must say says.
func refusedUnchanged(t *testing.T, base, w, tool string, args any, says string) {
	t.Helper()
	raw, _ := json.Marshal(args)
	before := gittest.TreeSnapshot(t, base)
	res, err := ops.Call(context.Background(), ops.Options{Root: w, Session: "s"}, tool, raw)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, raw, err)
	}
	out, _ := json.Marshal(res.Value)
	if res.OK {
		t.Fatalf("%s %s: accepted: %s", tool, raw, out)
	}
	if !strings.Contains(string(out), says) {
		t.Errorf("%s %s: the refusal does not say %q: %s", tool, raw, says, out)
	}
	if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, base)); d != "" {
		t.Fatalf("%s %s: refused (%s), but files changed:\n%s", tool, raw, out, d)
	}
}

// TestAttackWindowsAndMacNamesChangeNothing sends every writing tool the
// names git refuses: the other names of .git on NTFS and HFS+ (refused on
// every OS), and, under Windows' rules, reserved device names, trailing
// dots and spaces, streams, forbidden characters and drive-relative paths.
// Each refusal must leave the worktree, the git directory and every ref
// exactly as they were.
func TestAttackWindowsAndMacNamesChangeNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"ok.txt": "fine\n", "dir/in.txt": "in\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	everywhere := []string{
		".git./config", ".git /hooks/pre-commit", ".GIT::$INDEX_ALLOCATION/config", "git~1/config",
		"GIT~1/hooks/pre-commit", `dir\.git\config`, ".g\u200cit/config", "\ufeff.git/HEAD", "dir/.gi\u200ft",
	}
	windows := []string{
		"CON", "nul.txt", "dir/AUX.tar.gz", "COM1", "lpt9.log", "CONOUT$", "ok.txt.", "ok.txt ", "dir./in.txt",
		"ok.txt:Zone.Identifier", "a<b", "what?", "star*", "ctl\x01", "C:ok.txt", `\ok.txt`,
	}
	warmUp(t, dir)
	run := func(paths []string, says string) {
		for _, p := range paths {
			for tool, args := range writers(t, p) {
				if tool == "apply_patch" && strings.HasSuffix(p, " ") {
					continue // the patch format trims the space off its header
				}
				refusedUnchanged(t, dir, dir, tool, args, says)
			}
		}
	}
	run(everywhere, "git refuses it in every repository")
	restore := repo.SetPathRulesOS("windows")
	defer restore()
	run(windows[:len(windows)-2], "Windows")
	run(windows[len(windows)-2:], "drive")
	run(everywhere, "git refuses it in every repository")
	restore()
	// The same names are ordinary files elsewhere, as git has them there.
	for _, p := range []string{"nul.txt", "what?"} {
		raw, _ := json.Marshal(map[string]any{"command": "create", "path": p, "file_text": "x\n"})
		if res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, "text_editor", raw); err != nil || !res.OK {
			t.Fatalf("create %q without Windows' rules: %v %+v", p, err, res.Value)
		}
	}
	gittest.Fsck(t, dir)
}

// TestAttackGitDirUnderAnotherNameChangesNothing writes, with every writing
// tool, into a git directory that lives in the worktree (GIT_DIR=w/gitdata)
// and is named to git through a symlink above the worktree, so its name
// and the resolved path differ as they do for w/GITDATA on a
// case-insensitive file system. Every call must be refused with nothing
// changed in the worktree or the git directory.
func TestAttackGitDirUnderAnotherNameChangesNothing(t *testing.T) {
	gittest.Isolate(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := filepath.Join(base, "w")
	gittest.Git(t, base, "init", "-q", w)
	gittest.WriteFile(t, w, "f.txt", "f\n")
	gittest.Git(t, w, "add", "f.txt")
	gittest.Git(t, w, "commit", "-q", "-m", "one")
	gittest.Git(t, w, "config", "edit.requireRead", "false")
	must(t, os.Rename(filepath.Join(w, ".git"), filepath.Join(w, "gitdata")))
	must(t, os.Symlink(w, filepath.Join(base, "link")))
	t.Setenv("GIT_DIR", filepath.Join(base, "link", "gitdata"))
	t.Setenv("GIT_WORK_TREE", w)
	warmUp(t, w)
	for _, p := range []string{"gitdata/config", "gitdata/hooks/pre-commit", "gitdata/HEAD", "gitdata/refs/heads/planted"} {
		for tool, args := range writers(t, p) {
			refusedUnchanged(t, base, w, tool, args, "inside the git directory")
		}
	}
}
