package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// checkPersonsLine checks the outcome of an edit (ONE for one) or a
// deletion of f.txt, "one\ntwo\n" before, during which a person appended
// "person": an edit leaves the person's line on disk under the agent's
// change, a deletion leaves it in the session's sync commit.
func checkPersonsLine(t *testing.T, dir string, del bool) {
	t.Helper()
	if del {
		if got := gittest.ReadFile(t, dir, "f.txt"); got != gittest.Missing {
			t.Fatalf("f.txt = %q, want it deleted", got)
		}
		if !strings.Contains(history(t, dir, "s"), "+person") {
			t.Fatalf("the person's line is neither on disk nor in the session's history")
		}
	} else if got := gittest.ReadFile(t, dir, "f.txt"); got != "ONE\ntwo\nperson\n" {
		t.Fatalf("f.txt = %q, want the person's line kept under the agent's change", got)
	}
	gittest.Fsck(t, dir)
	if st := gittest.Status(t, dir); strings.Contains(st, ".git-edit-") {
		t.Fatalf("a temporary file is left:\n%s", st)
	}
}

// TestAttackShellAppendAcrossTheSwapIsKept is `echo person >> f.txt` in a
// shell that opens the file right before git-edit swaps it (after the
// check of its bytes) and writes once git-edit's checks are done: the
// write must not go to the replaced copy. git-edit waits for the file to
// be closed before it swaps, and then sees the line. Without read leases
// (repo.Caps) nothing holds such a writer off, and what holds is weaker:
// the shell writes at the last moment before git-edit's last check of
// the replaced file (for an edit, after the new file is in place; for a
// deletion, before the file is moved aside), and git-edit sees the line.
// (A write after that last check goes to the replaced copy: the README's
// window.) It runs with the atomic exchange and, as where there is none,
// with the swap without exchange.
func TestAttackShellAppendAcrossTheSwapIsKept(t *testing.T) {
	for _, c := range []struct {
		del, noExchange bool
	}{{false, false}, {true, false}, {false, true}} {
		t.Run(fmt.Sprintf("delete=%v", c.del)+map[bool]string{true: "/no-exchange"}[c.noExchange], func(t *testing.T) {
			del := c.del
			defer repo.SetNoExchange(c.noExchange)()
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "one\ntwo\n"})
			caps, err := repo.Capabilities(dir)
			if err != nil {
				t.Fatal(err)
			}
			lastCheck := map[bool]string{false: "swapped-in", true: "leased"}[del]
			if caps.Leases {
				lastCheck = "open-elsewhere"
			}
			r, s := open(t, dir, "s")
			file := filepath.Join(dir, "f.txt")
			var shell *os.File
			write := func() {
				if shell != nil {
					if _, err := shell.WriteString("person\n"); err != nil {
						t.Error(err)
					}
					shell.Close()
					shell = nil
				}
			}
			opened := false
			restore := repo.SetPauseHook(func(at, _ string) {
				switch {
				case at == "checked" && !opened:
					opened = true
					var err error
					if shell, err = os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0); err != nil {
						t.Error(err)
					}
				case at == lastCheck, at == "files-written":
					write()
				}
			})
			_, err = s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, replaceFirst("f.txt", "one", "ONE", del))
			restore()
			write()
			if err != nil {
				t.Fatalf("the edit failed instead of starting over: %v", err)
			}
			checkPersonsLine(t, dir, del)
		})
	}
}

