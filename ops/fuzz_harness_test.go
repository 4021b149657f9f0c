package ops_test

// The harness of the engine's fuzz targets: the repository every input
// edits, resetting it between inputs, and running one call with every
// check of fuzz_oracles_test.go. The targets, one file per dialect
// (fuzz_<dialect>_test.go) and one for raw arguments (fuzz_args_test.go),
// drive whole tool calls through the engine against a real git repository;
// the pure parse/plan/apply fuzz targets live in ops/*, and these check
// what only the whole engine can break.
//
// Seeds live where go looks for them, ops/testdata/fuzz/<FuzzName>/, in
// go's own "go test fuzz v1" format, so `go test ./ops` runs every seed
// as an ordinary test; testdata/fuzz/README.md says what each is for. A
// failing input `go test -fuzz` finds lands in the same folder.
//
// The long form, one target at a time (a go rule), for example:
//
//	go test ./ops -run '^$' -fuzz '^FuzzTextEditor$' -fuzztime 10m
//	go test ./ops -run '^$' -fuzz '^FuzzMatcher$' -fuzztime 10m
//	for t in TextEditor Edit EditLines ExactEdit CodeEdit Matcher EveryToolArgs \
//	         TextEditorArgs EditArgs EditLinesArgs ExactEditArgs CodeEditArgs EditHistoryArgs; do
//	    go test ./ops -run '^$' -fuzz "^Fuzz$t\$" -fuzztime 2m || break
//	done
//
// Each fuzzing worker process makes one repository (git-edit-fuzz-* under
// $TMPDIR, removed when the run ends or, if a run was killed, by the next)
// for all its inputs, since repositories are expensive; every input first
// writes its content to f.txt (git-edit then records a sync commit before
// an edit, as it does for a person's change). After the last input, the
// person's HEAD, index, branches, config and stash are as they were and
// `git fsck --strict` is clean.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// ---------------------------------------------------------------------------
// The repository a fuzz target edits.

// fuzzEnv makes the repository of one fuzz target lazily, once per process
// (per fuzzing worker), and checks and removes it when the target ends.
type fuzzEnv struct {
	once sync.Once
	dir  string
	repo *fuzzRepo
}

// fuzzRepo is a repository with two committed files, f.txt (each input's
// content goes there) and other.txt, and edit.requireRead off.
type fuzzRepo struct {
	dir   string
	opts  ops.Options
	start gittest.State
}

const fuzzOther = "other\n"

func newFuzzEnv(f *testing.F) *fuzzEnv {
	sweepFuzzRepos()
	env := &fuzzEnv{}
	f.Cleanup(func() {
		defer sweepFuzzRepos()
		if env.dir == "" {
			return
		}
		defer os.RemoveAll(env.dir)
		if env.repo == nil || f.Failed() {
			return
		}
		if got := gittest.Snapshot(f, env.repo.dir); got != env.repo.start {
			f.Errorf("the person's repository changed during fuzzing:\nbefore %+v\nafter  %+v", env.repo.start, got)
		}
		gittest.Fsck(f, env.repo.dir)
	})
	return env
}

// sweepFuzzRepos removes the repositories of fuzz processes that have ended:
// go stops its fuzzing workers without running their cleanups, so a
// worker's repository outlives it. They are named
// git-edit-fuzz-<pid>-<parent pid>-*; the coordinator, whose cleanup runs,
// removes its workers' after them, and any run removes those of processes
// gone.
func sweepFuzzRepos() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "git-edit-fuzz-*-*-*"))
	for _, dir := range dirs {
		var pid, ppid int
		if _, err := fmt.Sscanf(filepath.Base(dir), "git-edit-fuzz-%d-%d-", &pid, &ppid); err != nil {
			continue
		}
		if processGone(pid) || (ppid == os.Getpid() && pid != os.Getpid()) {
			os.RemoveAll(dir)
		}
	}
}

// get returns the repository, making it on the first input.
func (env *fuzzEnv) get(t *testing.T) *fuzzRepo {
	t.Helper()
	env.once.Do(func() {
		tmp, err := os.MkdirTemp("", fmt.Sprintf("git-edit-fuzz-%d-%d-", os.Getpid(), os.Getppid()))
		if err != nil {
			t.Fatal(err)
		}
		env.dir = tmp
		dir, err := filepath.EvalSymlinks(tmp)
		if err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "init", "-q", "-b", "main")
		gittest.WriteFile(t, dir, "f.txt", "base\n")
		gittest.WriteFile(t, dir, "other.txt", fuzzOther)
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
		gittest.Git(t, dir, "config", "edit.requireRead", "false")
		env.repo = &fuzzRepo{dir: dir, opts: ops.Options{Root: dir, Session: "s"}, start: gittest.Snapshot(t, dir)}
	})
	if env.repo == nil {
		t.Fatal("the fuzz repository could not be made (see the first input's failure)")
	}
	return env.repo
}

