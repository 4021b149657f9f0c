package session_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// edits applies n edits of a.txt, each in a fresh Session value (another
// process: the index is read from disk and written back).
func edits(t *testing.T, dir, name string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		r, s := open(t, dir, name)
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"a.txt": fmt.Sprintf("edit %d\n", i)})); err != nil {
			t.Fatal(err)
		}
	}
}

// TestIndexNeverWritesThroughALink: the index's files (history.idx,
// history.commits, history.lock) replaced by symlinks to files outside the
// git dir are never written through, nor created there; the edits still
// succeed, and the files outside keep their bytes.
func TestIndexNeverWritesThroughALink(t *testing.T) {
	for _, name := range []string{"history.idx", "history.commits", "history.lock"} {
		t.Run(name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
			edits(t, dir, "s", 0, 9) // the index is written
			state := filepath.Join(dir, ".git", "git-edit", "sessions", "s")
			outside := t.TempDir()
			victim := filepath.Join(outside, "victim")
			// The victim holds the same bytes as the file it replaces (so
			// that every check made on reading it passes), then more.
			orig, _ := os.ReadFile(filepath.Join(state, name))
			want := append(orig, []byte("the person's own bytes, which must stay\n")...)
			if err := os.WriteFile(victim, want, 0o666); err != nil {
				t.Fatal(err)
			}
			must(t, os.Remove(filepath.Join(state, name)))
			must(t, os.Symlink(victim, filepath.Join(state, name)))
			dangling := filepath.Join(outside, "created")
			if name == "history.lock" {
				must(t, os.Remove(filepath.Join(state, name)))
				must(t, os.Symlink(dangling, filepath.Join(state, name)))
			}
			edits(t, dir, "s", 9, 10) // the index is caught up and written again

			if got, _ := os.ReadFile(victim); string(got) != string(want) {
				t.Errorf("the file %s links to was written through:\n got %q\nwant %q", name, got, want)
			}
			if _, err := os.Lstat(dangling); err == nil {
				t.Errorf("%s: a file was created where the link points, outside the git dir", name)
			}
			gittest.Git(t, dir, "fsck", "--strict")
			if n := len(readGitHistory(t, dir, "refs/edits/s").ids); n != 19 {
				t.Errorf("session has %d commits, want 19", n)
			}
		})
	}
}

