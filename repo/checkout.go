package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Checkout is how git maps this worktree's files to what it records,
// where that is not byte for byte: the settings that make git record a
// mode or a kind other than the disk's, or no file for a missing one.
type Checkout struct {
	// FileMode is core.fileMode (default true). When false, git ignores
	// the executable bit on disk: `git add` keeps the mode already
	// recorded for a path (100644 for a new one).
	FileMode bool
	// Symlinks is core.symlinks (default true). When false, git checks a
	// symbolic link out as a plain file holding the link's target, and
	// `git add` of that file keeps recording a link (120000).
	Symlinks bool
	// Sparse is core.sparseCheckout: paths with the skip-worktree bit in
	// the index may be absent on disk without being deleted.
	Sparse bool
	// IgnoreCase is core.ignoreCase (default false; git sets it when it
	// creates a repository on a file system that folds case, as macOS's
	// and Windows' do): a path that differs only in case from one on disk
	// names that file, spelled as the disk spells it (see gitSpelling).
	IgnoreCase bool
	// PrecomposeUnicode is core.precomposeUnicode (default false; git sets
	// it on macOS): git records paths in Unicode NFC whatever form the
	// file system lists them in, and so does git-edit.
	PrecomposeUnicode bool
}

// Checkout returns the worktree's Checkout settings, read from git config
// on the first call and kept for the life of r, as the other settings
// git-edit reads at open (edit.maxFileSize and the like): one more read of
// the config files per repository open, none per operation.
func (r *Repo) Checkout() (Checkout, error) {
	r.checkoutOnce.Do(func() { r.checkout, r.checkoutErr = r.readCheckout() })
	return r.checkout, r.checkoutErr
}

// readCheckout reads the Checkout settings in one pass over the config.
func (r *Repo) readCheckout() (Checkout, error) {
	c := Checkout{FileMode: true, Symlinks: true}
	settings := []struct {
		key string
		dst *bool
	}{{"filemode", &c.FileMode}, {"symlinks", &c.Symlinks}, {"sparsecheckout", &c.Sparse},
		{"ignorecase", &c.IgnoreCase}, {"precomposeunicode", &c.PrecomposeUnicode}}
	entries, err := configEntries(r.configFiles())
	if err != nil {
		return c, err
	}
	for _, e := range entries {
		if !strings.EqualFold(e.section, "core") {
			continue
		}
		for _, s := range settings {
			if strings.EqualFold(e.key, s.key) {
				b, err := parseBool(e.value)
				if err != nil {
					return c, fmt.Errorf("%w: core.%s = %q; set true or false with `git config core.%s true`", ErrBadConfig, e.key, e.value, e.key)
				}
				*s.dst = b
			}
		}
	}
	return c, nil
}

// configEntries returns every top-level entry of files, then of the
// command line, in the order git sees them (the last one of a key wins).
func configEntries(files []string) ([]configEntry, error) {
	var all []configEntry
	for _, path := range files {
		entries, err := readConfigFile(path)
		if err != nil {
			return nil, err
		}
		all = append(all, entries...)
	}
	cmdline, err := commandLineConfig()
	if err != nil {
		return nil, err
	}
	return append(all, cmdline...), nil
}

// RecordedMode is the mode `git add` records for a worktree file whose
// disk mode is disk (filemode.Regular or filemode.Executable), given the
// entry recorded for the path so far (the zero Entry for none), as git's
// ce_mode_from_stat decides it: without core.symlinks a plain file where a
// link is recorded stays a link, and without core.fileMode the executable
// bit on disk is ignored (the recorded regular mode is kept, 100644 for a
// new path).
func (c Checkout) RecordedMode(disk filemode.FileMode, recorded Entry) filemode.FileMode {
	if !c.Symlinks && recorded.Mode == filemode.Symlink {
		return filemode.Symlink
	}
	if !c.FileMode {
		if recorded.Mode == filemode.Regular || recorded.Mode == filemode.Executable {
			return recorded.Mode
		}
		return filemode.Regular
	}
	return disk
}

// DiskMode is the mode to give a file written for an entry recorded with
// mode recorded, where cur is the file on disk now: the mode
// `git checkout` gives a new file (executable for 100755, plain
// otherwise, a link's target included), and for an existing file the
// recorded executable bit unless git ignores that bit (core.fileMode
// false) or the entry is a link kept as a plain file (core.symlinks
// false): then the file keeps the bit it has.
func (c Checkout) DiskMode(recorded filemode.FileMode, cur FileState) filemode.FileMode {
	if cur.Exists && cur.perm != 0 && (!c.FileMode || !c.Symlinks && recorded == filemode.Symlink) {
		return modeOf(cur.perm)
	}
	if recorded == filemode.Executable {
		return filemode.Executable
	}
	return filemode.Regular
}

// SkipWorktree reports, for each of paths (slash-separated, relative to
// the worktree top), whether the index marks it skip-worktree: a sparse
// checkout left it out of the worktree. It reads the worktree's index
// (never writes it) with go-git's decoder, or through `git ls-files -t`
// when that decoder cannot read it (a sparse or split index); call it only
// when Checkout().Sparse is set, and only for paths that matter, as it
// reads the whole index. A missing index marks nothing.
func (r *Repo) SkipWorktree(paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	path := filepath.Join(r.GitDir, "index")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the index %s: %w", path, err)
	}
	defer f.Close()
	idx := &index.Index{}
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return r.skipWorktreeByGit(paths)
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for _, e := range idx.Entries {
		if e.SkipWorktree && want[e.Name] {
			out[e.Name] = true
		}
	}
	return out, nil
}

// skipWorktreeByGit is SkipWorktree asking `git ls-files -t`, which reads
// every index format git writes (it expands a sparse index in memory and
// writes nothing); "S" tags a skip-worktree path. The bits are read as the
// index stores them, as the decoder reads them for the other formats: git
// otherwise clears, in memory, the bit of a path present on disk (such as
// one an agent wrote outside the cone), and sparse.expectFilesOutsideOfPatterns
// tells it not to.
func (r *Repo) skipWorktreeByGit(paths []string) (map[string]bool, error) {
	args := []string{"--literal-pathspecs", "--no-optional-locks", "-c", "sparse.expectFilesOutsideOfPatterns=true", "ls-files", "-t", "-z", "--"}
	cmd := r.git(append(args, paths...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("read the index's skip-worktree bits with git ls-files: %w: %s (git-edit reads them in a sparse checkout, so git must be on PATH and the index readable; `git status` shows whether git can read it)", err, strings.TrimSpace(stderr.String()))
	}
	out := map[string]bool{}
	for _, rec := range strings.Split(stdout.String(), "\x00") {
		tag, name, ok := strings.Cut(rec, " ")
		if ok && tag == "S" {
			out[name] = true
		}
	}
	return out, nil
}