// fuzzFile is a worktree entry: a regular file's mode and bytes, or a
// symlink or special file.
type fuzzFile struct {
	mode fs.FileMode
	data string
}

type worktree map[string]fuzzFile

// get returns the bytes of rel, or gittest.Missing.
func (w worktree) get(rel string) string {
	f, ok := w[rel]
	if !ok {
		return gittest.Missing
	}
	return f.data
}

// files reads every file of the worktree.
func (r *fuzzRepo) files(t *testing.T) worktree {
	t.Helper()
	return readWorktree(t, r.dir)
}

// readWorktree reads every file of the worktree at dir (not .git).
func readWorktree(t *testing.T, dir string) worktree {
	t.Helper()
	w := worktree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			w[rel] = fuzzFile{mode: fs.ModeSymlink, data: target}
			return err
		case !d.Type().IsRegular():
			w[rel] = fuzzFile{mode: d.Type()}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		w[rel] = fuzzFile{mode: info.Mode().Perm(), data: string(b)}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// tip is the session ref's value ("" before the first edit), read from the
// ref file as git would.
func (r *fuzzRepo) tip(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, ".git", "refs", "edits", "s"))
	if err == nil {
		return strings.TrimSpace(string(b))
	}
	if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return gittest.Rev(t, r.dir, "refs/edits/s")
}

// reset puts the input's content in f.txt, other.txt back as committed, and
// removes anything else a previous input may have left (after a failure).
func (r *fuzzRepo) reset(t *testing.T, content []byte) {
	t.Helper()
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != ".git" && n != "f.txt" && n != "other.txt" {
			must(t, os.RemoveAll(filepath.Join(r.dir, n)))
		}
	}
	for name, data := range map[string][]byte{"f.txt": content, "other.txt": []byte(fuzzOther)} {
		p := filepath.Join(r.dir, name)
		if cur, err := os.ReadFile(p); err != nil || !bytes.Equal(cur, data) {
			must(t, os.WriteFile(p, data, 0o644))
		}
		must(t, os.Chmod(p, 0o644))
	}
}

// fuzzCall is one call made by run: its result, and the worktree and the
// session ref around it.
type fuzzCall struct {
	tool                string
	args                []byte
	res                 ops.Result
	before, after       worktree
	refBefore, refAfter string // the session ref ("" before the first edit)
	moved               bool   // the session ref moved
}

// run makes one call and checks it with every general oracle (result
// shape, nothing changed unrecorded, undo reverting), reverting it when it
// moved the session ref (path: what to undo, "" for the session's newest).
// ops.Call may return an error only for an unknown tool.
func (r *fuzzRepo) run(t *testing.T, tool string, args []byte, path string) fuzzCall {
	t.Helper()
	c := fuzzCall{tool: tool, args: args, before: r.files(t), refBefore: r.tip(t)}
	res, err := ops.Call(context.Background(), r.opts, tool, args)
	if err != nil {
		t.Fatalf("%s %s: error %v; only an unknown tool may be an error", tool, quoteArgs(args), err)
	}
	c.res, c.after, c.refAfter = res, r.files(t), r.tip(t)
	c.moved = c.refAfter != c.refBefore
	checkResultShape(t, tool, args, res)
	checkRecorded(t, c)
	// A checkpoint is a commit that changes no file: nothing to revert.
	if c.moved && tool != "edit_checkpoint" {
		r.revert(t, c, path)
	}
	return c
}

// ---------------------------------------------------------------------------
// Describing calls and worktrees in failure messages.

// worktreeDiff describes how two worktrees differ.
func worktreeDiff(a, b worktree) string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		x, okx := a[k]
		y, oky := b[k]
		if okx != oky || x != y {
			out = append(out, fmt.Sprintf("  %s: %s -> %s", k, describeFile(x, okx), describeFile(y, oky)))
		}
	}
	return strings.Join(out, "\n")
}

// describeFile is one side of a worktreeDiff line: "missing", or the
// entry's mode and its bytes, shortened.
func describeFile(f fuzzFile, ok bool) string {
	if !ok {
		return "missing"
	}
	return fmt.Sprintf("%v %s", f.mode, shorten(f.data))
}

// shorten quotes s, keeping only its first and last 200 bytes when it is
// longer than 400.
func shorten(s string) string {
	if len(s) > 400 {
		return strconv.Quote(s[:200]) + fmt.Sprintf("…(%d bytes)…", len(s)-400) + strconv.Quote(s[len(s)-200:])
	}
	return strconv.Quote(s)
}

// quoteArgs quotes a call's raw arguments for a failure message.
func quoteArgs(args []byte) string { return shorten(string(args)) }
