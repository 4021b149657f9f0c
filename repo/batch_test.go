package repo_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestKeepFilesAreLinksToOneTemplate checks the keep file that guards an
// operation's pack: it is a hard link to git-edit's keep template (so it
// needs no fsync of its own), git honours it, a broken template is
// written anew, and the next operation removes what a dead git-edit left
// (also the keep files of older versions) and never another program's.
func TestKeepFilesAreLinksToOneTemplate(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	packDir := filepath.Join(dir, ".git", "objects", "pack")
	template := filepath.Join(r.StateDir(), "keep")
	// A template a power cut left empty is not trusted.
	os.MkdirAll(r.StateDir(), 0o777)
	os.WriteFile(template, nil, 0o444)

	// flush writes one blob as an operation's pack and returns its keep:
	// the one keep file that is not in others.
	flush := func(content string, others ...string) (*repo.ObjectBatch, string) {
		t.Helper()
		b := r.BeginBatch()
		if _, err := r.StoreBlob([]byte(content)); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		keeps, _ := filepath.Glob(filepath.Join(packDir, "*.keep"))
		keeps = slices.DeleteFunc(keeps, func(k string) bool { return slices.Contains(others, k) })
		if len(keeps) != 1 {
			t.Fatalf("want one keep file guarding the new pack, found %v", keeps)
		}
		return b, keeps[0]
	}

	b, keep := flush("one\n")
	kf, err := os.Stat(keep)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := os.Stat(template)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(kf, tf) {
		t.Fatalf("%s is not a link to the template %s", keep, template)
	}
	if got, _ := os.ReadFile(template); !strings.HasPrefix(string(got), "git-edit ") {
		t.Fatalf("template holds %q", got)
	}
	// git sees the keep: repack -a -d leaves the pack alone.
	gittest.Git(t, dir, "repack", "-a", "-d", "-q")
	if _, err := os.Stat(strings.TrimSuffix(keep, ".keep") + ".pack"); err != nil {
		t.Fatalf("git repack removed a kept pack: %v", err)
	}
	b.Release()
	b.End()
	if _, err := os.Lstat(keep); !os.IsNotExist(err) {
		t.Fatalf("keep outlived Release: %v", err)
	}
	if _, err := os.Stat(template); err != nil {
		t.Fatalf("Release removed the template: %v", err)
	}

	// What dead writers left, and another program's keep files.
	dead := filepath.Join(packDir, "pack-"+strings.Repeat("1", 40)+".keep")
	old := filepath.Join(packDir, "pack-"+strings.Repeat("2", 40)+".keep")
	empty := filepath.Join(packDir, "pack-"+strings.Repeat("3", 40)+".keep")
	receive := filepath.Join(packDir, "pack-"+strings.Repeat("4", 40)+".keep")
	if err := os.Link(template, dead); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(old, []byte("git-edit 12345\n"), 0o444)
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(receive, []byte("receive-pack 99 on host\n"), 0o644)
	b, keep = flush("two\n", empty, receive)
	defer b.End()
	for name, want := range map[string]bool{dead: false, old: false, empty: true, receive: true, keep: true} {
		if _, err := os.Lstat(name); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", filepath.Base(name), err == nil, want)
		}
	}
	b.Release()
	if out, err := gittest.GitErr(dir, "fsck", "--strict"); err != nil {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
}
