package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// gitEditProc runs the built binary once in dir and returns its exit code
// and stdout.
func gitEditProc(t *testing.T, bin, dir string, env []string, stdin string, args ...string) (int, string) {
	cmd := exec.Command(filepath.Join(bin, "git-edit"), args...)
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Errorf("run git-edit: %v", err)
	}
	return 0, out.String()
}

func strReplace(path, old, new string) string {
	return fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, path, old, new)
}

// watchRefs polls `git rev-parse` on refs until stop is closed and
// reports any moment a ref that existed was missing or unreadable.
func watchRefs(t *testing.T, dir string, refs []string, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		seen := map[string]bool{}
		for polls := 0; ; polls++ {
			select {
			case <-stop:
				if polls < 10 {
					t.Errorf("the ref watcher polled only %d times", polls)
				}
				return
			default:
			}
			for _, ref := range refs {
				out, err := gittest.GitErr(dir, "rev-parse", "--verify", "-q", ref)
				if err == nil {
					seen[ref] = true
					continue
				}
				if seen[ref] {
					t.Errorf("%s existed, then did not resolve: %s", ref, out)
					return
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return &wg
}

// 8 processes × 50 edits of one file in one session, and 8 sessions each
// editing a file of its own, all at once: every edit lands, in the file
// and in history; the refs never stop resolving; fsck is clean.
func TestConcurrentProcessesLoseNothing(t *testing.T) {
	bin := binDir(t)
	procs, edits := 8, 50
	if testing.Short() {
		edits = 8
	}
	files := map[string]string{}
	var shared strings.Builder
	for p := range procs {
		for l := range edits {
			fmt.Fprintf(&shared, "p%d-l%d old\n", p, l)
		}
		var own strings.Builder
		for l := range edits {
			fmt.Fprintf(&own, "line %d old\n", l)
		}
		files[fmt.Sprintf("own%d.txt", p)] = own.String()
	}
	files["shared.txt"] = shared.String()
	dir := gittest.NewWithCommit(t, files)
	person := gittest.Snapshot(t, dir)

	refs := []string{"refs/edits/shared"}
	for p := range procs {
		refs = append(refs, fmt.Sprintf("refs/edits/own%d", p))
	}
	stop := make(chan struct{})
	watcher := watchRefs(t, dir, refs, stop)
	var wg sync.WaitGroup
	var failures atomic.Int64
	for p := range procs {
		for _, job := range []struct{ session, file, line string }{
			{"shared", "shared.txt", "p%d-l%d"},
			{fmt.Sprintf("own%d", p), fmt.Sprintf("own%d.txt", p), "line %[2]d"},
		} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for l := range edits {
					line := fmt.Sprintf(job.line, p, l)
					code, out := gitEditProc(t, bin, dir, nil, strReplace(job.file, line+" old\n", line+" new\n"), "call", "--session", job.session, "--log-file", os.DevNull, "text_editor")
					if code != 0 {
						failures.Add(1)
						t.Errorf("%s %s: exit %d %s", job.session, line, code, out)
					}
				}
			}()
		}
	}
	wg.Wait()
	close(stop)
	watcher.Wait()
	if failures.Load() > 0 {
		t.FailNow()
	}
	if got := gittest.ReadFile(t, dir, "shared.txt"); strings.Contains(got, " old") || strings.Count(got, " new\n") != procs*edits {
		t.Fatalf("shared.txt lost edits:\n%s", got)
	}
	if c := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/shared"); c != fmt.Sprintf("%d\n", procs*edits) {
		t.Fatalf("shared session has %s commits, want %d", c, procs*edits)
	}
	for p := range procs {
		if got := gittest.ReadFile(t, dir, fmt.Sprintf("own%d.txt", p)); strings.Contains(got, " old") {
			t.Fatalf("own%d.txt lost edits", p)
		}
		if c := gittest.Git(t, dir, "rev-list", "--count", fmt.Sprintf("HEAD..refs/edits/own%d", p)); c != fmt.Sprintf("%d\n", edits) {
			t.Fatalf("session own%d has %s commits", p, c)
		}
	}
	gittest.Fsck(t, dir)
	if gittest.Snapshot(t, dir) != person {
		t.Fatal("the person's repository state changed")
	}
}

