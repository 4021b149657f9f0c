package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/gittest"
)

// smallShape is gitShaped in miniature, quick enough for a test.
var smallShape = shape{Seed: 7, Dirs: 20, Files: 120, MaxDepth: 3, Commits: 30, MaxTouch: 6, MinSize: 100, MaxSize: 4 << 10,
	Extra: map[string][]byte{"bench/f.txt": textFile(1 << 10)}}

// The same shape gives the same repository, to the commit id; another
// seed gives another; git finds the result sound.
func TestShapedIsReproducible(t *testing.T) {
	gen := func(s shape) (dir, tree, commit string) {
		dir = filepath.Join(t.TempDir(), "r")
		if err := generateShaped(dir, s); err != nil {
			t.Fatal(err)
		}
		return dir, gittest.Rev(t, dir, "HEAD^{tree}"), gittest.Rev(t, dir, "HEAD")
	}
	dir, tree1, commit1 := gen(smallShape)
	_, tree2, commit2 := gen(smallShape)
	if tree1 != tree2 || commit1 != commit2 {
		t.Fatalf("same seed, different repositories: tree %s vs %s, commit %s vs %s", tree1, tree2, commit1, commit2)
	}
	other := smallShape
	other.Seed++
	if _, tree3, _ := gen(other); tree3 == tree1 {
		t.Fatal("another seed gave the same tree")
	}
	gittest.Fsck(t, dir)
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("worktree not clean after generation:\n%s", st)
	}
	if n := strings.Count(gittest.Git(t, dir, "rev-list", "HEAD"), "\n"); n != smallShape.Commits+2 {
		t.Fatalf("%d commits, want %d", n, smallShape.Commits+2)
	}
	files := strings.Count(gittest.Git(t, dir, "ls-files"), "\n")
	if files != smallShape.Files+len(smallShape.Extra) {
		t.Fatalf("%d files, want %d", files, smallShape.Files+len(smallShape.Extra))
	}
	if packs := gittest.Git(t, dir, "count-objects", "-v"); !strings.Contains(packs, "packs: 1\n") || !strings.Contains(packs, "count: 0\n") {
		t.Fatalf("want every object in one pack:\n%s", packs)
	}
}

var (
	binOnce sync.Once
	binDir  string // removed by TestMain
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// gitEdit builds git-edit once for the tests that need the real binary.
func gitEdit(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "git-edit-bench-test-"); binErr == nil {
			binPath = filepath.Join(binDir, "git-edit")
			binErr = build(binPath)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// A built session is one git-edit reads as its own, made as an agent
// makes one: sessions counts its edits, log lists them (str_replace and
// insert, with their line counts), every edit is its own operation (one
// ref update each, never fast-import), and the next real edit, of a built
// path and of a new one, follows it without a sync commit.
func TestBuildSessionIsOneGitEditReads(t *testing.T) {
	bin := gitEdit(t)
	files := map[string]string{"other.txt": "x\n"}
	paths := []string{"hist/a.txt", "hist/d/b.txt", "hist/e/c.txt"}
	for _, p := range append(paths, "new.txt") {
		files[p] = string(histFile(0))
	}
	dir := gittest.NewWithCommit(t, files)
	const n = 20
	counters, err := buildSession(dir, bin, "built", n, paths)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Fsck(t, dir)
	// The session's tip holds what is on disk.
	for _, p := range paths {
		if d := gittest.Git(t, dir, "diff", "refs/edits/built", "--", p); d != "" {
			t.Fatalf("%s on disk differs from the session's tip:\n%s", p, d)
		}
	}
	run := func(stdin string, args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git-edit %s: %v\n%s%s", strings.Join(args, " "), err, out, stderrOf(err))
		}
		return string(out)
	}
	var sessions []struct {
		Session        string
		Commits, Edits int
		Paths          []string
	}
	if err := json.Unmarshal([]byte(run("", "sessions", "--json")), &sessions); err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 || sessions[0].Session != "built" || sessions[0].Edits != n || sessions[0].Commits != n || len(sessions[0].Paths) != len(paths) {
		t.Fatalf("sessions: %+v", sessions)
	}
	var log []struct {
		Op, Tool       string
		Paths          []string
		Added, Removed int
	}
	if err := json.Unmarshal([]byte(run("", "log", "--json", "--session", "built")), &log); err != nil {
		t.Fatal(err)
	}
	if len(log) != n {
		t.Fatalf("log lists %d commits, want %d", len(log), n)
	}
	for i, e := range log {
		k := n - 1 - i // the edit's number, from 0
		want, tool, removed := paths[k%len(paths)], "text_editor.str_replace", 1
		if k%insertEvery == insertEvery-1 {
			tool, removed = "text_editor.insert", 0
		}
		if e.Op != "edit" || e.Tool != tool || len(e.Paths) != 1 || e.Paths[0] != want || e.Added != 1 || e.Removed != removed {
			t.Fatalf("log entry %d: %+v, want a %s of %s, +1 -%d", i, e, tool, want, removed)
		}
	}
	// One ref update per edit: each was its own operation.
	if got := strings.Count(gittest.Git(t, dir, "reflog", "show", "refs/edits/built"), "\n"); got != n {
		t.Fatalf("the session's ref moved %d times for %d edits", got, n)
	}
	// Real edits follow, with no sync commit: the built state is git-edit's.
	tip := gittest.Rev(t, dir, "refs/edits/built")
	for _, p := range []string{paths[0], "new.txt"} {
		from := counters[p]
		args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, p, counterLine(from), counterLine(from+1))
		if out := run(args, "call", "--session", "built", texteditor.ToolName); !strings.Contains(out, `"success"`) {
			t.Fatalf("edit of %s: %s", p, out)
		}
	}
	if got := strings.Count(gittest.Git(t, dir, "rev-list", tip+"..refs/edits/built"), "\n"); got != 2 {
		t.Fatalf("%d commits after the built tip, want 2 (no sync)", got)
	}
	if out := run("", "undo", "--session", "built"); out == "" {
		t.Fatal("undo printed nothing")
	}
	// The undo of new.txt's edit leaves it as HEAD has it.
	if d := gittest.Git(t, dir, "diff", "HEAD", "--", "new.txt"); d != "" {
		t.Fatalf("undo left new.txt changed:\n%s", d)
	}
	gittest.Fsck(t, dir)
}

// stderrOf is what a failed command wrote to stderr, for the message.
func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
