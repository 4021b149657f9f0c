// Package gittest makes real temporary git repositories for tests and checks
// them with the real git command line. Nothing here mocks git.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Env is the environment git runs with in tests: no system or global config,
// a fixed identity, no prompting for credentials (a test talking to a
// server fails instead of waiting), so results do not depend on the machine.
func Env() []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Test Person", "GIT_AUTHOR_EMAIL=person@example.com",
		"GIT_COMMITTER_NAME=Test Person", "GIT_COMMITTER_EMAIL=person@example.com",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	)
}

// New makes an empty repository (branch main, unborn) in a temporary
// directory and returns its symlink-free path.
func New(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	return dir
}

// NewWithCommit makes a repository whose HEAD commit holds files.
func NewWithCommit(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := New(t)
	Commit(t, dir, files)
	return dir
}

// Git runs git in dir and returns its standard output; any failure (or
// output on standard error for fsck-like checks left to the caller) fails
// the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := GitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// GitErr runs git in dir and returns its combined output and error.
func GitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

// WriteFile writes a worktree file, creating parent directories.
func WriteFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns a worktree file's bytes, or "<missing>" when it does not
// exist, so that tests can compare absence too.
func ReadFile(t testing.TB, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return Missing
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Missing is what ReadFile returns for a file that does not exist.
const Missing = "<missing>"

// Commit writes files, stages everything and commits on the current branch.
func Commit(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		WriteFile(t, dir, rel, content)
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", "person's commit")
}

// Rev returns what rev resolves to, or "" when it does not resolve.
func Rev(t testing.TB, dir, rev string) string {
	t.Helper()
	out, err := GitErr(dir, "rev-parse", "-q", "--verify", rev)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// Fsck fails the test unless `git fsck --strict` is clean.
func Fsck(t testing.TB, dir string) {
	t.Helper()
	cmd := exec.Command("git", "fsck", "--strict", "--no-dangling")
	cmd.Dir = dir
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	var problems []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.HasPrefix(line, "notice:") {
			problems = append(problems, line)
		}
	}
	if err != nil || len(problems) != 0 {
		t.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
}

// State is everything of a person's repository that git-edit must never
// change: HEAD, the index, branches and tags, config, stash.
type State struct {
	Head, SymbolicHead, Index, Refs, Config, Stash string
}

// Snapshot records the person's State of the repository at dir.
//
// It runs git twice (rev-parse, for-each-ref) and reads the rest as bytes:
// HEAD's file (what it names, byte for byte), the index, the config and
// the stash's reflog (what `git stash list` lists). The tests take a
// snapshot after every step of long sessions, so its cost is the suite's.
func Snapshot(t testing.TB, dir string) State {
	t.Helper()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return string(b)
	}
	var gitDir, common, head string
	if out, err := GitErr(dir, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--verify", "-q", "HEAD"); err == nil {
		f := strings.Split(strings.TrimSpace(out), "\n")
		gitDir, common, head = f[0], f[1], f[len(f)-1]
	} else { // an unborn branch: HEAD names no commit yet
		gitDir = strings.TrimSpace(Git(t, dir, "rev-parse", "--absolute-git-dir"))
		common = strings.TrimSpace(Git(t, dir, "rev-parse", "--git-common-dir"))
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	return State{
		Head:         head,
		SymbolicHead: read(filepath.Join(gitDir, "HEAD")),
		Index:        read(filepath.Join(gitDir, "index")),
		Refs:         Git(t, dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags", "refs/remotes", "refs/stash"),
		Config:       read(filepath.Join(common, "config")),
		Stash:        read(filepath.Join(common, "logs", "refs", "stash")),
	}
}

// Status is `git status --porcelain` (untracked files listed one by one).
// --no-optional-locks keeps git from refreshing the index as it looks, so
// that observing the index never changes it.
func Status(t testing.TB, dir string) string {
	t.Helper()
	return Git(t, dir, "--no-optional-locks", "status", "--porcelain=v1", "--untracked-files=all")
}

// StatusExcept is Status without the lines naming any of paths: the status
// of the files an operation did not touch.
func StatusExcept(t testing.TB, dir string, paths ...string) string {
	t.Helper()
	var keep []string
	for _, line := range strings.SplitAfter(Status(t, dir), "\n") {
		drop := false
		for _, p := range paths {
			if len(line) > 3 && strings.TrimSpace(line[3:]) == p {
				drop = true
			}
		}
		if !drop {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

// Unpack turns every pack of the repository at dir into loose objects
// (git unpack-objects), so that a test can remove one object file to damage
// the object store as a crash or a disk error would.
func Unpack(t testing.TB, dir string) {
	t.Helper()
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	aside := t.TempDir()
	for _, p := range packs {
		base := strings.TrimSuffix(p, ".pack")
		moved := filepath.Join(aside, filepath.Base(p))
		if err := os.Rename(p, moved); err != nil {
			t.Fatal(err)
		}
		os.Remove(base + ".idx")
		os.Remove(base + ".keep")
		f, err := os.Open(moved)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "unpack-objects", "-q")
		cmd.Dir, cmd.Env, cmd.Stdin = dir, Env(), f
		out, err := cmd.CombinedOutput()
		f.Close()
		if err != nil {
			t.Fatalf("git unpack-objects: %v\n%s", err, out)
		}
	}
}

// Isolate gives the test an environment in which only what it sets reaches
// git and git-edit: no system config, an empty global config file (its path
// is returned), none of git's repository variables, no SUDO_UID. The
// environment is restored after the test.
func Isolate(t *testing.T) string {
	t.Helper()
	global := filepath.Join(t.TempDir(), "global.gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "SUDO_UID"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return global
}

// GitHere runs git in dir with the test's environment as it is now (what
// git-edit sees too, unlike Git's fixed one) plus a fixed identity, and
// returns its combined output.
func GitHere(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Blobs reads each of specs ("rev:path") with one `git cat-file --batch`:
// the blob's bytes, or Missing when there is no such object.
func Blobs(t testing.TB, dir string, specs ...string) []string {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir, cmd.Env = dir, Env()
	cmd.Stdin = strings.NewReader(strings.Join(specs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch: %v", err)
	}
	blobs := make([]string, len(specs))
	for i, spec := range specs {
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		f := strings.Fields(string(header))
		if !ok || len(f) == 0 {
			t.Fatalf("git cat-file --batch: no answer for %s", spec)
		}
		if f[len(f)-1] == "missing" {
			blobs[i], out = Missing, rest
			continue
		}
		size, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 3 || f[1] != "blob" || err != nil || len(rest) < size+1 {
			t.Fatalf("git cat-file --batch: %s is %q", spec, header)
		}
		blobs[i], out = string(rest[:size]), rest[size+1:]
	}
	return blobs
}

// AddedByHand is what a person sees after making a change to rel on disk
// by hand: `git add rel` into a scratch index read from HEAD, then `git
// diff --cached HEAD`, with dir's own environment (so its attributes and
// conversions apply). The repository's own index is not touched. It is
// the reference a session's `git diff HEAD refs/edits/S` is compared with.
func AddedByHand(t testing.TB, dir, rel string) string {
	t.Helper()
	idx := filepath.Join(t.TempDir(), "index")
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+idx, "LC_ALL=C")
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out.String()
	}
	run("read-tree", "HEAD")
	run("add", "--", rel)
	return run("diff", "--cached", "HEAD")
}