// The person commits, runs git gc and checks out another branch while an
// agent edits: no edit fails because of it, and no object goes missing.
func TestPersonWorksWhileEditsRun(t *testing.T) {
	bin := binDir(t)
	edits := 40
	if testing.Short() {
		edits = 10
	}
	var agent strings.Builder
	for l := range edits {
		fmt.Fprintf(&agent, "line %d old\n", l)
	}
	dir := gittest.NewWithCommit(t, map[string]string{"agent.txt": agent.String(), "person.txt": "0\n"})
	gittest.Git(t, dir, "branch", "other")
	done := make(chan struct{})
	var person sync.WaitGroup
	person.Add(1)
	go func() {
		defer person.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			// The person's own work: a commit of their file, a gc, a
			// round trip to another branch (agent.txt is the same there).
			gittest.WriteFile(t, dir, "person.txt", fmt.Sprintf("%d %d\n", i, time.Now().UnixNano()))
			for _, args := range [][]string{{"add", "person.txt"}, {"commit", "-q", "-m", "person"}, {"gc", "-q"}, {"checkout", "-q", "other"}, {"checkout", "-q", "main"}} {
				if out, err := gittest.GitErr(dir, args...); err != nil && !strings.Contains(out, "index.lock") {
					t.Errorf("git %v: %v %s", args, err, out)
				}
			}
		}
	}()
	for l := range edits {
		line := fmt.Sprintf("line %d", l)
		if code, out := gitEditProc(t, bin, dir, nil, strReplace("agent.txt", line+" old\n", line+" new\n"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
			t.Errorf("edit %d failed while the person worked: exit %d %s", l, code, out)
		}
	}
	close(done)
	person.Wait()
	if got := gittest.ReadFile(t, dir, "agent.txt"); strings.Contains(got, " old") {
		t.Fatalf("edits lost:\n%s", got)
	}
	// Every object of the session is there.
	if _, err := gittest.GitErr(dir, "rev-list", "--objects", "refs/edits/s"); err != nil {
		t.Fatal("objects missing from the session's history")
	}
	gittest.Fsck(t, dir)
}

