package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// subject is the repository most rows run in: the generated git-shaped
// one, or a clone of a real repository (-repo).
type subject struct {
	// label names it in the rows: "git-shaped (generated)", or the real
	// repository's name.
	label string
	// key names the caches made from it (the history sessions): "shaped",
	// or "repo-" and the real repository's HEAD commit.
	key string
	// base is the cached repository with the benchmark's files committed,
	// checked out; the runs work in copies of it.
	base string
	// note says in the report what it is and where it came from.
	note string
}

// generatedLabel is the git-shaped repository's label: the rows say that
// they ran in a generated repository, not a real one.
const generatedLabel = "git-shaped (generated)"

// shapedSubject is the generated git-shaped repository, cached in base.
func shapedSubject(base, took string) subject {
	return subject{label: generatedLabel, key: "shaped", base: base,
		note: fmt.Sprintf("%s: the rows so labelled ran in a repository this benchmark generated (shaped.go: %d files in %d directories, %d commits), not in a real one (-repo DIR runs them in a clone of one); %s; %s",
			generatedLabel, gitShaped.Files+len(benchFiles()), gitShaped.Dirs, gitShaped.Commits+2, objectCount(base), took)}
}

// repoSubject prepares the real repository dir for the benchmark: a clone
// of it with the benchmark's files committed on top (prepareRepo), cached
// under cache by dir's HEAD commit. name labels its rows (default: dir's
// base name).
func repoSubject(dir, name, cache string) (subject, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return subject{}, err
	}
	head, err := packtest.Git(dir, nil, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return subject{}, fmt.Errorf("-repo %s: %w", dir, err)
	}
	head = strings.TrimSpace(head)
	if name == "" {
		name = filepath.Base(dir)
	}
	key := "repo-" + head
	base, took, err := cached(filepath.Join(cache, key), func(tmp string) error { return prepareRepo(dir, tmp) })
	if err != nil {
		return subject{}, fmt.Errorf("prepare a clone of %s: %w", dir, err)
	}
	took = strings.Replace(took, "generated in", "prepared in", 1) // cached's words are a generator's
	files := "? files"
	if tf, err := trackedFiles(dir); err == nil {
		files = fmt.Sprintf("%d files", len(tf))
	}
	return subject{label: name, key: key, base: base,
		note: fmt.Sprintf("%s: the repository at %s, HEAD %s, %s, %s; cloned (git clone, objects hard-linked), the benchmark's %d files (%s) added by one commit on top; %s",
			name, dir, head, objectCount(dir), files, len(benchFiles()), strings.Join(slices.Sorted(maps.Keys(benchFiles())), ", "), took)}, nil
}

// prepareRepo makes dst (an empty directory) a clone of the repository
// src, checked out at src's HEAD, with the benchmark's files (benchFiles)
// added by one ordinary commit, and checks that git status is then clean.
// The clone is git's ordinary local one: src's packs hard-linked (copied
// across file systems), so its objects are stored exactly as in src.
func prepareRepo(src, dst string) error {
	head, err := packtest.Git(src, nil, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return err
	}
	if _, err := packtest.Git("", nil, "clone", "-q", src, dst); err != nil {
		return err
	}
	got, err := packtest.Git(dst, nil, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return err
	}
	if got != head {
		return fmt.Errorf("the clone of %s checked out %s, not its HEAD %s (is HEAD detached from a branch that moved?)", src, strings.TrimSpace(got), strings.TrimSpace(head))
	}
	files := benchFiles()
	var paths []string
	for _, p := range slices.Sorted(maps.Keys(files)) {
		f := filepath.Join(dst, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(f, files[p], 0o644); err != nil {
			return err
		}
		paths = append(paths, p)
	}
	if _, err := packtest.Git(dst, []byte(strings.Join(paths, "\n")+"\n"), "add", "-f", "--pathspec-from-file=-"); err != nil {
		return err
	}
	if _, err := packtest.Git(dst, nil, "commit", "-q", "--no-verify", "-m", "add the benchmark's files"); err != nil {
		return err
	}
	if _, err := packtest.Git(dst, nil, "update-index", "-q", "--refresh"); err != nil {
		return err
	}
	st, err := packtest.Git(dst, nil, "status", "--porcelain")
	if err != nil {
		return err
	}
	if st != "" {
		return fmt.Errorf("the clone of %s is not clean with the benchmark's files committed:\n%.2000s", src, st)
	}
	return nil
}
