package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/git-edit/git-edit/engine"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// historyFixtures builds, once per size, a repository whose session "bench"
// has that many edit commits spread round-robin over 100 files: real
// session commits (trees by surgery, Edit-Prev trailers), written through
// repo's primitives instead of 10,000 fsynced edits so that it builds in
// seconds. The worktree holds the tip's files.
var historyFixtures sync.Map // edits -> func() (string, error)

func historyFixture(b *testing.B, edits int) string {
	build, _ := historyFixtures.LoadOrStore(edits, sync.OnceValues(func() (string, error) {
		return buildHistory(edits, 100)
	}))
	dir, err := build.(func() (string, error))()
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

func buildHistory(edits, files int) (string, error) {
	dir, err := os.MkdirTemp("", "git-edit-history-")
	if err != nil {
		return "", err
	}
	if out, err := gitIn(dir, "init", "-q", "-b", "main"); err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	r, err := repo.Open(dir)
	if err != nil {
		return "", err
	}
	s, _ := repo.NewSession(r, "bench")
	content := map[string]string{}
	last := map[string]plumbing.Hash{}
	var tip, tree plumbing.Hash
	now := time.Now().Add(-time.Hour)
	for i := range edits {
		path := fmt.Sprintf("dir%02d/file%03d.txt", i%files%10, i%files)
		content[path] += fmt.Sprintf("line %d\n", i)
		blob, err := r.StoreBlob([]byte(content[path]))
		if err != nil {
			return "", err
		}
		if tree, err = r.EditTree(tree, map[string]repo.Entry{path: {Hash: blob, Mode: filemode.Regular}}); err != nil {
			return "", err
		}
		meta := repo.Meta{Op: repo.OpEdit, Tool: "bench", Session: s.Name, Paths: []string{path}, Prev: map[string]plumbing.Hash{}}
		if prev, ok := last[path]; ok {
			meta.Prev[path] = prev
		}
		if tip, err = r.StoreCommit(tree, tip, meta.Message("bench: "+path), now.Add(time.Duration(i)*time.Millisecond)); err != nil {
			return "", err
		}
		last[path] = tip
	}
	if err := r.UpdateRef(s.Ref(), plumbing.ZeroHash, tip, "bench fixture"); err != nil {
		return "", err
	}
	for p, c := range content {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o777)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// benchEngine opens the "bench" session of a fixture with that many edits.
func benchEngine(b *testing.B, edits int) *engine.Engine {
	e, err := engine.Open(engine.Options{Root: historyFixture(b, edits), Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

func gitIn(dir string, args ...string) (string, error) {
	return gittest.GitErr(dir, args...)
}

// BenchmarkUndoRedo: `git edit undo PATH` then `redo PATH` (two commits,
// files written and fsynced) in a 100-edit and a 10,000-edit session; the
// ratio between the two is what the history's length costs.
func BenchmarkUndoRedo(b *testing.B) {
	for _, edits := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("edits=%d", edits), func(b *testing.B) {
			e := benchEngine(b, edits)
			path := "dir05/file055.txt"
			for b.Loop() {
				if _, err := e.Undo(context.Background(), path, false); err != nil {
					b.Fatal(err)
				}
				if _, err := e.Redo(context.Background(), path, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLog20: `git edit log -n 20`, lines added and removed included.
func BenchmarkLog20(b *testing.B) {
	for _, edits := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("edits=%d", edits), func(b *testing.B) {
			e := benchEngine(b, edits)
			for b.Loop() {
				if err := runLog(io.Discard, e, logOptions{N: 20}, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
