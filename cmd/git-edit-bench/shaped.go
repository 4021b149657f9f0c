package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os/exec"
	"path"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// shape describes a repository shaped like git's own: a few thousand
// files in a few hundred directories up to MaxDepth deep, and a long
// history in which every commit changes a handful of files, mostly in one
// directory, as real commits do. It is generated from Seed alone, so the
// same shape always gives the same commits (see TestShapedIsReproducible).
type shape struct {
	Seed     uint64
	Dirs     int // directories, the root included
	Files    int
	MaxDepth int
	Commits  int // commits after the first, which adds every file
	MaxTouch int // files one commit changes: 1 to MaxTouch, uniformly
	// MinSize and MaxSize bound a file's size, drawn log-uniformly (most
	// files small, a few large, as in a source tree).
	MinSize, MaxSize int
	// Extra files (slash paths) a last commit adds: the benchmark's own.
	Extra map[string][]byte
}

// gitShaped is the benchmark's git-shaped repository: about git's 4,800
// files in 300 directories, and 6,500 commits after the first, which with
// their trees make a few hundred thousand objects in one pack.
var gitShaped = shape{Seed: 14, Dirs: 300, Files: 4800, MaxDepth: 4, Commits: 6500, MaxTouch: 40, MinSize: 200, MaxSize: 24 << 10}

// words make up file and directory names and the text of lines.
var words = strings.Fields(`alpha bravo commit tree blob index pack delta object refs
	remote fetch merge rebase config diff apply patch stash worktree hook reset branch tag log
	status grep blame bisect archive bundle notes replace submodule sparse attr ignore mailmap
	date ident path quote strbuf string list hash oid sha1 sha256 zlib http transport protocol
	sideband progress trace usage parse options revision walker graph commit-graph midx bitmap`)

var exts = []string{".c", ".c", ".c", ".h", ".h", ".sh", ".txt", ".adoc", ".pl", ".py", ".mk", ".po"}

// generateShaped makes a repository (branch main, checked out) in dir,
// which must not exist or be empty, by streaming the shape's history into
// `git fast-import`: one pack, no loose objects.
func generateShaped(dir string, s shape) error {
	err := fastImport(dir, []string{"--depth=50"}, func(w io.Writer) error { return writeShaped(w, s) })
	if err != nil {
		return err
	}
	_, err = packtest.Git(dir, nil, "reset", "-q", "--hard", "main")
	return err
}

// fastImport makes a repository in dir (which must not exist or be empty),
// branch main, and streams into `git fast-import --quiet` (with args) what
// write writes: one pack, no loose objects, nothing checked out. The error
// is git's, else write's.
func fastImport(dir string, args []string, write func(io.Writer) error) error {
	if _, err := packtest.Git("", nil, "init", "-q", "-b", "main", dir); err != nil {
		return err
	}
	cmd := exec.Command("git", append([]string{"fast-import", "--quiet"}, args...)...)
	cmd.Dir = dir
	cmd.Env = packtest.Env()
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		return err
	}
	werr := write(in)
	cerr := in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w: %s", err, strings.TrimSpace(errb.String()))
	}
	return errors.Join(werr, cerr)
}

// writeShaped writes the fast-import stream of shape s to w.
func writeShaped(w io.Writer, s shape) error {
	rng := rand.New(rand.NewPCG(s.Seed, 0x6769742d65646974)) // "git-edit"
	word := func() string { return words[rng.IntN(len(words))] }

	// Directories: each hangs under an earlier one that is not too deep.
	dirs := []string{""}
	depth := []int{0}
	for d := 1; d < s.Dirs; d++ {
		p := rng.IntN(len(dirs))
		for depth[p] >= s.MaxDepth {
			p = rng.IntN(len(dirs))
		}
		dirs = append(dirs, path.Join(dirs[p], fmt.Sprintf("%s%d", word(), d)))
		depth = append(depth, depth[p]+1)
	}
	// Files: each in a random directory, its lines kept to change later.
	type file struct {
		path  string
		lines []string
	}
	files := make([]file, s.Files)
	byDir := make([][]int, len(dirs))
	line := func() string {
		n := 2 + rng.IntN(8)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Repeat("\t", rng.IntN(3)) + strings.Join(ws, " ") + ";"
	}
	for i := range files {
		d := rng.IntN(len(dirs))
		f := &files[i]
		f.path = path.Join(dirs[d], fmt.Sprintf("%s-%d%s", word(), i, exts[rng.IntN(len(exts))]))
		byDir[d] = append(byDir[d], i)
		size := int(math.Exp(math.Log(float64(s.MinSize)) + rng.Float64()*math.Log(float64(s.MaxSize)/float64(s.MinSize))))
		f.lines = append(f.lines, "/* "+f.path+" */")
		for n := len(f.lines[0]); n < size; {
			l := line()
			f.lines = append(f.lines, l)
			n += len(l) + 1
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var b strings.Builder
	blob := func(f *file) {
		b.Reset()
		for _, l := range f.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n%s\n", f.path, b.Len(), b.String())
	}
	when := int64(1_500_000_000)
	commit := func(msg string) {
		fmt.Fprintf(bw, "commit refs/heads/main\nauthor Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", when, when, len(msg), msg)
		when += 3600
	}
	commit(fmt.Sprintf("initial: %d files in %d directories", s.Files, s.Dirs))
	for i := range files {
		blob(&files[i])
	}
	bw.WriteString("\n")
	for c := 1; c <= s.Commits; c++ {
		// Half of a commit's files come from one directory, the rest from
		// anywhere: the trees it rewrites are those of a real change.
		focus := rng.IntN(len(dirs))
		n := 1 + rng.IntN(s.MaxTouch)
		touched := map[int]bool{}
		for range n {
			i := rng.IntN(len(files))
			if ds := byDir[focus]; len(ds) > 0 && rng.IntN(2) == 0 {
				i = ds[rng.IntN(len(ds))]
			}
			touched[i] = true
		}
		commit(fmt.Sprintf("change %d files around %s", len(touched), dirs[focus]))
		for _, i := range slices.Sorted(maps.Keys(touched)) {
			f := &files[i]
			// Replace one line and insert another: a small change that
			// keeps the file's size about the same.
			f.lines[1+rng.IntN(len(f.lines)-1)] = line()
			at := 1 + rng.IntN(len(f.lines)-1)
			f.lines = slices.Insert(f.lines, at, line())
			if len(f.lines) > 3 && rng.IntN(2) == 0 {
				k := 1 + rng.IntN(len(f.lines)-1)
				f.lines = slices.Delete(f.lines, k, k+1)
			}
			blob(f)
		}
		bw.WriteString("\n")
	}
	if len(s.Extra) > 0 {
		commit("add the benchmark's files")
		for _, p := range slices.Sorted(maps.Keys(s.Extra)) {
			fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n", p, len(s.Extra[p]))
			bw.Write(s.Extra[p])
			bw.WriteString("\n")
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
