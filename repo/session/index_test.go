package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// gitHistory is the session as git itself lists it: commit ids oldest
// first, and the paths each one changed (git diff-tree).
type gitHistory struct {
	ids   []string
	paths [][]string
	base  string
}

func readGitHistory(t *testing.T, dir, ref string) gitHistory {
	t.Helper()
	var h gitHistory
	h.base = strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	for _, id := range strings.Fields(gittest.Git(t, dir, "rev-list", "--first-parent", "--reverse", ref, "^HEAD")) {
		h.ids = append(h.ids, id)
		out := gittest.Git(t, dir, "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", id+"^", id)
		h.paths = append(h.paths, strings.FieldsFunc(out, func(r rune) bool { return r == 0 }))
	}
	return h
}

// expect computes, from git's listing up to commit number lim, what the
// index must answer.
func (h gitHistory) lastTouch(lim int, path string) (string, bool) {
	for i := lim; i >= 0; i-- {
		if slices.Contains(h.paths[i], path) {
			return h.ids[i], true
		}
	}
	return "", false
}

func (h gitHistory) touched(lim int) (paths []string, first map[string]string) {
	first = map[string]string{}
	for i := 0; i <= lim; i++ {
		for _, p := range h.paths[i] {
			if _, ok := first[p]; !ok {
				first[p] = h.ids[i]
			}
		}
	}
	for i := 0; i <= lim; i++ {
		for _, p := range h.paths[i] {
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	return paths, first
}

// TestHistoryIndexAnswersAsGit builds a session of edits over a few paths
// and checks every question the history index answers against git's own
// listing of the session, with the index fresh, read back by another
// process, missing, and damaged in several ways: a wrong index costs a
// rebuild, never a wrong answer.
func TestHistoryIndexAnswersAsGit(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "c.txt": "c\n"})
	r, s := open(t, dir, "s")
	files := []string{"a.txt", "d/b.txt", "c.txt", "new.txt", "d/e.txt"}
	for i := range 40 {
		p := files[(i*7)%len(files)]
		content := fmt.Sprintf("line %d\nmore %d\n", i, i%3)
		if i%11 == 10 {
			content = gittest.Missing
		}
		if i%13 == 5 {
			gittest.WriteFile(t, dir, p, "person's change\n") // a sync commit first
		}
		if i%9 == 0 {
			s, _ = session.New(r, "s") // another process: reads the index from disk
		}
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, p), session.RecordOutside,
			setContent("test.set", map[string]string{p: content})); err != nil {
			t.Fatal(err)
		}
	}
	gh := readGitHistory(t, dir, "refs/edits/s")
	stateDir := filepath.Join(dir, ".git", "git-edit", "sessions", "s")
	idx := filepath.Join(stateDir, "history.idx")
	commits := filepath.Join(stateDir, "history.commits")
	good, err := os.ReadFile(idx)
	if err != nil {
		t.Fatalf("no index written after %d commits: %v", len(gh.ids), err)
	}
	goodCommits, _ := os.ReadFile(commits)
	// The table's lines without its checksum line, and writing them back
	// well-formed: what they say is wrong, which only the checks against
	// the commits can tell.
	tableLines := func() []string {
		l := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
		return l[:len(l)-1]
	}
	writeTable := func(lines []string) { os.WriteFile(idx, session.ResealIndex(lines), 0o666) }

	damage := []struct {
		name string
		do   func()
	}{
		{"as written", func() {}},
		{"missing", func() { os.Remove(idx); os.Remove(commits) }},
		{"garbage", func() { os.WriteFile(idx, []byte("not an index\n"), 0o666) }},
		{"truncated", func() { os.WriteFile(idx, good[:len(good)/2], 0o666) }},
		{"commits file truncated", func() { os.WriteFile(commits, goodCommits[:len(goodCommits)/2], 0o666) }},
		{"commits file reversed", func() {
			rev := slices.Clone(goodCommits)
			for i, j := 0, len(rev)/20-1; i < j; i, j = i+1, j-1 {
				for k := range 20 {
					rev[i*20+k], rev[j*20+k] = rev[j*20+k], rev[i*20+k]
				}
			}
			os.WriteFile(commits, rev, 0o666)
		}},
		{"last touches swapped", func() {
			// A well-formed index naming the wrong commits.
			lines := tableLines()
			for i := 2; i+1 < len(lines); i += 2 {
				a, b := strings.SplitN(lines[i], " ", 5), strings.SplitN(lines[i+1], " ", 5)
				a[3], b[3] = b[3], a[3]
				lines[i], lines[i+1] = strings.Join(a, " "), strings.Join(b, " ")
			}
			writeTable(lines)
		}},
		{"a last touch names a missing commit", func() {
			lines := tableLines()
			f := strings.SplitN(lines[2], " ", 5)
			f[3] = strings.Repeat("ab", 20)
			lines[2] = strings.Join(f, " ")
			writeTable(lines)
		}},
		{"a first touch names a missing commit", func() {
			lines := tableLines()
			f := strings.SplitN(lines[3], " ", 5)
			f[1] = strings.Repeat("cd", 20)
			lines[3] = strings.Join(f, " ")
			writeTable(lines)
		}},
		{"base missing", func() {
			lines := tableLines()
			f := strings.Split(lines[1], " ")
			f[1] = strings.Repeat("ef", 20)
			lines[1] = strings.Join(f, " ")
			writeTable(lines)
		}},
		{"commits file zeroed in the middle", func() {
			// As a crash may leave a file extended in place: its last id
			// written, an earlier block not.
			z := slices.Clone(goodCommits)
			clear(z[20 : len(z)-20])
			os.WriteFile(commits, z, 0o666)
		}},
		{"commits file with two ids swapped", func() {
			z := slices.Clone(goodCommits)
			for k := range 20 {
				z[20*20+k], z[21*20+k] = z[21*20+k], z[20*20+k]
			}
			os.WriteFile(commits, z, 0o666)
		}},
		{"path dropped", func() {
			// Its count too: well-formed, one path short.
			lines := tableLines()
			h := strings.Fields(lines[1])
			n, _ := strconv.Atoi(h[4])
			h[4] = strconv.Itoa(n - 1)
			lines[1] = strings.Join(h, " ")
			writeTable(append(lines[:2:2], lines[3:]...))
		}},
	}
	// Forged: well-formed with its checksum; the answers checked against
	// the commits catch it, Summarize's list of paths and base do not
	// (only a walk could).
	forged := map[string]bool{"path dropped": true, "base missing": true}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			os.WriteFile(idx, good, 0o666)
			os.WriteFile(commits, goodCommits, 0o666)
			d.do()
			// The summary first, before any other question drops a
			// wrong index.
			first, _ := session.New(r, "s")
			if got, err := first.Summarize(); err != nil {
				t.Fatal(err)
			} else if want, _ := gh.touched(len(gh.ids) - 1); !forged[d.name] && (!reflect.DeepEqual(got.Paths, want) || got.Base.String() != gh.base) {
				t.Errorf("Summarize on the damaged index: paths %v, base %s; git says %v, %s", got.Paths, got.Base, want, gh.base)
			}
			s, _ := session.New(r, "s")
			checkIndexAnswers(t, s, gh, files)
		})
	}
}

