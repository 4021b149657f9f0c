package session_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// countObjects returns `git count-objects -v` as a map (count, packs, ...).
func countObjects(t *testing.T, dir string) map[string]int {
	t.Helper()
	out := gittest.Git(t, dir, "count-objects", "-v")
	m := map[string]int{}
	for line := range strings.Lines(out) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ": ")
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("count-objects: %q", line)
		}
		m[k] = n
	}
	return m
}

// packListing names every file in objects/pack with its size.
func packListing(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, ".git", "objects", "pack"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %d", e.Name(), fi.Size()))
	}
	return out
}

// gcAuto runs `git gc --auto` in the foreground, as `git commit` would
// start it, and returns everything it printed.
func gcAuto(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "-c", "gc.autoDetach=false", "gc", "--auto")
	cmd.Dir, cmd.Env = dir, gittest.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git gc --auto: %v\n%s", err, out)
	}
	return string(out)
}

// editRound makes edits edits with Apply, round the files files (one
// line each, the counter of edit i), as an agent's session does.
func editRound(t *testing.T, dir string, s *session.Session, r *repo.Repo, files []string, from, edits int) {
	t.Helper()
	for i := from; i < from+edits; i++ {
		p := files[i%len(files)]
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, p), session.RecordOutside,
			setContent("test.set", map[string]string{p: fmt.Sprintf("%s after edit %d\n", p, i+1)})); err != nil {
			t.Fatalf("edit %d of %s: %v", i+1, p, err)
		}
	}
}

// TestPacksStayBoundedOverALongSession makes a long session and checks
// with git that git-edit's packs stay few: `git count-objects -v` shows
// at most OwnPackCap of gc.autoPackLimit packs (and no more than the
// logarithm of the objects allows), `git gc --auto` (which `git commit`
// runs) finds nothing to do and changes nothing, no loose object is
// written, the person's own packs are untouched, and every commit of the
// session reads back.
func TestPacksStayBoundedOverALongSession(t *testing.T) {
	edits := 300
	if testing.Short() {
		edits = 80
	}
	for _, limit := range []int{0, 20} { // 0: unset, git's 50
		name := "gc.autoPackLimit unset"
		if limit != 0 {
			name = fmt.Sprintf("gc.autoPackLimit=%d", limit)
		}
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			var names []string
			for i := range 12 {
				p := fmt.Sprintf("src/d%d/f%02d.txt", i%3, i)
				files[p], names = "start\n", append(names, p)
			}
			dir := gittest.NewWithCommit(t, files)
			// The person's objects in a pack of their own, and their
			// gc.autoPackLimit (0: unset, git's 50).
			gittest.Git(t, dir, "repack", "-q", "-a", "-d")
			cap := repo.OwnPackCap(50)
			if limit != 0 {
				gittest.Git(t, dir, "config", "gc.autoPackLimit", strconv.Itoa(limit))
				cap = repo.OwnPackCap(int64(limit))
			}
			persons := packListing(t, dir)
			before := countObjects(t, dir)
			r, s := open(t, dir, "s")
			editRound(t, dir, s, r, names, 0, edits/2)
			// The person packs their loose objects half-way (a commit of
			// their own first): that pack is theirs too.
			mid := packListing(t, dir)
			gittest.WriteFile(t, dir, "person.txt", "mine\n")
			gittest.Git(t, dir, "add", "person.txt")
			gittest.Git(t, dir, "commit", "-q", "-m", "person")
			gittest.Git(t, dir, "repack", "-q", "-d")
			for _, p := range packListing(t, dir) {
				if !slices.Contains(mid, p) {
					persons = append(persons, p)
				}
			}
			editRound(t, dir, s, r, names, edits/2, edits-edits/2)
			r.Close()

			after := countObjects(t, dir)
			objs := after["in-pack"] - before["in-pack"]
			ours := after["packs"] - 2 // the person's two
			bound := int(math.Log2(float64(objs))) + 1
			t.Logf("%d edits: %d objects in %d packs of git-edit's (cap %d, log bound %d)", edits, objs, ours, cap, bound)
			if ours > cap || ours > bound {
				t.Fatalf("after %d edits git-edit left %d packs (%d objects); want at most %d (a fifth of gc.autoPackLimit) and %d (log2 of its objects)",
					edits, ours, objs, cap, bound)
			}
			if after["count"] != before["count"] { // the person's own commit's objects were packed by their repack
				t.Fatalf("loose objects went from %d to %d: git-edit wrote loose objects", before["count"], after["count"])
			}
			listing := packListing(t, dir)
			for _, p := range persons {
				if strings.HasPrefix(p, "pack-") && !slices.Contains(listing, p) {
					t.Fatalf("the person's pack file %s was rewritten or removed; now:\n%s", p, strings.Join(listing, "\n"))
				}
			}
			if out := gcAuto(t, dir); out != "" {
				t.Fatalf("git gc --auto after %d edits printed:\n%s", edits, out)
			}
			if got := packListing(t, dir); !slices.Equal(got, listing) {
				t.Fatalf("git gc --auto changed the packs:\nbefore %v\nafter  %v", listing, got)
			}
			gittest.Fsck(t, dir)
			if got := gittest.Git(t, dir, "rev-list", "--count", "refs/edits/s"); got != strconv.Itoa(edits+1)+"\n" {
				t.Fatalf("session has %q commits, want %d", got, edits+1)
			}
			// Every commit of the session, its trees and blobs, read back.
			gittest.Git(t, dir, "rev-list", "--objects", "refs/edits/s")
			last := gittest.Git(t, dir, "show", "refs/edits/s:"+names[(edits-1)%len(names)])
			if want := fmt.Sprintf("%s after edit %d\n", names[(edits-1)%len(names)], edits); last != want {
				t.Fatalf("the last edit reads %q, want %q", last, want)
			}
		})
	}
}

