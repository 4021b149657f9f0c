package main

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// chromiumTiny is chromiumShape at a hundredth of its size: the same
// depth, files per directory and file sizes.
var chromiumTiny = func() treeShape {
	s := chromiumShape
	s.Dirs, s.Files = s.Dirs/100, s.Files/100
	return s
}()

// The layout is the seed's alone, and it has the asked shape: exactly the
// directories and files asked for, every depth from 1 to MaxDepth used
// and none deeper, directories spread as depthWeights says (most at 5 to
// 9), paths of Chromium's length (the full shape's make an index of about
// 60 MB).
func TestTreeLayout(t *testing.T) {
	for _, s := range []treeShape{chromiumTiny, chromiumShape, smallShape100} {
		dirs, depth, files, fileDir := s.layout()
		dirs2, _, files2, _ := s.layout()
		if !slices.Equal(dirs, dirs2) || !slices.Equal(files, files2) {
			t.Fatal("the same shape gave another layout")
		}
		if len(dirs) != s.Dirs || len(files) != s.Files {
			t.Fatalf("%d directories and %d files, want %d and %d", len(dirs), len(files), s.Dirs, s.Files)
		}
		perDepth := make([]int, s.MaxDepth+1)
		for _, d := range depth {
			perDepth[d]++
		}
		if slices.Contains(perDepth, 0) {
			t.Fatalf("a depth has no directory: %v", perDepth)
		}
		if slices.Max(depth) != s.MaxDepth {
			t.Fatalf("deepest directory at %d, want %d", slices.Max(depth), s.MaxDepth)
		}
		if s.Dirs > 1000 && perDepth[7] < perDepth[2]*10 {
			t.Fatalf("directories not spread as Chromium's: %v", perDepth)
		}
		for i, f := range files {
			if path.Dir(f) != dirs[fileDir[i]] && !(dirs[fileDir[i]] == "" && path.Dir(f) == ".") {
				t.Fatalf("file %s is not in its directory %q", f, dirs[fileDir[i]])
			}
		}
		if s.Files >= 4000 {
			// The index's entries: 62 bytes, the path, NULs to a multiple of 8.
			entries := 0
			for _, f := range files {
				entries += (62 + len(f) + 8) &^ 7
			}
			perFile := float64(entries) / float64(len(files))
			if perFile < 115 || perFile > 140 {
				t.Fatalf("index entries of %.0f bytes on average; 60 MB for 470,000 files is about 128", perFile)
			}
		}
	}
	if d := strings.Count(targetDir(), "/") + 1; d != targetDepth {
		t.Fatalf("targetDir %s is at depth %d", targetDir(), d)
	}
}

// The generated tree, at a hundredth of Chromium's scale, is what the
// layout says, sound (git fsck --strict), and its checkout (cloneTree) is
// set up as a person's large checkout: untracked cache on and in the
// index, no fsmonitor, the rows' files committed, git status clean. Its
// 100-file twin holds the edited file at the same path.
func TestGenerateTree(t *testing.T) {
	dirs, depth, _, _ := chromiumTiny.layout()
	deep := dirs[slices.Index(depth, targetDepth)]
	s := chromiumTiny
	s.Extra = map[string][]byte{deep + "/edit.cc": textFile(1 << 10)}
	cache := filepath.Join(t.TempDir(), "cache")
	if err := generateTree(cache, s); err != nil {
		t.Fatal(err)
	}
	gittest.Fsck(t, cache)
	if packs := gittest.Git(t, cache, "count-objects", "-v"); !strings.Contains(packs, "packs: 1\n") || !strings.Contains(packs, "count: 0\n") {
		t.Fatalf("want every object in one pack:\n%s", packs)
	}
	work := filepath.Join(t.TempDir(), "work")
	rowFiles := map[string][]byte{deep + "/first.cc": histFile(0), "top.cc": histFile(0)}
	if _, err := cloneTree(cache, work, rowFiles); err != nil {
		t.Fatal(err)
	}
	gittest.Fsck(t, work)
	if st := gittest.Status(t, work); st != "" {
		t.Fatalf("not clean after cloneTree:\n%s", st)
	}
	tracked := strings.Fields(gittest.Git(t, work, "ls-files"))
	if want := s.Files + len(s.Extra) + len(rowFiles); len(tracked) != want {
		t.Fatalf("%d files tracked, want %d", len(tracked), want)
	}
	seen := map[string]bool{}
	maxDepth := 0
	for _, f := range tracked {
		maxDepth = max(maxDepth, strings.Count(f, "/"))
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			seen[d] = true
		}
	}
	if len(seen) != s.Dirs-1 || maxDepth != s.MaxDepth {
		t.Fatalf("%d directories up to %d deep, want %d up to %d", len(seen), maxDepth, s.Dirs-1, s.MaxDepth)
	}
	for _, f := range []string{deep + "/edit.cc", deep + "/first.cc"} {
		if !slices.Contains(tracked, f) || strings.Count(f, "/") != targetDepth {
			t.Fatalf("%s not tracked at depth %d", f, targetDepth)
		}
	}
	cfg := gittest.Git(t, work, "config", "--list", "--local")
	if !strings.Contains(cfg, "core.untrackedcache=true\n") || !strings.Contains(cfg, "core.fsmonitor=false\n") {
		t.Fatalf("config:\n%s", cfg)
	}
	index, err := os.ReadFile(filepath.Join(work, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(index, []byte("UNTR")) {
		t.Fatal("the index has no untracked cache")
	}
	if n := strings.Count(gittest.Git(t, work, "rev-list", "HEAD"), "\n"); n != 2 {
		t.Fatalf("%d commits, want the generated one and the rows' files", n)
	}

	// The small twin: the same kind of files, the edited one at the same path.
	twin := withEdit(smallShape100)
	small := filepath.Join(t.TempDir(), "small")
	if err := generateTree(small, twin); err != nil {
		t.Fatal(err)
	}
	gittest.Fsck(t, small)
	got := strings.Fields(gittest.Git(t, small, "ls-tree", "-r", "--name-only", "HEAD"))
	if len(got) != smallShape100.Files+1 || !slices.Contains(got, chromiumEdit()) {
		t.Fatalf("the twin has %d files (want %d), %s among them: %v", len(got), smallShape100.Files+1, chromiumEdit(), slices.Contains(got, chromiumEdit()))
	}
}
