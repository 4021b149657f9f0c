package undo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// The objects blame makes up are a pack git itself reads and finds sound
// (git cat-file, git verify-pack, git fsck --strict on the temporary
// directory with the repository's objects as the alternate), and none of
// them is written into the repository.
func TestBlameQuarantineObjects(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a/b/f.txt": "x\n"})
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	head := plumbing.NewHash(gittest.Rev(t, dir, "HEAD"))
	q, err := newQuarantine(r)
	if err != nil {
		t.Fatal(err)
	}
	set := newObjset()
	blob := set.add(plumbing.BlobObject, []byte("x\ny\n"))
	tree := set.pathTree("a/b/f.txt", repo.Entry{Hash: blob, Mode: filemode.Executable})
	c := set.commit(tree, []plumbing.Hash{head}, time.Unix(1700000000, 0), "made up")
	if err := q.writePack(set); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(), "GIT_OBJECT_DIRECTORY="+q.objs, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(dir, ".git", "objects"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if got := git("cat-file", "-p", c.String()+":a/b/f.txt"); got != "x\ny\n" {
		t.Errorf("the made-up commit holds %q", got)
	}
	if got := git("ls-tree", "-r", c.String()); got != "100755 blob "+blob.String()+"\ta/b/f.txt\n" {
		t.Errorf("the made-up tree is %q", got)
	}
	if got := strings.TrimSpace(git("rev-parse", c.String()+"^")); got != head.String() {
		t.Errorf("the made-up commit's parent is %s, want %s", got, head)
	}
	git("fsck", "--strict", "--no-dangling", c.String())
	// git's own check of the pack and its index.
	packs, _ := filepath.Glob(filepath.Join(q.objs, "pack", "*.idx"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	if got := git("verify-pack", "-v", packs[0]); !strings.Contains(got, c.String()+" commit") || !strings.Contains(got, blob.String()+" blob") {
		t.Errorf("git verify-pack:\n%s", got)
	}
	out, err := q.git(context.Background(), nil, "cat-file", "-t", c.String())
	if err != nil || strings.TrimSpace(string(out)) != "commit" {
		t.Errorf("q.git cat-file: %q %v", out, err)
	}
	if _, err := gittest.GitErr(dir, "cat-file", "-e", c.String()); err == nil {
		t.Error("the made-up commit is in the repository")
	}
	q.remove()
	if _, err := os.Stat(q.dir); !os.IsNotExist(err) {
		t.Errorf("the temporary directory is left: %v", err)
	}
}
