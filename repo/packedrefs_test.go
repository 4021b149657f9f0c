package repo_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// ListRefs and ReadRef find packed refs where git does, in a file git
// packed (sorted, with peeled tags) and in the same file without its
// header (which git reads line by line): every prefix lists what `git
// for-each-ref` lists, every name reads what `git rev-parse` reads, names
// that are prefixes of others and names between records included.
func TestPackedRefsAsGitReadsThem(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "f\n"})
	head := gittest.Rev(t, dir, "HEAD")
	var stdin strings.Builder
	for i := range 300 {
		fmt.Fprintf(&stdin, "create refs/edits/s%d %s\n", i, head)
		fmt.Fprintf(&stdin, "create refs/tags/v%d.%d %s\n", i/10, i%10, head)
	}
	for _, name := range []string{"refs/edits/a", "refs/edits/a-b", "refs/edits/a.b", "refs/edits/ab", "refs/edits-remote/o/p/s", "refs/heads/z"} {
		fmt.Fprintf(&stdin, "create %s %s\n", name, head)
	}
	cmd := exec.Command("git", "update-ref", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(stdin.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git update-ref: %v\n%s", err, out)
	}
	for i := range 20 { // annotated: peeled "^" lines in packed-refs
		gittest.Git(t, dir, "tag", "-a", "-m", "t", fmt.Sprintf("ann%02d", i))
	}
	gittest.Git(t, dir, "pack-refs", "--all")
	packed := filepath.Join(dir, ".git", "packed-refs")
	b, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "# pack-refs with:") || !strings.Contains(string(b), "\n^") {
		t.Fatalf("packed-refs is not what the test needs (a header, peeled lines):\n%.300s", b)
	}
	_, body, _ := strings.Cut(string(b), "\n")
	for _, c := range []struct{ name, content string }{{"sorted, as git writes it", string(b)}, {"no header", body}} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(packed, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"refs/edits/", "refs/edits/a", "refs/edits-remote/", "refs/tags/ann", "refs/tags/v1", "refs/", "refs/edits/zz", "refs/a", "refs/zzz"} {
				refs, err := r.ListRefs(prefix)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, ref := range refs {
					got = append(got, ref.Name+" "+ref.Hash.String())
				}
				want := strings.Split(strings.TrimSpace(gittest.Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)")), "\n")
				want = slices.DeleteFunc(want, func(l string) bool { return !strings.HasPrefix(l, prefix) })
				if !slices.Equal(got, want) {
					t.Errorf("ListRefs(%q) = %d refs %q…, git lists %d %q…", prefix, len(got), first(got), len(want), first(want))
				}
			}
			for _, name := range []string{"refs/edits/a", "refs/edits/a-b", "refs/edits/a.b", "refs/edits/ab", "refs/edits/s0", "refs/edits/s299", "refs/tags/ann07", "refs/tags/v29.9", "refs/heads/z", "refs/edits-remote/o/p/s"} {
				h, err := r.ReadRef(name)
				if want := gittest.Rev(t, dir, name); err != nil || h.String() != want {
					t.Errorf("ReadRef(%s) = %s, %v; git reads %s", name, h, err, want)
				}
			}
			for _, name := range []string{"refs/edits/s", "refs/edits/s3000", "refs/edits/a/", "refs/tags/ann", "refs/zzz", "refs/a"} {
				if h, err := r.ReadRef(name); err != nil || !h.IsZero() {
					t.Errorf("ReadRef(%s) = %s, %v; want none", name, h, err)
				}
			}
		})
	}
}

func first(l []string) []string { return l[:min(len(l), 2)] }