func checkIndexAnswers(t *testing.T, s *session.Session, gh gitHistory, files []string) {
	t.Helper()
	n := len(gh.ids)
	for _, lim := range []int{n - 1, n / 2, 0, n - 3} {
		tip := plumbing.NewHash(gh.ids[lim])
		last, err := s.LastTouches(tip, files)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			want, ok := gh.lastTouch(lim, p)
			if got, gotOK := last[p]; gotOK != ok || ok && got.String() != want {
				t.Errorf("LastTouches(#%d, %s) = %s %v, git says %s %v", lim, p, got, gotOK, want, ok)
			}
			first, ok, err := s.FirstTouch(tip, p)
			if err != nil {
				t.Fatal(err)
			}
			_, wantFirst := gh.touched(lim)
			if w, wok := wantFirst[p]; ok != wok || ok && first.Hash.String() != w {
				t.Errorf("FirstTouch(#%d, %s) = %s %v, git says %s %v", lim, p, first.Hash, ok, w, wok)
			}
		}
		paths, first, err := s.Touched(tip)
		if err != nil {
			t.Fatal(err)
		}
		wantPaths, wantFirst := gh.touched(lim)
		gotFirst := map[string]string{}
		for p, c := range first {
			gotFirst[p] = c.Hash.String()
		}
		if !reflect.DeepEqual(paths, wantPaths) || !reflect.DeepEqual(gotFirst, wantFirst) {
			t.Errorf("Touched(#%d) = %v %v, git says %v %v", lim, paths, gotFirst, wantPaths, wantFirst)
		}
		if got, err := s.Len(tip); err != nil || got != lim+1 {
			t.Errorf("Len(#%d) = %d, %v", lim, got, err)
		}
		for _, seq := range []int{0, lim / 2, lim} {
			c, err := s.CommitAt(tip, seq)
			if err != nil || c.Hash.String() != gh.ids[seq] {
				t.Errorf("CommitAt(#%d, %d) = %s, %v; git says %s", lim, seq, c.Hash, err, gh.ids[seq])
			}
			m, err := s.Matching(tip, gh.ids[seq][:6])
			if err != nil || !slices.Contains(m, seq) {
				t.Errorf("Matching(#%d, %s) = %v, %v; want it to hold %d", lim, gh.ids[seq][:6], m, err, seq)
			}
		}
	}
	sum, err := s.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	wantPaths, _ := gh.touched(n - 1)
	if sum.Commits != n || sum.Tip.String() != gh.ids[n-1] || sum.Base.String() != gh.base || !reflect.DeepEqual(sum.Paths, wantPaths) {
		t.Errorf("Summarize = %d commits, tip %s, base %s, paths %v; git says %d, %s, %s, %v",
			sum.Commits, sum.Tip, sum.Base, sum.Paths, n, gh.ids[n-1], gh.base, wantPaths)
	}
	edits := 0
	all, err := s.Commits(sum.Tip)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if c.Meta.Op == session.OpEdit {
			edits++
		}
	}
	if sum.Edits != edits {
		t.Errorf("Summarize: %d edits, the walk counts %d", sum.Edits, edits)
	}
}

