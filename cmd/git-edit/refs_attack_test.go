package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/git-edit/git-edit/cmd/internal/clikit"
	"github.com/git-edit/git-edit/repo/gittest"
)

// sessionCommits makes n sessions s0..s<n-1>, each one session commit on
// HEAD dated a day ago, in one `git fast-import`, and packs every ref.
func sessionCommits(t *testing.T, dir string, n int) {
	t.Helper()
	head := gittest.Rev(t, dir, "HEAD")
	when := time.Now().Add(-24 * time.Hour).Unix()
	var stream strings.Builder
	for i := range n {
		msg := fmt.Sprintf("t: f.txt\n\nEdit-Op: edit\nEdit-Tool: t\nEdit-Session: s%d\nEdit-Path: f.txt\n", i)
		fmt.Fprintf(&stream, "commit refs/edits/s%d\ncommitter Agent <agent@example.com> %d +0000\ndata %d\n%s\nfrom %s\nM 100644 inline f.txt\ndata 3\n%03d\n\n",
			i, when, len(msg), msg, head, i%1000)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env = dir, gittest.Env()
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	gittest.Git(t, dir, "pack-refs", "--all")
}

// Finding 2 of issue 11: prune used to read packed-refs before taking
// packed-refs.lock and write that stale copy back, deleting branches the
// person created and packed meanwhile. With the person running
// `git branch bN && git pack-refs --all` in a loop while prune (run from a
// linked worktree) deletes 150 packed sessions, not one of the person's
// branches may go.
func TestAttackPruneKeepsPersonsBranches(t *testing.T) {
	rounds, sessions, budget := 8, 150, 20*time.Second
	if testing.Short() {
		rounds = 2
	}
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	linked := filepath.Join(t.TempDir(), "linked")
	gittest.Git(t, dir, "worktree", "add", "-q", "--detach", linked)
	start := time.Now()
	var made []string // every branch the person's loop created
	for round := 0; round < rounds && time.Since(start) < budget; round++ {
		sessionCommits(t, dir, sessions)
		stop := make(chan struct{})
		first := make(chan struct{})
		var person sync.WaitGroup
		person.Add(1)
		go func() {
			defer person.Done()
			for i := 0; ; i++ {
				name := fmt.Sprintf("b%d-%d", round, i)
				if out, err := gittest.GitErr(dir, "branch", name); err != nil {
					t.Errorf("git branch %s: %v %s", name, err, out)
					return
				}
				made = append(made, "refs/heads/"+name)
				// pack-refs may find packed-refs.lock held by prune's git
				// for longer than its timeout; the person simply goes on.
				gittest.GitErr(dir, "pack-refs", "--all")
				if i == 0 {
					close(first)
				}
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
		<-first
		r := runCLI(t, "", "prune", "--root", linked, "--older-than", "1h")
		close(stop)
		person.Wait()
		if r.code != 0 {
			t.Fatalf("round %d: prune: exit %d\n%s%s", round, r.code, r.stdout, r.stderr)
		}
		if n := strings.Count(r.stdout, "pruning refs/edits/"); n != sessions {
			t.Fatalf("round %d: prune pruned %d sessions, want %d:\n%s", round, n, sessions, r.stdout)
		}
		if left := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); left != "" {
			t.Fatalf("round %d: sessions left:\n%s", round, left)
		}
		got := strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/heads/"))
		want := append([]string{"refs/heads/main"}, made...)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			var lost []string
			for _, b := range want {
				if !slices.Contains(got, b) {
					lost = append(lost, b)
				}
			}
			t.Fatalf("round %d: the person's branches changed; lost %d of %d: %v", round, len(lost), len(want), lost)
		}
	}
	t.Logf("%d branches made, none lost", len(made))
	gittest.Fsck(t, dir)
}

// allRefs lists every ref with its value, without reading the objects
// (a broken session names a missing one).
func allRefs(t *testing.T, dir string) string {
	t.Helper()
	return gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)")
}

