// Package packtest generates large git repositories in seconds with
// `git fast-import`, for packidx's benchmark and cmd/git-edit-bench. It
// runs the real git command line; nothing is mocked.
package packtest

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Spec describes a generated repository. Files live two directory levels
// deep, 100 to a directory and 10 directories to a parent:
// d000/s0/f000000.txt.
type Spec struct {
	// Files is how many files the first commit adds.
	Files int
	// Commits more commits follow, each changing Touch files spread over
	// the tree: history, so the pack holds deltas.
	Commits, Touch int
	// Extra files (slash paths) are added by the first commit too.
	Extra map[string][]byte
	// GC packs the result with `git gc` (default deltas, unreachable
	// objects pruned); without it the objects stay in fast-import's pack.
	GC bool
	// Checkout writes the worktree and index (slow for many files; only
	// needed to run git add or git-edit there).
	Checkout bool
}

// Path is the path of generated file i.
func Path(i int) string {
	return fmt.Sprintf("d%03d/s%d/f%06d.txt", i/1000, i/100%10, i)
}

func content(i, version int) string {
	return fmt.Sprintf("file %d version %d\npackage f%d\n\nfunc F%d() int { return %d }\n", i, version, i, i, i*version)
}

// Env is the environment git runs with: no system or global config and a
// fixed identity, so the result does not depend on the machine.
func Env() []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@example.com",
		"LC_ALL=C",
	)
}

// Git runs git in dir and returns its standard output.
func Git(dir string, stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Generate makes a repository (branch main) in dir, which must not exist
// or be empty.
func Generate(dir string, spec Spec) error {
	if _, err := Git("", nil, "init", "-q", "-b", "main", dir); err != nil {
		return err
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	data := func(s string) { fmt.Fprintf(w, "data %d\n%s\n", len(s), s) }
	for i := range spec.Files {
		fmt.Fprintf(w, "blob\nmark :%d\n", i+1)
		data(content(i, 0))
	}
	when := 1700000000
	commit := func(msg string) {
		fmt.Fprintf(w, "commit refs/heads/main\nauthor Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\n", when, when)
		data(msg)
		when += 60
	}
	commit("initial: " + fmt.Sprint(spec.Files) + " files")
	for i := range spec.Files {
		fmt.Fprintf(w, "M 100644 :%d %s\n", i+1, Path(i))
	}
	for _, p := range slices.Sorted(maps.Keys(spec.Extra)) {
		fmt.Fprintf(w, "M 100644 inline %s\n", p)
		data(string(spec.Extra[p]))
	}
	w.WriteString("\n")
	for c := 1; c <= spec.Commits; c++ {
		commit(fmt.Sprintf("change %d files", spec.Touch))
		if spec.Files > 0 {
			// A stride spreads the changes over the whole tree.
			for k := range spec.Touch {
				i := (k*7919 + c*104729) % spec.Files
				fmt.Fprintf(w, "M 100644 inline %s\n", Path(i))
				data(content(i, c))
			}
		}
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := Git(dir, buf.Bytes(), "fast-import", "--quiet"); err != nil {
		return err
	}
	if spec.GC {
		if _, err := Git(dir, nil, "gc", "-q", "--prune=now"); err != nil {
			return err
		}
	}
	if spec.Checkout {
		if _, err := Git(dir, nil, "reset", "-q", "--hard", "main"); err != nil {
			return err
		}
	}
	return nil
}

var cacheMu sync.Mutex

// Cached returns a repository generated from spec under
// os.TempDir()/git-edit-packtest-<version>-<hash of spec>, generating it
// only when it is not there yet, so that reruns of a benchmark start at
// once. Bump version when the generator changes. Remove the caches with
// `rm -rf "${TMPDIR:-/tmp}"/git-edit-packtest-*`.
func Cached(version string, spec Spec) (string, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	h := sha1.New()
	fmt.Fprintf(h, "%d %d %d %v %v\n", spec.Files, spec.Commits, spec.Touch, spec.GC, spec.Checkout)
	for _, p := range slices.Sorted(maps.Keys(spec.Extra)) {
		fmt.Fprintf(h, "%s %d\n", p, len(spec.Extra[p]))
		h.Write(spec.Extra[p])
	}
	sum := h.Sum(nil)
	dir := filepath.Join(os.TempDir(), "git-edit-packtest-"+version+"-"+hex.EncodeToString(sum[:6]))
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err == nil {
		return dir, nil
	}
	// Generate beside it and rename, so an interrupted run never leaves a
	// half-made repository where the next run would take it as done.
	tmp, err := os.MkdirTemp(os.TempDir(), "git-edit-packtest-tmp-")
	if err != nil {
		return "", err
	}
	if err := Generate(tmp, spec); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("cache generated repository: %w", err)
	}
	return dir, nil
}
