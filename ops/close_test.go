package ops_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// filterRepo is a repository at dir whose *.txt files go through a filter
// driver (a round trip), with a.txt committed and checked out.
func filterRepo(t *testing.T, dir string) {
	t.Helper()
	gittest.Git(t, dir, "init", "-q")
	gittest.Git(t, dir, "config", "filter.f.clean", "cat")
	gittest.Git(t, dir, "config", "filter.f.smudge", "cat")
	gittest.Git(t, dir, "config", "filter.f.required", "true")
	gittest.WriteFile(t, dir, ".gitattributes", "*.txt filter=f\n")
	gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
}

// catFiles counts the `git cat-file` processes that are children of this
// test process and run in dir (other tests of the package may run their
// own elsewhere), read from /proc.
func catFiles(t *testing.T, dir string) int {
	t.Helper()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	self := strconv.Itoa(os.Getpid())
	n := 0
	for _, en := range entries {
		pid := en.Name()
		if _, err := strconv.Atoi(pid); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid ...: comm may hold blanks, so split
		// after its closing parenthesis.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[1] != self || f[0] == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
		cwd, _ := os.Readlink(filepath.Join("/proc", pid, "cwd"))
		if strings.Contains(string(cmdline), "cat-file\x00--batch") && cwd == dir {
			n++
		}
	}
	return n
}

// TestCloseStopsConversionProcesses: an engine that converted files (its
// own repository's and a nested repository's) keeps one `git cat-file
// --batch --filters` per repository between calls; Close stops them all,
// and the engine stays usable: a later call starts a new one.
func TestCloseStopsConversionProcesses(t *testing.T) {
	gittest.Isolate(t)
	top := t.TempDir()
	filterRepo(t, top)
	sub := filepath.Join(top, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	filterRepo(t, sub)
	e, err := ops.Open(ops.Options{Root: top, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	edit := func(path, old, new string) {
		t.Helper()
		res, err := e.Call(context.Background(), "text_editor", []byte(`{"command":"str_replace","path":"`+path+`","old_str":"`+old+`","new_str":"`+new+`"}`))
		if err != nil || !res.OK {
			t.Fatalf("edit %s: %v %s", path, err, res.Text)
		}
	}
	edit("a.txt", "one", "ONE")
	edit("sub/a.txt", "two", "TWO")
	if n, m := catFiles(t, top), catFiles(t, sub); n != 1 || m != 1 {
		t.Fatalf("before Close: %d cat-file processes in the repository and %d in the nested one, want 1 each", n, m)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n, m := catFiles(t, top), catFiles(t, sub); n != 0 || m != 0 {
		t.Fatalf("after Close: %d cat-file processes in the repository and %d in the nested one, want none", n, m)
	}
	// Closed, the engine still serves calls: the process starts again.
	edit("a.txt", "two", "2")
	if got := gittest.ReadFile(t, top, "a.txt"); got != "ONE\n2\n" {
		t.Errorf("a.txt = %q after the call following Close", got)
	}
	if n := catFiles(t, top); n != 1 {
		t.Errorf("a call after Close: %d cat-file processes, want 1", n)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if n := catFiles(t, top); n != 0 {
		t.Errorf("after the second Close: %d cat-file processes, want none", n)
	}
	gittest.Fsck(t, top)
	gittest.Fsck(t, sub)
}

// TestCallClosesItsEngine: the one-shot Call (the CLI's `git-edit call`)
// leaves no conversion process behind.
func TestCallClosesItsEngine(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	filterRepo(t, dir)
	res, err := ops.Call(context.Background(), ops.Options{Root: dir, Session: "s"}, "text_editor",
		[]byte(`{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"ONE"}`))
	if err != nil || !res.OK {
		t.Fatalf("call: %v %s", err, res.Text)
	}
	if n := catFiles(t, dir); n != 0 {
		t.Errorf("after Call: %d cat-file processes, want none", n)
	}
}