// deleteObject removes the loose object file of a commit git-edit wrote,
// as `git gc --prune=now` does for an unreferenced one.
func deleteObject(t *testing.T, dir, hash string) {
	t.Helper()
	gittest.Unpack(t, dir) // git-edit writes packs; one loose file is easy to lose
	if err := os.Remove(filepath.Join(dir, ".git", "objects", hash[:2], hash[2:])); err != nil {
		t.Fatal(err)
	}
	if _, err := gittest.GitErr(dir, "cat-file", "-e", hash); err == nil {
		t.Fatalf("%s is still there", hash)
	}
}

// Finding 3(b) of issue 11: a session whose commits are missing (a
// `git gc --prune=now` that ran while the ref was being written, or a
// damaged object store) made every command fail with "object not found"
// and git gc fail for ever. Every command must say what is wrong and what
// to run, change nothing, and `prune --session` must remove the session,
// after which git gc and git fsck pass and the session can start again.
func TestAttackBrokenSessionIsReportedAndPrunable(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a0\n", "b.txt": "b0\n", "c.txt": "c0\n"})
	for _, step := range []struct{ session, file, old, new string }{
		{"a", "a.txt", "a0", "a1"}, {"b", "b.txt", "b0", "b1"}, {"c", "c.txt", "c0", "c1"}, {"c", "c.txt", "c1", "c2"},
	} {
		if r := runCLI(t, strReplace(step.file, step.old, step.new), "call", "--root", dir, "--session", step.session, "--log-file", os.DevNull, "text_editor"); r.code != 0 {
			t.Fatal(r.stdout, r.stderr)
		}
	}
	tipA := gittest.Rev(t, dir, "refs/edits/a")
	deleteObject(t, dir, tipA)                                  // a: its tip is missing
	deleteObject(t, dir, gittest.Rev(t, dir, "refs/edits/c~1")) // c: an older commit is missing
	if out, err := gittest.GitErr(dir, "gc", "-q"); err == nil {
		t.Fatalf("git gc passed on a broken repository: %s", out)
	}
	tipMissing := "session a: refs/edits/a names commit " + tipA + ", which is missing from the repository"
	fix := "remove the session with `git edit prune --session a`, then start again"
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  []string // in stdout (call's JSON) or stderr
	}{
		{"call", strReplace("a.txt", "a1", "a2"), []string{"call", "--session", "a", "--log-file", os.DevNull, "text_editor"}, []string{tipMissing, fix}},
		{"log", "", []string{"log", "--session", "a"}, []string{tipMissing, fix}},
		{"log of one path", "", []string{"log", "--session", "a", "a.txt"}, []string{tipMissing, fix}},
		{"log --all", "", []string{"log", "--all"}, []string{tipMissing, fix}},
		{"show", "", []string{"show", "--session", "a", "a~0"}, []string{tipMissing, fix}},
		{"diff", "", []string{"diff", "--session", "a"}, []string{tipMissing, fix}},
		{"undo", "", []string{"undo", "--session", "a"}, []string{tipMissing, fix}},
		{"undo of one path", "", []string{"undo", "--session", "a", "a.txt"}, []string{tipMissing, fix}},
		{"redo", "", []string{"redo", "--session", "a"}, []string{tipMissing, fix}},
		{"rollback", "", []string{"rollback", "--session", "a"}, []string{tipMissing, fix}},
		{"call in a session missing an older commit", strReplace("b.txt", "b1", "b2"), []string{"call", "--session", "c", "--log-file", os.DevNull, "text_editor"}, []string{
			"session c: commit ", ", in the history of refs/edits/c, is missing from the repository", "`git edit prune --session c`"}},
		{"log of a session missing an older commit", "", []string{"log", "--session", "c"}, []string{
			"session c: commit ", ", in the history of refs/edits/c, is missing from the repository", "`git edit prune --session c`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := gittest.Status(t, dir) + gittest.ReadFile(t, dir, "a.txt") + gittest.ReadFile(t, dir, "b.txt") + gittest.ReadFile(t, dir, "c.txt")
			refs := allRefs(t, dir)
			r := runCLI(t, tc.stdin, append([]string{tc.args[0], "--root", dir}, tc.args[1:]...)...)
			if r.code != clikit.ExitRefused {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, clikit.ExitRefused, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout+r.stderr, w) {
					t.Errorf("the message lacks %q:\n%s%s", w, r.stdout, r.stderr)
				}
			}
			if gittest.Status(t, dir)+gittest.ReadFile(t, dir, "a.txt")+gittest.ReadFile(t, dir, "b.txt")+gittest.ReadFile(t, dir, "c.txt") != files || allRefs(t, dir) != refs {
				t.Fatal("a refused command changed a file or a ref")
			}
		})
	}

	// sessions lists every session, the broken ones with their fix.
	r := runCLI(t, "", "sessions", "--root", dir)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "a  BROKEN: "+tipMissing) || !strings.Contains(lines[0], fix) ||
		!strings.HasPrefix(lines[1], "b  1 commit (1 edit)  1 path") || !strings.Contains(lines[2], "c  BROKEN: session c: commit") {
		t.Fatalf("sessions: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "", "sessions", "--root", dir, "--json")
	var sums []sessionSummary
	if err := json.Unmarshal([]byte(r.stdout), &sums); err != nil || len(sums) != 3 ||
		!strings.Contains(sums[0].Broken, fix) || sums[1].Broken != "" || sums[1].Tip != gittest.Rev(t, dir, "refs/edits/b") {
		t.Fatalf("sessions --json: %v\n%s", err, r.stdout)
	}

	// prune by age prunes the healthy session and keeps the broken ones,
	// saying how to remove them.
	r = runCLI(t, "", "prune", "--root", dir, "--older-than", "0s")
	if r.code != 0 || !strings.Contains(r.stdout, "pruning refs/edits/b (1 commit") ||
		!strings.Contains(r.stdout, "kept refs/edits/a: "+tipMissing) || !strings.Contains(r.stdout, "kept refs/edits/c: session c:") {
		t.Fatalf("prune --older-than: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"); got != "refs/edits/a\nrefs/edits/c\n" {
		t.Fatalf("after prune --older-than: %q", got)
	}

	// A name that is no session is refused, and nothing is pruned.
	r = runCLI(t, "", "prune", "--root", dir, "--session", "a", "--session", "nosuch")
	if r.code != clikit.ExitRefused || !strings.Contains(r.stderr, `no session "nosuch"`) || gittest.Rev(t, dir, "refs/edits/a") != tipA {
		t.Fatalf("prune of an unknown session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// prune --session removes the broken sessions, reflogs included.
	r = runCLI(t, "", "prune", "--root", dir, "--session", "a", "--session", "c")
	if r.code != 0 || !strings.Contains(r.stdout, "pruning refs/edits/a (broken: it named "+tipA[:7]) || !strings.Contains(r.stdout, "pruning refs/edits/c (broken") {
		t.Fatalf("prune --session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); got != "" {
		t.Fatalf("refs left: %s", got)
	}
	for _, s := range []string{"a", "c"} {
		if _, err := os.Stat(filepath.Join(dir, ".git", "logs", "refs", "edits", s)); !os.IsNotExist(err) {
			t.Fatalf("the reflog of %s is left: %v", s, err)
		}
	}
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	gittest.Fsck(t, dir)

	// Then the session starts again.
	if r := runCLI(t, strReplace("a.txt", "a1", "a2"), "call", "--root", dir, "--session", "a", "--log-file", os.DevNull, "text_editor"); r.code != 0 {
		t.Fatalf("a new session a: %s%s", r.stdout, r.stderr)
	}
	if ops := gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly,separator=)", "HEAD..refs/edits/a"); ops != "edit\nsync\n" {
		t.Fatalf("the new session a: %q", ops)
	}
	gittest.Fsck(t, dir)
}

// Finding 4 of issue 11, with the real binary: a git-edit SIGKILLed while
// holding refs/edits/a.lock, then edits of other sessions, then session a
// must work; then processes of several sessions killed at random moments
// (and some right after taking their ref lock) must leave no ref lock, and
// every session must stay editable. GIT_EDIT_CRASH_RUNS sets the number of
// random runs (default 40).
func TestAttackKilledEditsNeverLockASessionForever(t *testing.T) {
	bin := binDir(t)
	sessions := []string{"a", "b", "c", "d"}
	files := map[string]string{}
	for _, s := range sessions {
		files[s+".txt"] = "v0\n"
	}
	dir := gittest.NewWithCommit(t, files)
	version := map[string]int{}
	edit := func(s string, env ...string) (int, string) {
		return gitEditProc(t, bin, dir, env, strReplace(s+".txt", fmt.Sprintf("v%d\n", version[s]), fmt.Sprintf("v%d\n", version[s]+1)),
			"call", "--session", s, "--log-file", os.DevNull, "text_editor")
	}
	// reconcile learns which version a killed process left in s's file.
	reconcile := func(s string) {
		got := gittest.ReadFile(t, dir, s+".txt")
		switch got {
		case fmt.Sprintf("v%d\n", version[s]):
		case fmt.Sprintf("v%d\n", version[s]+1):
			version[s]++
		default:
			t.Fatalf("%s.txt is torn: %q", s, got)
		}
	}
	editOK := func(s string) {
		t.Helper()
		if code, out := edit(s); code != 0 {
			t.Fatalf("edit of session %s: exit %d %s", s, code, out)
		}
		version[s]++
	}
	for _, s := range sessions {
		editOK(s)
	}

	// Deterministic: killed right after taking the lock.
	if code, _ := edit("a", "GIT_EDIT_TEST_CRASH=ref-locked"); code != -1 {
		t.Fatalf("the process was not killed at ref-locked (exit %d)", code)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "edits", "a.lock")); err != nil {
		t.Fatalf("the killed process left no lock: %v", err)
	}
	reconcile("a")
	for _, s := range sessions[1:] {
		editOK(s)
	}
	editOK("a")

	// Deterministic: a version no history records is kept, never lost. The
	// first process dies after writing b.txt and before moving its ref, so
	// b.txt holds a version only that dead process's objects have; the
	// second dies with its new file in and that version beside it, under
	// a temporary name. The next process to take the edit lock finds those
	// bytes in no history (HEAD and every session name other ones): they
	// are kept, under a name cleanup and record leave alone.
	for _, point := range []string{"files-written", "swapped"} {
		if code, _ := edit("b", "GIT_EDIT_TEST_CRASH="+point); code != -1 {
			t.Fatalf("the process was not killed at %s (exit %d)", point, code)
		}
		reconcile("b")
	}
	unrecorded := fmt.Sprintf("v%d\n", version["b"]-1)
	editOK("c")
	kept := keptFiles(t, dir)
	if len(kept) != 1 || kept[0].of != "b.txt" || kept[0].content != unrecorded {
		t.Fatalf("kept after two deaths: %+v, want b.txt's unrecorded %q", kept, unrecorded)
	}
	// record leaves the kept file alone: it is git-edit's, not the agent's.
	if code, out := gitEditProc(t, bin, dir, nil, "", "record", "--session", "b", "--all"); code != 0 {
		t.Fatalf("record after two deaths: exit %d %s", code, out)
	}
	if files := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "refs/edits/b"); strings.Contains(files, kept[0].name) {
		t.Fatalf("record took the kept file into the session:\n%s", files)
	}

	// Randomized.
	runs := 40
	if n, err := fmt.Sscan(os.Getenv("GIT_EDIT_CRASH_RUNS"), &runs); n != 1 || err != nil {
		runs = 40
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	for range runs {
		s := sessions[rng.Intn(len(sessions))]
		cmd := exec.Command(filepath.Join(bin, "git-edit"), "call", "--session", s, "--log-file", os.DevNull, "text_editor")
		cmd.Dir, cmd.Env = dir, gittest.Env()
		if rng.Intn(3) == 0 {
			cmd.Env = append(cmd.Env, "GIT_EDIT_TEST_CRASH=ref-locked")
		}
		cmd.Stdin = strings.NewReader(strReplace(s+".txt", fmt.Sprintf("v%d\n", version[s]), fmt.Sprintf("v%d\n", version[s]+1)))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(30_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		reconcile(s)
	}
	for _, s := range sessions {
		editOK(s)
	}
	var locks []string
	filepath.WalkDir(filepath.Join(dir, ".git", "refs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".lock") {
			locks = append(locks, path)
		}
		return nil
	})
	if len(locks) != 0 {
		t.Fatalf("ref locks left: %v", locks)
	}
	// A kill between a write and its ref's move, then another before the
	// next one's temporary is gone, leaves a version in no history: it is
	// kept (as above). Any other file is litter.
	want := " M a.txt\n M b.txt\n M c.txt\n M d.txt\n"
	for _, k := range keptFiles(t, dir) {
		if !regexp.MustCompile(`^v[0-9]+\n$`).MatchString(k.content) {
			t.Fatalf("kept file %s holds %q, no version this test wrote", k.name, k.content)
		}
		for _, tip := range append([]string{"HEAD"}, strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"))...) {
			if got, err := gittest.GitErr(dir, "show", tip+":"+k.of); err == nil && got == k.content {
				t.Fatalf("kept file %s holds %q, which %s records: litter, not a version that would be lost", k.name, k.content, tip)
			}
		}
		want += "?? " + k.name + "\n"
	}
	if st := gittest.Status(t, dir); st != want {
		t.Fatalf("status: %q, want %q", st, want)
	}
	gittest.Fsck(t, dir)
}

// keptFile is a file git-edit kept beside the file of, in the top of the
// worktree, because its bytes were in no history (see repo.keepAside).
type keptFile struct{ name, of, content string }

// keptFiles lists the kept files in the top of the worktree dir, by name.
func keptFiles(t *testing.T, dir string) []keptFile {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var kept []keptFile
	for _, e := range entries {
		of, _, ok := strings.Cut(strings.TrimPrefix(e.Name(), "."), ".git-edit-kept-")
		if !ok || !strings.HasPrefix(e.Name(), ".") {
			continue
		}
		kept = append(kept, keptFile{e.Name(), of, gittest.ReadFile(t, dir, e.Name())})
	}
	return kept
}

// A session ref that is a symbolic ref to the person's branch (made by
// hand, or by a tool) is pruned as itself: the branch it points to stays.
func TestAttackPruneNeverFollowsASymbolicSession(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	mainTip := gittest.Rev(t, dir, "refs/heads/main")
	gittest.Git(t, dir, "symbolic-ref", "refs/edits/foo", "refs/heads/main")
	r := runCLI(t, "", "prune", "--root", dir, "--session", "foo")
	if got, err := gittest.GitErr(dir, "rev-parse", "--verify", "-q", "refs/heads/main"); err != nil || strings.TrimSpace(got) != mainTip {
		t.Fatalf("prune of a symbolic session ref changed the branch it points to (exit %d: %s%s): %v %q", r.code, r.stdout, r.stderr, err, got)
	}
	if out, err := gittest.GitErr(dir, "show-ref"); err != nil || strings.Contains(out, "refs/edits/foo") {
		t.Fatalf("the symbolic session ref is still there (exit %d: %s%s): %s", r.code, r.stdout, r.stderr, out)
	}
}
