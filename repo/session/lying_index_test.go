package session_test

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// forgedIndex is a session's history index as read from its two files,
// to be changed and written back with every checksum right: an index
// that lies, as a bug or a hostile hand could leave it.
type forgedIndex struct {
	tip, base string
	n, edits  int
	pathLines []string // "first firstHash last lastHash path"
	ids       [][]byte // 20 bytes each, oldest first
}

func readForged(t *testing.T, state string) *forgedIndex {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(state, "history.idx"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(idx), "\n"), "\n")
	var f forgedIndex
	var nPaths int
	var pcrc uint32
	if _, err := fmt.Sscanf(lines[1], "%s %s %d %d %d %x", &f.tip, &f.base, &f.n, &f.edits, &nPaths, &pcrc); err != nil {
		t.Fatalf("history.idx header %q: %v", lines[1], err)
	}
	f.pathLines = lines[2 : 2+nPaths]
	ids, err := os.ReadFile(filepath.Join(state, "history.commits"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < f.n; i++ {
		f.ids = append(f.ids, ids[i*20:i*20+20])
	}
	return &f
}

// write writes f back as git-edit writes an index: both checksums right.
func (f *forgedIndex) write(t *testing.T, state string) {
	t.Helper()
	table := crc32.MakeTable(crc32.Castagnoli)
	ids := bytes.Join(f.ids, nil)
	var b bytes.Buffer
	fmt.Fprintf(&b, "git-edit history index 2\n%s %s %d %d %d %08x\n", f.tip, f.base, f.n, f.edits, len(f.pathLines), crc32.Checksum(ids, table))
	for _, l := range f.pathLines {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "crc %08x\n", crc32.Checksum(b.Bytes(), table))
	must(t, os.WriteFile(filepath.Join(state, "history.commits"), ids, 0o666))
	must(t, os.WriteFile(filepath.Join(state, "history.idx"), b.Bytes(), 0o666))
}

// legacyEdits writes n edits of a.txt on session name as a git-edit
// older than the Edit-Seq trailer wrote them (the repo layer, Meta's
// message without Edit-Seq), and moves the ref to the last.
func legacyEdits(t *testing.T, dir, name string, n int) {
	t.Helper()
	editsWithMeta(t, dir, name, n, nil)
}

// editsWithMeta is legacyEdits with each commit's trailers adjusted by
// adjust (the i-th commit's, from 0) before it is written.
func editsWithMeta(t *testing.T, dir, name string, n int, adjust func(i int, m *session.Meta)) {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	parent, err := r.ReadRef("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	batch := r.BeginBatch()
	defer batch.End()
	var prev plumbing.Hash
	when := time.Now().Add(-time.Hour)
	for i := range n {
		meta := session.Meta{Op: session.OpEdit, Tool: "test.set", Session: name, Paths: []string{"a.txt"}, Prev: map[string]plumbing.Hash{}}
		if i%3 == 2 {
			meta.Op, meta.Tool = session.OpSync, "" // not every commit is an edit
		}
		if !prev.IsZero() {
			meta.Prev["a.txt"] = prev
		}
		if adjust != nil {
			adjust(i, &meta)
		}
		blob, err := r.StoreBlob([]byte(fmt.Sprintf("legacy %d\n", i)))
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.TreeOf(parent)
		if err != nil {
			t.Fatal(err)
		}
		if tree, err = r.EditTree(tree, map[string]repo.Entry{"a.txt": {Hash: blob, Mode: 0o100644}}); err != nil {
			t.Fatal(err)
		}
		c, err := r.StoreCommit(tree, parent, meta.Message("test.set: a.txt"), when.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		prev, parent = c, c
	}
	must(t, batch.Flush())
	must(t, r.UpdateRef(session.RefName(name), plumbing.ZeroHash, parent, "legacy"))
	batch.Release()
	must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte(fmt.Sprintf("legacy %d\n", n-1)), 0o644))
}

// TestAttackLyingIndexIsCheckedAgainstCommits: a history index whose
// checksums are right but whose content lies (two commit ids swapped; the
// count of edits off; the oldest commit left out and every position
// shifted) never gives a wrong answer: `tip~1` and `tip~2` resolve to the
// commits git names, a commit found by its id is the one git names,
// Summarize counts what git counts, and every index question answers as
// git does. For a session written before the Edit-Seq trailer (nothing
// in its commits to check positions against) the index read from disk is
// not trusted: it is rebuilt by a walk.
func TestAttackLyingIndexIsCheckedAgainstCommits(t *testing.T) {
	lies := map[string]func(f *forgedIndex){
		"ids swapped": func(f *forgedIndex) {
			f.ids[f.n-2], f.ids[f.n-3] = f.ids[f.n-3], f.ids[f.n-2]
		},
		"edits off": func(f *forgedIndex) { f.edits -= 2 },
		"oldest left out": func(f *forgedIndex) {
			f.ids, f.n = f.ids[1:], f.n-1
			for i, l := range f.pathLines {
				fs := strings.SplitN(l, " ", 5)
				first, _ := strconv.Atoi(fs[0])
				last, _ := strconv.Atoi(fs[2])
				f.pathLines[i] = fmt.Sprintf("%d %s %d %s %s", max(first-1, 0), fs[1], last-1, fs[3], fs[4])
			}
		},
	}
	for _, legacy := range []bool{false, true} {
		for what, lie := range lies {
			t.Run(fmt.Sprintf("legacy=%v/%s", legacy, what), func(t *testing.T) {
				dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
				if legacy {
					legacyEdits(t, dir, "s", 12)
				} else {
					for i := range 12 {
						r, s := open(t, dir, "s")
						plan := setContent("test.set", map[string]string{"a.txt": fmt.Sprint(i, "\n")})
						if i%4 == 3 {
							// A change on disk first: a sync commit, which is no edit.
							must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte(fmt.Sprint("person ", i, "\n")), 0o644))
						}
						if _, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt"), session.RecordOutside, plan); err != nil {
							t.Fatal(err)
						}
					}
				}
				// The index is written by a first read.
				if _, s := open(t, dir, "s"); s != nil {
					if _, err := s.Summarize(); err != nil {
						t.Fatal(err)
					}
				}
				state := filepath.Join(dir, ".git", "git-edit", "sessions", "s")
				f := readForged(t, state)
				lie(f)
				f.write(t, state)

				gh := readGitHistory(t, dir, "refs/edits/s")
				tip := plumbing.NewHash(gh.ids[len(gh.ids)-1])
				_, s := open(t, dir, "s")
				n := len(gh.ids)
				for _, name := range []string{"tip~1", "tip~2", fmt.Sprint("tip~", n-1), gh.ids[len(gh.ids)-3][:8], gh.ids[2][:8] + "~1"} {
					want := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", strings.Replace(strings.Replace(name, "tip", "refs/edits/s", 1), gh.ids[2][:8], gh.ids[2], 1)))
					c, err := undo.Resolve(s, tip, name)
					if err != nil || c.Hash.String() != want {
						t.Errorf("Resolve(%s) = %s, %v; git says %s", name, c.Hash, err, want)
					}
				}
				if _, err := undo.Resolve(s, tip, fmt.Sprint("tip~", n)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has only %d commits before it", n-1)) {
					t.Errorf("Resolve(tip~%d) = %v; want: has only %d commits before it", n, err, n-1)
				}
				sum, err := s.Summarize()
				if err != nil {
					t.Fatal(err)
				}
				wantEdits := 0
				for _, op := range strings.Fields(gittest.Git(t, dir, "log", "--format=%(trailers:key=Edit-Op,valueonly)", "refs/edits/s", "^HEAD")) {
					if session.IsChange(op) {
						wantEdits++
					}
				}
				if sum.Commits != len(gh.ids) || sum.Edits != wantEdits {
					t.Errorf("Summarize: %d commits, %d edits; git counts %d, %d", sum.Commits, sum.Edits, len(gh.ids), wantEdits)
				}
				// Every other question, from a lying index again.
				f.write(t, state)
				_, s = open(t, dir, "s")
				checkIndexAnswers(t, s, gh, []string{"a.txt"})
			})
		}
	}
}

// Commits whose Edit-Seq trailers all lie (made by hand, or copied from
// another session's message) cost a walk on every question, never an
// error and never a wrong count: what the walk finds is the answer.
func TestLyingTrailersCostAWalkNeverAnError(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	editsWithMeta(t, dir, "s", 9, func(i int, m *session.Meta) {
		m.Seq, m.Edits, m.Counted = 0, 1, true
	})
	gh := readGitHistory(t, dir, "refs/edits/s")
	for round := range 2 { // the second reads the index the first wrote
		_, s := open(t, dir, "s")
		sum, err := s.Summarize()
		if err != nil || sum.Commits != len(gh.ids) || sum.Edits != 6 {
			t.Fatalf("round %d: Summarize = %d commits, %d edits, %v; git counts %d commits, 6 edits", round, sum.Commits, sum.Edits, err, len(gh.ids))
		}
		tip := plumbing.NewHash(gh.ids[len(gh.ids)-1])
		want := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/s~3"))
		if c, err := undo.Resolve(s, tip, "tip~3"); err != nil || c.Hash.String() != want {
			t.Fatalf("round %d: Resolve(tip~3) = %s, %v; git says %s", round, c.Hash, err, want)
		}
	}
}
