package ops_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// benchSessionPaths is how many files a benchmark session's edits go
// round: each is edited commits/benchSessionPaths times.
const benchSessionPaths = 50

// benchLines is a benchmark file's content: n lines, line k replaced.
func benchLines(n, k int, with string) []byte {
	var b bytes.Buffer
	for i := range n {
		if i == k {
			fmt.Fprintf(&b, "%s\n", with)
		} else {
			fmt.Fprintf(&b, "line %d of a file the session edits, long enough to look like code\n", i)
		}
	}
	return b.Bytes()
}

// buildBenchSession makes a repository whose session "bench" holds
// commits edits round benchSessionPaths files of lines lines each, written
// with the repo layer exactly as Apply writes them (session.Meta's
// message with Edit-Prev, Edit-Stat and Edit-Seq, tree surgery from the parent), each
// commit in its own batch and ref update as an edit writes it, and puts the
// worktree at the session's tip.
func buildBenchSession(b *testing.B, commits, lines int) string {
	b.Helper()
	files := map[string]string{}
	for i := range benchSessionPaths {
		files[fmt.Sprintf("src/f%02d.txt", i)] = string(benchLines(lines, -1, ""))
	}
	dir := gittest.NewWithCommit(b, files)
	r, err := repo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	parent, err := r.ReadRef("HEAD")
	if err != nil {
		b.Fatal(err)
	}
	cur := map[string][]byte{}
	for p, c := range files {
		cur[p] = []byte(c)
	}
	prev := map[string]plumbing.Hash{}
	when := time.Now().Add(-time.Duration(commits) * time.Second)
	unlock, err := r.Lock(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer unlock()
	tip := plumbing.ZeroHash
	for i := 1; i <= commits; i++ {
		// Each commit its own batch, pack and ref update, as each edit
		// of a real session is: the objects are stored as git-edit
		// stores an agent's session, never as one pack.
		batch := r.BeginBatch()
		p := fmt.Sprintf("src/f%02d.txt", (i-1)%benchSessionPaths)
		// Alternating between two lines keeps the net change the same
		// whatever the session's length.
		after := benchLines(lines, (i/benchSessionPaths)%2, fmt.Sprintf("edit %d", i))
		a, rm := diffview.Stat(cur[p], after)
		meta := session.Meta{Op: session.OpEdit, Tool: "text_editor.str_replace", Session: "bench", Paths: []string{p},
			Prev: map[string]plumbing.Hash{}, Stat: map[string]session.LineCount{p: {Added: a, Removed: rm}},
			Seq: i - 1, Edits: i, Counted: true}
		if h, ok := prev[p]; ok {
			meta.Prev[p] = h
		}
		blob, err := r.StoreBlob(after)
		if err != nil {
			b.Fatal(err)
		}
		tree, err := r.TreeOf(parent)
		if err != nil {
			b.Fatal(err)
		}
		if tree, err = r.EditTree(tree, map[string]repo.Entry{p: {Hash: blob, Mode: 0o100644}}); err != nil {
			b.Fatal(err)
		}
		c, err := r.StoreCommit(tree, parent, meta.Message("text_editor.str_replace: "+p), when.Add(time.Duration(i)*time.Second))
		if err != nil {
			b.Fatal(err)
		}
		cur[p], prev[p], parent = after, c, c
		if err := batch.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := r.UpdateRef("refs/edits/bench", tip, parent, "bench"); err != nil {
			b.Fatal(err)
		}
		batch.Release()
		batch.End()
		tip = parent
	}
	for p, c := range cur {
		if err := os.WriteFile(filepath.Join(dir, p), c, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkHistoryLength runs each history operation on a session of 100
// commits and one of 2,000, alternating, each time in a newly opened
// engine (as the CLI runs one command per process), and reports the
// medians and their ratio (ratio-2000/100; the target is <= 1.5).
// Each commit of both sessions is stored as an edit stores it (its own
// batch), so the objects are laid out as a real session's are.
func BenchmarkHistoryLength(b *testing.B) {
	sizes := []int{100, 2000}
	if testing.Short() {
		sizes = []int{100, 500}
	}
	dirs := make([]string, len(sizes))
	for i, n := range sizes {
		dirs[i] = buildBenchSession(b, n, 40)
	}
	ctx := context.Background()
	open := func(b *testing.B, dir string) *ops.Engine {
		e, err := ops.Open(ops.Options{Root: dir, Session: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	for _, dir := range dirs {
		// The index of a session written by an older git-edit is built
		// once, by its first read; measured separately (index-build).
		e := open(b, dir)
		if _, err := e.Session.Summarize(); err != nil {
			b.Fatal(err)
		}
		// One turn of three edits, with a checkpoint before it, at the
		// end of the session: what undo --turn, rollback --to and
		// checkpoint NAME ask about.
		if _, err := e.Checkpoint(ctx, "bench-cp", false); err != nil {
			b.Fatal(err)
		}
		for k := range 3 {
			args := fmt.Sprintf(`{"command":"create","path":"turn/t%d.txt","file_text":"t\n"}`, k)
			if res, err := e.Call(session.WithTurn(ctx, "bench-turn"), "text_editor", []byte(args)); err != nil || !res.OK {
				b.Fatalf("%v %s", err, res.Text)
			}
		}
		e.Close()
	}
	mid := make([]string, len(sizes))
	for i, dir := range dirs {
		mid[i] = strings.TrimSpace(gittest.Git(b, dir, "rev-parse", fmt.Sprintf("refs/edits/bench~%d", sizes[i]/2)))[:12]
	}
	fresh := 0
	steps := []struct {
		name string
		run  func(b *testing.B, i int, e *ops.Engine)
	}{
		{"first-edit-of-new-path", func(b *testing.B, i int, e *ops.Engine) {
			fresh++
			args := fmt.Sprintf(`{"command":"create","path":"new/n%d.txt","file_text":"new\n"}`, fresh)
			if res, err := e.Call(ctx, "text_editor", []byte(args)); err != nil || !res.OK {
				b.Fatalf("%v %s", err, res.Text)
			}
		}},
		{"show", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.Show(mid[i], true); err != nil {
				b.Fatal(err)
			}
		}},
		{"diff", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.NetDiff(nil); err != nil {
				b.Fatal(err)
			}
		}},
		{"sessions", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := session.List(e.Repo); err != nil {
				b.Fatal(err)
			}
		}},
		{"undo", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.Undo(ctx, "src/f07.txt", false); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := e.Redo(ctx, "src/f07.txt", false); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}},
		{"undo-turn-dry-run", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistUndo, Turn: "bench-turn", DryRun: true}); err != nil {
				b.Fatal(err)
			}
		}},
		{"rollback-to-checkpoint-dry-run", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.History(ctx, ops.HistoryRequest{Op: ops.HistRollback, To: "checkpoint:bench-cp", DryRun: true}); err != nil {
				b.Fatal(err)
			}
		}},
		{"checkpoint-name-in-use", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.Checkpoint(ctx, "bench-cp", true); !errors.Is(err, session.ErrCheckpointExists) {
				b.Fatal(err)
			}
		}},
		{"log-n20", func(b *testing.B, i int, e *ops.Engine) {
			if _, err := e.Log(20, nil, false); err != nil {
				b.Fatal(err)
			}
		}},
		{"edit_history", func(b *testing.B, i int, e *ops.Engine) {
			if res, err := e.Call(ctx, "edit_history", []byte(`{"n":5}`)); err != nil || !res.OK {
				b.Fatalf("%v %s", err, res.Text)
			}
		}},
	}
	for _, op := range steps {
		b.Run(op.name, func(b *testing.B) {
			times := make([][]time.Duration, len(sizes))
			for n := 0; n < b.N; n++ {
				for k := range sizes {
					i := (n + k) % len(sizes) // alternate which size goes first
					e := open(b, dirs[i])
					start := time.Now()
					op.run(b, i, e)
					times[i] = append(times[i], time.Since(start))
					e.Close()
				}
			}
			med := make([]float64, len(sizes))
			for i := range sizes {
				slices.Sort(times[i])
				med[i] = float64(times[i][len(times[i])/2]) / 1e6
				b.ReportMetric(med[i], fmt.Sprintf("ms-%d", sizes[i]))
			}
			b.ReportMetric(med[1]/med[0], fmt.Sprintf("ratio-%d/%d", sizes[1], sizes[0]))
		})
	}
}