// A process killed at each named point of an edit leaves the file old or
// new, never torn, the ref readable; the next edit clears what the dead
// process left (its ref lock, its temporary file: at "swapped", the file's
// old bytes, which the session's tip records, so they go) and records any
// bytes it wrote but did not record as a sync commit.
func TestCrashAtEveryPoint(t *testing.T) {
	bin := binDir(t)
	for _, point := range []string{"temp-written", "swapped", "objects-written", "files-written", "before-ref-rename"} {
		t.Run(point, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
			// A first edit so the ref exists and must survive.
			if code, out := gitEditProc(t, bin, dir, nil, strReplace("f.txt", "one", "two"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
				t.Fatal(out)
			}
			tip := gittest.Rev(t, dir, "refs/edits/s")
			code, _ := gitEditProc(t, bin, dir, []string{"GIT_EDIT_TEST_CRASH=" + point}, strReplace("f.txt", "two", "three"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor")
			if code != -1 { // killed by a signal
				t.Fatalf("the process was not killed at %s (exit %d)", point, code)
			}
			content := gittest.ReadFile(t, dir, "f.txt")
			if content != "two\n" && content != "three\n" {
				t.Fatalf("torn file after a crash at %s: %q", point, content)
			}
			if gittest.Rev(t, dir, "refs/edits/s") != tip {
				t.Fatalf("the ref moved or broke after a crash at %s", point)
			}
			// The next edit works and leaves nothing behind.
			if code, out := gitEditProc(t, bin, dir, nil, strReplace("f.txt", strings.TrimSpace(content), "four"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
				t.Fatalf("the edit after a crash at %s failed: %s", point, out)
			}
			if st := gittest.Status(t, dir); st != " M f.txt\n" {
				t.Fatalf("left behind after a crash at %s: %q", point, st)
			}
			ops := gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly,separator=)", tip+"..refs/edits/s")
			wantOps := "edit\n"
			if content == "three\n" {
				wantOps = "edit\nsync\n" // the dead process's bytes, recorded first
			}
			if ops != wantOps {
				t.Fatalf("after a crash at %s, history since has ops %q, want %q", point, ops, wantOps)
			}
			// The dead process's kept pack is released: gc may fold it in.
			if keeps, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.keep")); len(keeps) != 0 {
				t.Fatalf("after a crash at %s, keep files outlive the process: %v", point, keeps)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestAttackCrashAfterSwapKeepsBytesNoHistoryHas: a process killed right
// after its swap ("swapped") leaves the file's old bytes under its
// temporary name. When no history has them (the person
// wrote them by hand, and the dead process's sync commit never reached a
// ref), the next edit keeps them beside the file, never deletes them.
func TestAttackCrashAfterSwapKeepsBytesNoHistoryHas(t *testing.T) {
	bin := binDir(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\n"})
	if code, out := gitEditProc(t, bin, dir, nil, strReplace("f.txt", "one", "two"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
		t.Fatal(out)
	}
	gittest.WriteFile(t, dir, "f.txt", "two, by hand\n")
	if code, _ := gitEditProc(t, bin, dir, []string{"GIT_EDIT_TEST_CRASH=swapped"}, strReplace("f.txt", "two", "three"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != -1 {
		t.Fatalf("the process was not killed at swapped (exit %d)", code)
	}
	if code, out := gitEditProc(t, bin, dir, nil, strReplace("f.txt", "three", "four"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
		t.Fatalf("the edit after the crash failed: %s", out)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-kept-*"))
	if len(kept) != 1 {
		t.Fatalf("kept beside f.txt: %q, want the hand-written bytes kept once", kept)
	}
	if got := gittest.ReadFile(t, dir, filepath.Base(kept[0])); got != "two, by hand\n" {
		t.Fatalf("%s = %q", kept[0], got)
	}
	gittest.Fsck(t, dir)
}

// Processes SIGKILLed at random moments, a few hundred times: the file is
// always exactly the old or the new bytes, the ref always resolves, and
// the next edit always goes through. GIT_EDIT_CRASH_RUNS sets the count
// (default 200; -short 40).
func TestRandomKills(t *testing.T) {
	bin := binDir(t)
	runs := 200
	if testing.Short() {
		runs = 40
	}
	if n, err := strconv.Atoi(os.Getenv("GIT_EDIT_CRASH_RUNS")); err == nil {
		runs = n
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	// A 2 MB file so that writing takes long enough to be interrupted.
	body := strings.Repeat("filler line of text for the crash test\n", 50_000)
	dir := gittest.NewWithCommit(t, map[string]string{"big.txt": "marker-0\n" + body})
	current := 0
	killed := 0
	for i := range runs {
		before := gittest.ReadFile(t, dir, "big.txt")
		tip := gittest.Rev(t, dir, "refs/edits/s")
		cmd := exec.Command(filepath.Join(bin, "git-edit"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor")
		cmd.Dir, cmd.Env = dir, gittest.Env()
		cmd.Stdin = strings.NewReader(strReplace("big.txt", fmt.Sprintf("marker-%d\n", current), fmt.Sprintf("marker-%d\n", current+1)))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(40_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if err != nil {
			killed++
		}
		after := gittest.ReadFile(t, dir, "big.txt")
		next := strings.Replace(before, fmt.Sprintf("marker-%d\n", current), fmt.Sprintf("marker-%d\n", current+1), 1)
		switch after {
		case before:
		case next:
			current++
		default:
			t.Fatalf("run %d: big.txt is torn (%d bytes)", i, len(after))
		}
		if tip != "" && gittest.Rev(t, dir, "refs/edits/s") == "" {
			t.Fatalf("run %d: the ref no longer resolves", i)
		}
	}
	// Whatever the kills left, an edit goes through and the repository is
	// sound.
	if code, out := gitEditProc(t, bin, dir, nil, strReplace("big.txt", fmt.Sprintf("marker-%d\n", current), "final\n"), "call", "--session", "s", "--log-file", os.DevNull, "text_editor"); code != 0 {
		t.Fatalf("edit after %d kills: %s", killed, out)
	}
	// A process killed after its swap leaves the file's old bytes under
	// its temporary name; the next one removes them when history has
	// them. Two kills in a row can leave old bytes no history has: the
	// first process swapped its edit in and died before its ref moved,
	// the second recorded that edit as a change made outside and died
	// after its own swap, before its ref moved. Those bytes are kept
	// (as a person's would be), whole: some marker's version of the file.
	st := gittest.Status(t, dir)
	kept := 0
	for _, line := range strings.Split(strings.TrimSuffix(st, "\n"), "\n") {
		name, isKept := strings.CutPrefix(line, "?? .big.txt.git-edit-kept-")
		switch {
		case line == " M big.txt":
		case isKept && name != "":
			got := gittest.ReadFile(t, dir, ".big.txt.git-edit-kept-"+name)
			marker, rest, _ := strings.Cut(got, "\n")
			n, err := strconv.Atoi(strings.TrimPrefix(marker, "marker-"))
			if !strings.HasPrefix(marker, "marker-") || err != nil || n > current || rest != body {
				t.Fatalf("kept %s is no whole version of big.txt (%d bytes, first line %q)", name, len(got), marker)
			}
			kept++
		default:
			t.Fatalf("left behind: %q", st)
		}
	}
	gittest.Fsck(t, dir)
	t.Logf("%d runs, %d killed before finishing, %d old versions kept", runs, killed, kept)
}