// TestIndexFollowsRefMovedByOthers: the session's ref moved by something
// other than git-edit (back to an older commit and edited on from there;
// deleted and started again; pruned and started again with fewer commits;
// set to a commit of an abandoned line the index never saw) never makes an
// answer wrong, read by a long-lived Session (an MCP server, with its
// index in memory) or by a new one (a CLI call, from disk).
func TestIndexFollowsRefMovedByOthers(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"})
	r, server := open(t, dir, "s")
	files := []string{"a.txt", "b.txt", "c.txt"}
	step := 0
	edit := func(n int) {
		t.Helper()
		for range n {
			p := files[step%3]
			// Contents repeat every third touch of a file: a wrong last
			// touch would often hold the same bytes as the right one.
			content := fmt.Sprintf("v%d\n", (step/3)%3)
			step++
			s := server
			if step%3 == 0 {
				_, s = open(t, dir, "s")
			}
			if _, err := s.Apply(context.Background(), resolve(t, r, dir, p), session.RecordOutside,
				setContent("test.set", map[string]string{p: content})); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(what string) {
		t.Helper()
		gh := readGitHistory(t, dir, "refs/edits/s")
		t.Run(what+"/server", func(t *testing.T) { checkIndexAnswers(t, server, gh, files) })
		_, cli := open(t, dir, "s")
		t.Run(what+"/new process", func(t *testing.T) { checkIndexAnswers(t, cli, gh, files) })
	}
	edit(20)
	check("start")
	old := readGitHistory(t, dir, "refs/edits/s")

	gittest.Git(t, dir, "update-ref", "refs/edits/s", old.ids[5])
	edit(12)
	check("rewound and edited on")

	gittest.Git(t, dir, "update-ref", "refs/edits/s", old.ids[15]) // a line the index never saw
	edit(3)
	check("set to an abandoned line")

	gittest.Git(t, dir, "update-ref", "-d", "refs/edits/s")
	edit(10)
	check("deleted and started again")

	if _, err := session.Prune(context.Background(), r, session.PruneOptions{Sessions: []string{"s"}}); err != nil {
		t.Fatal(err)
	}
	edit(4)
	check("pruned and started again, shorter")
	gittest.Git(t, dir, "fsck", "--strict")
}

// TestIndexReadersDuringWrites: while two writers edit one session (each
// a new Session value per edit: separate processes, so the index is
// written back by one or the other under history.lock), readers from disk
// are never served a half-written or older index unnoticed: every summary
// and last touch agrees with a walk of the commits it was read for.
// openSession is open for a goroutine other than the test's: it returns
// the error instead of failing the test.
func openSession(dir, name string) (*repo.Repo, *session.Session, error) {
	r, err := repo.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	s, err := session.New(r, name)
	return r, s, err
}

func TestIndexReadersDuringWrites(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	r, _ := open(t, dir, "s")
	paths := map[string][]repo.Path{"a.txt": resolve(t, r, dir, "a.txt"), "b.txt": resolve(t, r, dir, "b.txt")}
	done := make(chan struct{})
	errs := make(chan error, 3)
	for w, p := range []string{"a.txt", "b.txt"} {
		go func() {
			for i := range 40 {
				_, s, err := openSession(dir, "s")
				if err != nil {
					errs <- err
					return
				}
				if _, err := s.Apply(context.Background(), paths[p], session.RecordOutside,
					setContent("test.set", map[string]string{p: fmt.Sprintf("w%d %d\n", w, i)})); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		defer close(done)
		for reads := 0; ; reads++ {
			_, s, err := openSession(dir, "s")
			if err != nil {
				errs <- err
				return
			}
			sum, err := s.Summarize()
			if err != nil {
				errs <- err
				return
			}
			if sum.Tip.IsZero() {
				continue
			}
			all, err := s.Commits(sum.Tip)
			if err != nil {
				errs <- err
				return
			}
			if sum.Commits != len(all) {
				errs <- fmt.Errorf("read %d: Summarize says %d commits at %s, the walk %d", reads, sum.Commits, sum.Tip, len(all))
				return
			}
			last, err := s.LastTouches(sum.Tip, []string{"a.txt", "b.txt"})
			if err != nil {
				errs <- err
				return
			}
			for _, p := range []string{"a.txt", "b.txt"} {
				want := plumbing.ZeroHash
				for _, c := range all {
					if c.Meta.Touches(p) {
						want = c.Hash
						break
					}
				}
				if last[p] != want {
					errs <- fmt.Errorf("read %d: last touch of %s at %s: %s, the walk says %s", reads, p, sum.Tip, last[p], want)
					return
				}
			}
			if sum.Commits >= 80 {
				return
			}
		}
	}()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	case <-done:
	}
	gittest.Git(t, dir, "fsck", "--strict")
}

// TestAttackHugeIndexIsNotReadWhole: a history.idx of 48 MiB behind a
// well-formed header (a damaged or hostile cache) is refused by its size
// against what its header declares, before its table is read: reading the
// session's summary allocates a small fraction of the file, and the
// answers, rebuilt from the commits, are right. A commits count that lies
// (a header saying 2^40 commits) costs a stat of history.commits, not an
// allocation of its claimed size.
func TestAttackHugeIndexIsNotReadWhole(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	edits(t, dir, "s", 0, 9) // the index is written
	state := filepath.Join(dir, ".git", "git-edit", "sessions", "s")
	orig, err := os.ReadFile(filepath.Join(state, "history.idx"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(orig), "\n"), "\n")
	const junk = 48 << 20
	huge := append([]byte(lines[0]+"\n"+lines[1]+"\n"), bytes.Repeat([]byte("0 0000000000000000000000000000000000000000 0 0000000000000000000000000000000000000000 x\n"), junk/86)...)
	must(t, os.WriteFile(filepath.Join(state, "history.idx"), huge, 0o666))

	_, s, err := openSession(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sum, err := s.Summarize()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Commits != 9 || sum.Edits != 9 {
		t.Errorf("summary: %d commits, %d edits; want 9, 9", sum.Commits, sum.Edits)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > junk/8 {
		t.Errorf("reading the summary over a %d MiB index allocated %d MiB: the file was read whole", junk>>20, alloc>>20)
	}

	// A header that counts 2^40 commits, checksummed: the ids file is
	// stat'ed, not read into a buffer of that size.
	fields := strings.Fields(lines[1])
	fields[2] = strconv.Itoa(1 << 40)
	lines[1] = strings.Join(fields, " ")
	must(t, os.WriteFile(filepath.Join(state, "history.idx"), session.ResealIndex(lines[:len(lines)-1]), 0o666))
	_, s, err = openSession(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Matching(plumbing.NewHash(gittest.Rev(t, dir, "refs/edits/s")), "0"); err != nil {
		t.Fatal(err)
	}
}
