package session_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// packedSessions makes a repository with one real session, s0, and n-1
// more session refs naming its tip, all packed by `git pack-refs --all`
// (the person's `git gc`). It returns the directory.
func packedSessions(t testing.TB, n int) string {
	t.Helper()
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(r, "s0")
	if err != nil {
		t.Fatal(err)
	}
	path, err := r.Resolve(dir, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(context.Background(), []repo.Path{path}, session.RecordOutside, setContent("t", map[string]string{"a.txt": "b\n"})); err != nil {
		t.Fatal(err)
	}
	tip := gittest.Rev(t, dir, "refs/edits/s0")
	var in strings.Builder
	for i := 1; i < n; i++ {
		fmt.Fprintf(&in, "create refs/edits/s%d %s\n", i, tip)
	}
	gitStdin(t, dir, in.String(), "update-ref", "--stdin")
	gittest.Git(t, dir, "pack-refs", "--all")
	return dir
}

// gitStdin runs git in dir with stdin as its input.
func gitStdin(t testing.TB, dir, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// BenchmarkPackedSessions lists every session of a repository whose
// session refs are packed (sessions --json); ns/op should grow as the
// number of sessions, not its square.
func BenchmarkPackedSessions(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			dir := packedSessions(b, n)
			b.ResetTimer()
			for range b.N {
				r, err := repo.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				if sums, err := session.List(r); err != nil || len(sums) != n {
					b.Fatal(len(sums), err)
				}
			}
		})
	}
}

// BenchmarkSummarizeOversizeIndex reads a session's summary when its
// history.idx carries junk after a well-formed header (damage, or a
// hostile cache) of 1 and 32 MiB: the cost should be the session's (a
// rebuild from its 9 commits), not the file's size.
func BenchmarkSummarizeOversizeIndex(b *testing.B) {
	for _, mib := range []int{1, 32} {
		b.Run(fmt.Sprintf("junk=%dMiB", mib), func(b *testing.B) {
			dir := gittest.NewWithCommit(b, map[string]string{"a.txt": "a\n"})
			for i := range 9 {
				r, err := repo.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				s, _ := session.New(r, "s")
				p, _ := r.Resolve(dir, "a.txt")
				if _, err := s.Apply(context.Background(), []repo.Path{p}, session.RecordOutside, setContent("t", map[string]string{"a.txt": fmt.Sprint(i, "\n")})); err != nil {
					b.Fatal(err)
				}
			}
			idx := filepath.Join(dir, ".git", "git-edit", "sessions", "s", "history.idx")
			orig, err := os.ReadFile(idx)
			if err != nil {
				b.Fatal(err)
			}
			lines := strings.SplitN(string(orig), "\n", 3)
			junk := strings.Repeat("0 0000000000000000000000000000000000000000 0 0000000000000000000000000000000000000000 x\n", mib<<20/86)
			huge := []byte(lines[0] + "\n" + lines[1] + "\n" + junk)
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if err := os.WriteFile(idx, huge, 0o666); err != nil { // a rebuild replaces it
					b.Fatal(err)
				}
				r, err := repo.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				s, _ := session.New(r, "s")
				b.StartTimer()
				if sum, err := s.Summarize(); err != nil || sum.Commits != 9 {
					b.Fatal(sum.Commits, err)
				}
			}
		})
	}
}
