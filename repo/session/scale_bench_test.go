package session_test

import (
	"context"
	"fmt"
	"os/exec"
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