// TestEditStatRecordsStoredBlobs: the line counts Apply records in
// Edit-Stat are those of the blobs git stores before and after each
// commit (read with git cat-file), for edits, sync commits, creations and
// deletions.
func TestEditStatRecordsStoredBlobs(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "x\n"})
	r, s := open(t, dir, "s")
	s.LineStat = diffview.Stat
	steps := []map[string]string{
		{"a.txt": "1\nTWO\n3\n4\n"},
		{"b.txt": gittest.Missing, "c.txt": "new\nfile\n"},
		{"a.txt": ""},
	}
	gittest.WriteFile(t, dir, "a.txt", "person\n1\nTWO\n3\n4\n") // recorded by a sync commit before step 3
	for i, st := range steps {
		var paths []string
		for p := range st {
			paths = append(paths, p)
		}
		if i == 2 {
			paths = append(paths, "a.txt")
		}
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, paths...), session.RecordOutside, setContent("test.set", st)); err != nil {
			t.Fatal(err)
		}
	}
	blob := func(rev, p string) []byte {
		out, err := gittest.GitErr(dir, "cat-file", "blob", rev+":"+p)
		if err != nil {
			return nil
		}
		return []byte(out)
	}
	ids := strings.Fields(gittest.Git(t, dir, "rev-list", "refs/edits/s", "^HEAD"))
	if len(ids) != 4 {
		t.Fatalf("want 3 edits and a sync commit, git lists %d commits", len(ids))
	}
	for _, id := range ids {
		c, _, err := s.ReadCommit(plumbing.NewHash(id))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Meta.Stat) != len(c.Meta.Paths) {
			t.Errorf("%s (%s): Edit-Stat for %d of %d paths", id, c.Meta.Op, len(c.Meta.Stat), len(c.Meta.Paths))
		}
		for _, p := range c.Meta.Paths {
			a, rm := diffview.Stat(blob(id+"^", p), blob(id, p))
			if got := c.Meta.Stat[p]; got != (session.LineCount{Added: a, Removed: rm}) {
				t.Errorf("%s (%s) %s: Edit-Stat %+v, git's blobs give +%d -%d", id, c.Meta.Op, p, got, a, rm)
			}
		}
	}
}
