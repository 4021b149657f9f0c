package repo_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// TestCheckoutSettings reads core.fileMode, core.symlinks and
// core.sparseCheckout as git does: defaults, the repository's config,
// config.worktree (where git sparse-checkout writes), and `git -c` over
// every file; a value git would refuse is refused.
func TestCheckoutSettings(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		want    repo.Checkout
		wantErr error
	}{
		{"defaults", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "--unset", "core.fileMode")
		}, repo.Checkout{FileMode: true, Symlinks: true}, nil},
		{"repository config", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "core.fileMode", "false")
			gittest.Git(t, dir, "config", "core.symlinks", "no")
		}, repo.Checkout{}, nil},
		{"sparse-checkout writes config.worktree", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "sparse-checkout", "set", "--cone", "in")
		}, repo.Checkout{FileMode: true, Symlinks: true, Sparse: true}, nil},
		{"git -c wins", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "core.fileMode", "false")
			t.Setenv("GIT_CONFIG_PARAMETERS", "'core.filemode'='true' 'core.sparseCheckout'='1'")
		}, repo.Checkout{FileMode: true, Symlinks: true, Sparse: true}, nil},
		{"bad value", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "core.fileMode", "maybe")
		}, repo.Checkout{}, repo.ErrBadConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Only the repository's config and the test's own settings.
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			dir := gittest.NewWithCommit(t, map[string]string{"in/a.txt": "a\n"})
			gittest.GitErr(dir, "config", "--unset-all", "core.symlinks") // git init sets it only where links fail
			tt.setup(t, dir)
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Checkout()
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(strings.ToLower(err.Error()), "core.filemode") {
					t.Fatalf("err = %v, want %v naming the key", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Checkout() = %+v, %v; want %+v", got, err, tt.want)
			}
			// Read once per open: a later change is seen by the next open.
			gittest.Git(t, dir, "config", "core.symlinks", map[bool]string{true: "false", false: "true"}[got.Symlinks])
			if again, _ := r.Checkout(); again != got {
				t.Fatalf("Checkout() read the config again: %+v", again)
			}
		})
	}
}

func TestRecordedAndDiskMode(t *testing.T) {
	reg, exe, link := filemode.Regular, filemode.Executable, filemode.Symlink
	rec := func(m filemode.FileMode) repo.Entry { return repo.Entry{Mode: m} }
	tests := []struct {
		co       repo.Checkout
		disk     filemode.FileMode
		recorded repo.Entry
		want     filemode.FileMode
	}{
		{repo.Checkout{FileMode: true, Symlinks: true}, exe, rec(reg), exe},
		{repo.Checkout{FileMode: true, Symlinks: true}, reg, rec(link), reg}, // a type change, as git add records it
		{repo.Checkout{FileMode: false, Symlinks: true}, exe, rec(reg), reg},
		{repo.Checkout{FileMode: false, Symlinks: true}, reg, rec(exe), exe},
		{repo.Checkout{FileMode: false, Symlinks: true}, exe, repo.Entry{}, reg},
		{repo.Checkout{FileMode: false, Symlinks: true}, exe, rec(link), reg},
		{repo.Checkout{FileMode: true, Symlinks: false}, reg, rec(link), link},
		{repo.Checkout{FileMode: true, Symlinks: false}, exe, rec(link), link},
		{repo.Checkout{FileMode: true, Symlinks: false}, exe, rec(reg), exe},
	}
	for _, tt := range tests {
		if got := tt.co.RecordedMode(tt.disk, tt.recorded); got != tt.want {
			t.Errorf("%+v.RecordedMode(%v, %v) = %v, want %v", tt.co, tt.disk, tt.recorded.Mode, got, tt.want)
		}
	}
	// A new file gets what git checkout gives it, whatever the settings.
	for _, co := range []repo.Checkout{{}, {FileMode: true, Symlinks: true}} {
		for recorded, want := range map[filemode.FileMode]filemode.FileMode{reg: reg, exe: exe, link: reg} {
			if got := co.DiskMode(recorded, repo.FileState{}); got != want {
				t.Errorf("%+v.DiskMode(%v, no file) = %v, want %v", co, recorded, got, want)
			}
		}
	}
}

// TestSkipWorktree reads the skip-worktree bits of a cone sparse checkout
// with go-git's decoder, and of a sparse index (which that decoder cannot
// read) through git; both agree with `git ls-files -t`.
func TestSkipWorktree(t *testing.T) {
	for _, sparseIndex := range []bool{false, true} {
		t.Run(map[bool]string{false: "cone", true: "sparse index"}[sparseIndex], func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"in/a.txt": "a\n", "out/b.txt": "b\n", "out/deep/c.txt": "c\n", "top.txt": "t\n"})
			args := []string{"sparse-checkout", "set", "--cone", "in"}
			if sparseIndex {
				args = append(args, "--sparse-index")
			}
			gittest.Git(t, dir, args...)
			f, err := os.Open(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			decodeErr := index.NewDecoder(bufio.NewReader(f)).Decode(&index.Index{})
			f.Close()
			if (decodeErr != nil) != sparseIndex {
				t.Fatalf("go-git's decoder: %v; the test expects it to read only the full index", decodeErr)
			}
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.SkipWorktree([]string{"in/a.txt", "out/b.txt", "out/deep/c.txt", "top.txt", "nowhere.txt"})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{"out/b.txt": true, "out/deep/c.txt": true}
			if len(got) != len(want) || !got["out/b.txt"] || !got["out/deep/c.txt"] {
				t.Fatalf("SkipWorktree = %v, want %v (git ls-files -t:\n%s)", got, want, gittest.Git(t, dir, "ls-files", "-t"))
			}
		})
	}
}