// TestAttackGCRacesPackConsolidation runs the person's `git gc
// --prune=now` and `git repack -a -d` at each pause point of git-edit's
// roll-up of its packs (the packs chosen; the new pack in place, the old
// ones not yet deleted), then in a loop beside edits whose roll-ups wait
// a random moment at those points: no edit fails, no object is lost,
// `git fsck --strict` is clean and every commit of the session reads
// back with the content it recorded.
func TestAttackGCRacesPackConsolidation(t *testing.T) {
	names := []string{"a.txt", "d/b.txt", "d/e/c.txt"}
	start := map[string]string{}
	for _, n := range names {
		start[n] = "start\n"
	}
	check := func(t *testing.T, dir string, edits int) {
		t.Helper()
		gittest.Fsck(t, dir)
		if got := gittest.Git(t, dir, "rev-list", "--count", "refs/edits/s"); got != strconv.Itoa(edits+1)+"\n" {
			t.Fatalf("session has %q commits, want %d", got, edits+1)
		}
		gittest.Git(t, dir, "rev-list", "--objects", "refs/edits/s")
		for i := range edits {
			p := names[i%len(names)]
			rev := fmt.Sprintf("refs/edits/s~%d:%s", edits-1-i, p)
			if got, want := gittest.Git(t, dir, "show", rev), fmt.Sprintf("%s after edit %d\n", p, i+1); got != want {
				t.Fatalf("%s reads %q, want %q", rev, got, want)
			}
		}
		if keeps, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/*.keep")); len(keeps) != 0 {
			t.Fatalf("keep files left: %v", keeps)
		}
	}
	for _, point := range []string{"consolidate-chosen", "consolidate-written"} {
		for _, git := range [][]string{{"gc", "--prune=now", "--quiet"}, {"repack", "-a", "-d", "-q"}} {
			t.Run(point+" "+strings.Join(git, " "), func(t *testing.T) {
				dir := gittest.NewWithCommit(t, start)
				r, s := open(t, dir, "s")
				defer r.Close()
				raced := 0
				defer repo.SetPauseHook(func(p, _ string) {
					if p != point || raced == 3 {
						return
					}
					raced++
					if out, err := gittest.GitErr(dir, git...); err != nil {
						t.Errorf("git %s: %v\n%s", strings.Join(git, " "), err, out)
					}
				})()
				editRound(t, dir, s, r, names, 0, 30)
				if raced != 3 {
					t.Fatalf("the roll-up reached %s %d times in 30 edits, want 3", point, raced)
				}
				check(t, dir, 30)
			})
		}
	}
	t.Run("loop", func(t *testing.T) {
		edits := 40
		if testing.Short() {
			edits = 12
		}
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewSource(seed))
		var mu sync.Mutex
		dir := gittest.NewWithCommit(t, start)
		r, s := open(t, dir, "s")
		defer r.Close()
		defer repo.SetPauseHook(func(p, _ string) {
			if strings.HasPrefix(p, "consolidate-") {
				mu.Lock()
				d := time.Duration(rng.Intn(3000)) * time.Microsecond
				mu.Unlock()
				time.Sleep(d)
			}
		})()
		var stop atomic.Bool
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				args := []string{"gc", "--prune=now", "--quiet"}
				if i%2 == 1 {
					args = []string{"repack", "-a", "-d", "-q"}
				}
				if out, err := gittest.GitErr(dir, args...); err != nil {
					t.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
					return
				}
			}
		}()
		editRound(t, dir, s, r, names, 0, edits)
		stop.Store(true)
		wg.Wait()
		check(t, dir, edits)
	})
}

// TestAttackKilledMidConsolidationLosesNothing kills a git-edit process
// (this test binary, run again) at each crash point of the roll-up of its
// packs: the packs chosen; the new pack in place, the old ones all there;
// the first old pack deleted. What it left is a repository `git fsck
// --strict` accepts with every object of the session, the edit that
// started the roll-up recorded; later edits roll the leftovers up and the
// packs stay bounded, with no garbage in objects/pack.
func TestAttackKilledMidConsolidationLosesNothing(t *testing.T) {
	names := []string{"a.txt", "d/b.txt"}
	if dir := os.Getenv("GIT_EDIT_TEST_PACKS_DIR"); dir != "" {
		repo.SetCrashPoint(os.Getenv("GIT_EDIT_TEST_PACKS_AT"))
		r, s := open(t, dir, "s")
		editRound(t, dir, s, r, names, 0, 40)
		t.Fatal("the process was not killed")
	}
	for _, point := range []string{"consolidate-chosen", "consolidate-written", "consolidate-deleting"} {
		t.Run(point, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "start\n", "d/b.txt": "start\n"})
			loose := countObjects(t, dir)["count"] // the person's commit
			child := exec.Command(os.Args[0], "-test.run=^TestAttackKilledMidConsolidationLosesNothing$", "-test.count=1")
			child.Env = append(os.Environ(), "GIT_EDIT_TEST_PACKS_DIR="+dir, "GIT_EDIT_TEST_PACKS_AT="+point)
			if out, err := child.CombinedOutput(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("the child was not killed: %v\n%s", err, out)
			}
			gittest.Fsck(t, dir)
			n, err := strconv.Atoi(strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", "refs/edits/s")))
			if err != nil || n < 3 {
				t.Fatalf("the killed process's session has %d commits (%v); a roll-up comes after its second edit", n, err)
			}
			done := n - 1 // the edit whose roll-up was killed is recorded: the ref moved before
			gittest.Git(t, dir, "rev-list", "--objects", "refs/edits/s")
			for _, p := range names {
				if disk, rec := gittest.ReadFile(t, dir, p), gittest.Git(t, dir, "show", "refs/edits/s:"+p); disk != rec {
					t.Fatalf("%s on disk %q, recorded %q", p, disk, rec)
				}
			}
			r, s := open(t, dir, "s")
			editRound(t, dir, s, r, names, done, 30)
			r.Close()
			gittest.Fsck(t, dir)
			gittest.Git(t, dir, "rev-list", "--objects", "refs/edits/s")
			c := countObjects(t, dir)
			if c["packs"] > repo.OwnPackCap(50) || c["garbage"] != 0 || c["count"] != loose {
				t.Fatalf("after the killed roll-up and 30 edits: %v", c)
			}
			if temps, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/tmp_*")); len(temps) != 0 {
				t.Fatalf("temporary files left in objects/pack: %v", temps)
			}
			if out := gcAuto(t, dir); out != "" {
				t.Fatalf("git gc --auto printed:\n%s", out)
			}
		})
	}
}