// TestAttackShellAppendsDuringEditsLoseNothing is the randomized form with
// a real shell: `echo "person $i" >> f.txt; sleep 0.002` in a loop (a
// line every few milliseconds) while the agent
// edits the same file 300 times (60 with -short). Every line the shell
// appended must be on disk; an edit may be refused as changed or busy,
// never fail otherwise. Without read leases (repo.Caps) a line written
// through a handle opened before a swap and written after its last check
// goes to the replaced copy (the README's window there), and without an
// atomic exchange an append landing in the moment the name is absent is
// kept beside the file: the lines on disk must still be whole, once each,
// and those in f.txt in order.
func TestAttackShellAppendsDuringEditsLoseNothing(t *testing.T) {
	edits := 300
	if testing.Short() {
		edits = 60
	}
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "counter 0\n"})
	r, s := open(t, dir, "s")
	ctl := t.TempDir()
	stop, count := filepath.Join(ctl, "stop"), filepath.Join(ctl, "count")
	sh := exec.Command("sh", "-c", `i=0; while [ ! -e "$1" ]; do i=$((i+1)); echo "person $i" >> f.txt; sleep 0.002; done; echo $i > "$2"`, "sh", stop, count)
	sh.Dir = dir
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	// Whatever ends the test, the shell stops before t.TempDir's cleanup
	// (registered earlier, so run later) removes the directories it
	// appends in.
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			os.WriteFile(stop, nil, 0o666)
			sh.Wait()
		}
	})
	// A refusal is a right answer while the shell appends; the budget only
	// stops a livelock. On a loaded machine most attempts can meet an
	// append (one every 2 ms), so it allows ten refusals per edit: 301 in
	// 300 was hit once at a load average of 3.4.
	refused := 0
	for i := 0; i < edits; i++ {
		_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			replaceFirst("f.txt", "counter "+strconv.Itoa(i)+"\n", "counter "+strconv.Itoa(i+1)+"\n", false))
		switch {
		case errors.Is(err, repo.ErrFileChanged), errors.Is(err, repo.ErrFileBusy):
			refused++
			i-- // the counter did not move
			if refused > 10*edits {
				t.Fatalf("%d attempts refused for %d edits: no progress while the shell appends: %v", refused, edits, err)
			}
		case err != nil:
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	must(t, os.WriteFile(stop, nil, 0o666))
	stopped = true
	if err := sh.Wait(); err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(gittest.ReadFile(t, ctl, "count")))
	if err != nil || n == 0 {
		t.Fatalf("the shell appended no line: %v", err)
	}
	got := gittest.ReadFile(t, dir, "f.txt")
	caps, err := repo.Capabilities(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Without an atomic exchange the name is absent for a moment in each
	// swap; an append landing there creates a file of its line, which
	// git-edit keeps beside f.txt (named in its refusal).
	keptFiles, _ := filepath.Glob(filepath.Join(dir, ".f.txt.git-edit-kept-*"))
	if len(keptFiles) > 0 && caps.Exchange {
		t.Fatalf("kept files %q beside f.txt, where the swap is atomic", keptFiles)
	}
	var kept strings.Builder
	for _, k := range keptFiles {
		b, err := os.ReadFile(k)
		must(t, err)
		kept.WriteString("\n" + string(b))
	}
	lost, last := 0, 0
	for i := 1; i <= n; i++ {
		line := "\nperson " + strconv.Itoa(i) + "\n"
		at := strings.Index(got, line)
		switch {
		case at < 0 && strings.Contains(kept.String(), line):
		case at < 0 && caps.Leases:
			t.Fatalf("line %d of %d appended by the shell is lost (%d edits, %d refused)", i, n, edits, refused)
		case at < 0:
			// No leases: an append whose open came before git-edit's
			// swap and whose write came after its last check went to the
			// replaced copy (the README's window there).
			lost++
		case at < last:
			t.Fatalf("line %d of %d appended by the shell is out of order", i, n)
		default:
			last = at
		}
	}
	if on := strings.Count(got+kept.String(), "person "); on != n-lost {
		t.Fatalf("f.txt and the kept files hold %d of the shell's lines, want %d (%d of %d lost): a line was written twice or torn", on, n-lost, lost, n)
	}
	if lost > 0 || len(keptFiles) > 0 {
		t.Logf("no read leases or no exchange here: %d of %d lines kept beside f.txt in %d files; %d written through a handle opened before a swap, after its last check, went to the replaced copy", strings.Count(kept.String(), "person "), n, len(keptFiles), lost)
	}
	if !strings.Contains(got, "counter "+strconv.Itoa(edits)+"\n") {
		t.Fatalf("the agent's last edit is missing")
	}
	t.Logf("%d lines appended by the shell during %d edits (%d refused as changed or busy); %d lost", n, edits, refused, lost)
	gittest.Fsck(t, dir)
}
