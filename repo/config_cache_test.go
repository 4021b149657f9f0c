package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestConfigChangesAreSeenByTheNextRead: config files are parsed once per
// process and kept while stat says they are unchanged; a person's `git
// config` between two reads, or an in-place rewrite of the same size at
// once, is seen by the next read.
func TestConfigChangesAreSeenByTheNextRead(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	get := func() string {
		t.Helper()
		v, _, err := r.ConfigValue("edit", "probe")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	gittest.Git(t, dir, "config", "edit.probe", "aaa")
	waitTick(t, dir, ".git/config")
	if get() != "aaa" || get() != "aaa" {
		t.Fatal("edit.probe is not aaa")
	}
	gittest.Git(t, dir, "config", "edit.probe", "bbb")
	if v := get(); v != "bbb" {
		t.Fatalf("after git config edit.probe bbb, read %q", v)
	}
	// In place, the same size, right after a read: mtime and ctime may
	// stay the same within one clock tick.
	cfg := filepath.Join(dir, ".git", "config")
	b, _ := os.ReadFile(cfg)
	for i := range 100 {
		want := []string{"ccc", "ddd"}[i%2]
		other := []string{"ddd", "ccc"}[i%2]
		os.WriteFile(cfg, []byte(strings.Replace(string(b), "bbb", other, 1)), 0o644)
		get()
		os.WriteFile(cfg, []byte(strings.Replace(string(b), "bbb", want, 1)), 0o644)
		if v := get(); v != want {
			t.Fatalf("rewrite %d: read %q, want %q", i, v, want)
		}
	}
}
