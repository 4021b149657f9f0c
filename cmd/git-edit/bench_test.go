package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	s, _ := session.New(r, "bench")
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
		meta := session.Meta{Op: session.OpEdit, Tool: "bench", Session: s.Name, Paths: []string{path}, Prev: map[string]plumbing.Hash{}}
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
func benchEngine(b *testing.B, edits int) *ops.Engine {
	e, err := ops.Open(ops.Options{Root: historyFixture(b, edits), Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
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
				if err := runLog(&review{w: io.Discard, width: 80}, e, logOptions{N: 20}, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// largeRepo builds, once, a repository whose HEAD holds 100,000 small files
// in nested directories plus big.txt (1 MB), packed as git fast-import
// writes it; only big.txt is in the worktree (git-edit never scans it).
var largeRepo = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "git-edit-large-")
	if err != nil {
		return "", err
	}
	historyFixtures.Store("large", func() (string, error) { return dir, nil }) // removed by TestMain
	if out, err := gitIn(dir, "init", "-q", "-b", "main"); err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env = dir, gittest.Env()
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	w := bufio.NewWriter(in)
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 4\ninit\n")
	for i := range 100_000 {
		body := fmt.Sprintf("file %d\n", i)
		fmt.Fprintf(w, "M 100644 inline d%02d/d%02d/f%05d.txt\ndata %d\n%s\n", i%100, i/100%100, i, len(body), body)
	}
	fmt.Fprintf(w, "M 100644 inline big.txt\ndata %d\n%s\n", len(bigText), bigText)
	fmt.Fprintf(w, "M 100644 inline mid.txt\ndata %d\n%s\n", len(midText), midText)
	if err := w.Flush(); err != nil {
		return "", err
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("git fast-import: %w", err)
	}
	for name, text := range map[string]string{"big.txt": bigText, "mid.txt": midText} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
})

// bigText (1 MB) and midText (50 KB) are code-like lines with one marker
// in the middle.
var bigText, midText = codeText(1 << 20), codeText(50 << 10)

func codeText(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		if i == size/2/50 {
			b.WriteString("MARKER-A\n")
		}
		fmt.Fprintf(&b, "    value_%d := compute(%d) // line of filler text\n", i, i)
	}
	return b.String()
}

// BenchmarkMCPStrReplace is the per-call cost of text_editor str_replace
// through a warm in-process MCP server, commit included (fsyncs, objects,
// ref), on a 1 MB file in a repository of 100,000 files. Each call writes a
// new marker number, so every call makes new content: a new blob to hash,
// compress and store, as a real edit does.
func BenchmarkMCPStrReplace(b *testing.B) {
	for _, f := range []struct{ name, file string }{{"1MB", "big.txt"}, {"50KB", "mid.txt"}} {
		b.Run(f.name, func(b *testing.B) { benchMCPStrReplace(b, f.file) })
	}
}

func benchMCPStrReplace(b *testing.B, file string) {
	dir, err := largeRepo()
	if err != nil {
		b.Fatal(err)
	}
	e, err := ops.Open(ops.Options{Root: dir, Session: "bench-mcp"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	server, err := newMCPServer(e, []string{"text_editor"}, &ops.Observer{})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	content, _ := os.ReadFile(filepath.Join(dir, file))
	marker := regexp.MustCompile(`MARKER-[A-Z0-9]+`).Find(content)
	n := time.Now().UnixNano() // unique across runs on the cached fixture
	call := func() {
		next := fmt.Sprintf("MARKER-%d", n)
		n++
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "text_editor",
			Arguments: map[string]any{"command": "str_replace", "path": file, "old_str": string(marker), "new_str": next}})
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
		marker = []byte(next)
	}
	call() // warm: pack indexes read, session ref created
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		call()
	}
}
