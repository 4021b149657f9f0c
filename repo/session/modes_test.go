package session_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	hist "github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// diskFile is a worktree path's bytes and permission bits, or its absence.
type diskFile struct {
	content string
	perm    fs.FileMode
}

func readDisk(t *testing.T, dir string, paths []string) map[string]diskFile {
	t.Helper()
	out := map[string]diskFile{}
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			out[p] = diskFile{content: gittest.Missing}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out[p] = diskFile{content: gittest.ReadFile(t, dir, p), perm: fi.Mode()}
	}
	return out
}

func chmod(t *testing.T, dir, rel string, perm fs.FileMode) {
	t.Helper()
	if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(rel)), perm); err != nil {
		t.Fatal(err)
	}
}

// modeRow is one repository setting of issue 13 that makes git record a
// mode or kind other than the disk's, or no file for a missing one.
type modeRow struct {
	name string
	// setup makes the repository; the person changed nothing after it,
	// so `git status` is clean.
	setup func(t *testing.T) string
	// paths are given to every operation: the ones edited and the ones
	// the setting is about, which must be seen as unchanged.
	paths []string
	// edit is the agent's change, made by hand for the reference.
	edit map[string]string
	// wantTree is `git ls-tree -r` of the session after the edit, for the
	// paths named.
	wantTree map[string]string
}

func setupFileModeFalse(t *testing.T) string {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\n", "tool.sh": "#!/bin/sh\n"})
	chmod(t, dir, "tool.sh", 0o755)
	gittest.Git(t, dir, "commit", "-qam", "tool.sh is executable")
	gittest.Git(t, dir, "config", "core.fileMode", "false")
	// The disk's x bits now say the opposite of HEAD's modes: with
	// core.fileMode false git sees no change.
	chmod(t, dir, "a.txt", 0o755)
	chmod(t, dir, "tool.sh", 0o644)
	return dir
}

func setupSymlinksFalse(t *testing.T) string {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\n"})
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "add", "link")
	gittest.Git(t, dir, "commit", "-qm", "a link")
	gittest.Git(t, dir, "config", "core.symlinks", "false")
	// Checked out again, the link is a plain file holding "a.txt".
	if err := os.Remove(filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "checkout", "--", "link")
	return dir
}

func setupSparse(extra ...string) func(t *testing.T) string {
	return func(t *testing.T) string {
		dir := gittest.NewWithCommit(t, map[string]string{"in/a.txt": "one\n", "out/b.txt": "two\n", "top.txt": "three\n"})
		gittest.Git(t, dir, append([]string{"sparse-checkout", "set", "--cone"}, append(extra, "in")...)...)
		if gittest.ReadFile(t, dir, "out/b.txt") != gittest.Missing {
			t.Fatal("sparse checkout left out/b.txt on disk")
		}
		return dir
	}
}

var modeRows = []modeRow{{
	name:     "core.fileMode=false",
	setup:    setupFileModeFalse,
	paths:    []string{"a.txt", "tool.sh"},
	edit:     map[string]string{"a.txt": "one\ntwo\n", "tool.sh": "#!/bin/sh\necho hi\n"},
	wantTree: map[string]string{"a.txt": "100644", "tool.sh": "100755"},
}, {
	name:     "core.symlinks=false",
	setup:    setupSymlinksFalse,
	paths:    []string{"a.txt", "link"},
	edit:     map[string]string{"a.txt": "one\ntwo\n"},
	wantTree: map[string]string{"a.txt": "100644", "link": "120000"},
}, {
	name:     "sparse checkout (cone)",
	setup:    setupSparse(),
	paths:    []string{"in/a.txt", "out/b.txt"},
	edit:     map[string]string{"in/a.txt": "one\ntwo\n"},
	wantTree: map[string]string{"in/a.txt": "100644", "out/b.txt": "100644"},
}, {
	name:     "sparse checkout (sparse index)",
	setup:    setupSparse("--sparse-index"),
	paths:    []string{"in/a.txt", "out/b.txt"},
	edit:     map[string]string{"in/a.txt": "one\ntwo\n"},
	wantTree: map[string]string{"in/a.txt": "100644", "out/b.txt": "100644"},
}}

// TestModesAndKindsRecordWhatGitAddRecords runs issue 13's rows for modes
// and kinds: the first edit records no sync commit, the session's diff
// from HEAD is what `git add` + `git diff --cached` shows for the same
// edit made by hand, `git status` changes only for the edited files, the
// disk keeps its bits, and undo and rollback put back the exact bytes and
// bits; git fsck stays clean.
func TestModesAndKindsRecordWhatGitAddRecords(t *testing.T) {
	for _, row := range modeRows {
		t.Run(row.name, func(t *testing.T) {
			dir := row.setup(t)
			var edited []string
			for p := range row.edit {
				edited = append(edited, p)
			}
			if st := gittest.Status(t, dir); st != "" {
				t.Fatalf("setup: git status is not clean:\n%s", st)
			}
			person := gittest.Snapshot(t, dir)
			disk := readDisk(t, dir, row.paths)
			r, s := open(t, dir, "s")
			paths := resolve(t, r, dir, row.paths...)

			out, err := s.Apply(context.Background(), paths, session.RecordOutside, setContent("test.set", row.edit))
			if err != nil {
				t.Fatal(err)
			}
			if !out.Sync.IsZero() {
				t.Fatalf("a sync commit was recorded although the person changed nothing:\n%s", gittest.Git(t, dir, "show", "--stat", out.Sync.String()))
			}
			if got, want := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), byHand(t, row); got != want {
				t.Fatalf("git diff HEAD refs/edits/s:\n%s\nwant, as git add records the same edit made by hand:\n%s", got, want)
			}
			for p, mode := range row.wantTree {
				if got := lsTreeMode(t, dir, "refs/edits/s", p); got != mode {
					t.Errorf("%s recorded as %q, want %s", p, got, mode)
				}
			}
			// The disk keeps its bits; only the edited files' bytes changed.
			after := readDisk(t, dir, row.paths)
			for _, p := range row.paths {
				want := disk[p]
				if c, ok := row.edit[p]; ok {
					want.content = c
				}
				if after[p] != want {
					t.Errorf("%s on disk is %+v, want %+v", p, after[p], want)
				}
			}
			checkStatus(t, dir, edited)
			gittest.Fsck(t, dir)

			// Undo each edited file: the exact bytes and bits come back, and
			// the session records HEAD's entries again.
			for _, p := range edited {
				if _, err := s.Apply(context.Background(), resolve(t, r, dir, p), session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
					pl, _, err := hist.PlanUndo(tx, s, p, hist.DefaultUndoDepth, "test.undo")
					return pl, err
				}); err != nil {
					t.Fatalf("undo %s: %v", p, err)
				}
			}
			checkBack(t, dir, row.paths, disk)

			// Edit again, then roll the whole session back.
			if _, err := s.Apply(context.Background(), paths, session.RecordOutside, setContent("test.set", row.edit)); err != nil {
				t.Fatal(err)
			}
			rollback(t, s, paths)
			checkBack(t, dir, row.paths, disk)
			if got := gittest.Snapshot(t, dir); got != person {
				t.Fatalf("the person's state changed:\n%+v\n%+v", person, got)
			}
		})
	}
}

// byHand makes the row's repository again, makes the edit by hand (the
// files keep their bits), stages it with git add and returns
// `git diff --cached`: what the session's diff from HEAD must be.
func byHand(t *testing.T, row modeRow) string {
	t.Helper()
	dir := row.setup(t)
	for p, c := range row.edit {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "add", "--", p)
	}
	return gittest.Git(t, dir, "diff", "--cached")
}

func lsTreeMode(t *testing.T, dir, rev, path string) string {
	t.Helper()
	mode, _, _ := strings.Cut(gittest.Git(t, dir, "ls-tree", rev, "--", path), " ")
	return mode
}

// checkStatus checks that `git status` shows the edited files as modified
// and nothing else.
func checkStatus(t *testing.T, dir string, edited []string) {
	t.Helper()
	want := map[string]bool{}
	for _, p := range edited {
		want[" M "+p] = true
	}
	for _, line := range strings.Split(strings.TrimRight(gittest.Status(t, dir), "\n"), "\n") {
		if !want[line] {
			t.Errorf("git status shows %q; want only the edited files modified", line)
		}
		delete(want, line)
	}
	if len(want) > 0 {
		t.Errorf("git status does not show %v", want)
	}
}

// checkBack checks that the disk holds exactly what it held before the
// session, `git status` is clean, the session records HEAD's entries for
// paths again, and fsck is clean.
func checkBack(t *testing.T, dir string, paths []string, disk map[string]diskFile) {
	t.Helper()
	got := readDisk(t, dir, paths)
	for _, p := range paths {
		if got[p] != disk[p] {
			t.Errorf("%s on disk is %+v, want %+v as before the session", p, got[p], disk[p])
		}
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status is not clean:\n%s", st)
	}
	if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s", "--", "."); d != "" {
		t.Errorf("the session differs from HEAD:\n%s", d)
	}
	gittest.Fsck(t, dir)
}

func rollback(t *testing.T, s *session.Session, paths []repo.Path) {
	t.Helper()
	tip, err := s.Tip()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := hist.PrepareRollback(s, tip, plumbing.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(context.Background(), paths, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := hist.PlanRollback(tx, s, rb, false, "test.rollback")
		return pl, err
	}); err != nil {
		t.Fatalf("rollback: %v", err)
	}
}

// TestLinkFileIsNotEditedButDeletedAndRestored: with core.symlinks false,
// an edit of a link kept as a plain file is refused (ErrLinkFile) and
// changes nothing; deleting it records the link's removal, and undoing
// that writes the link's target back as a plain file, recorded as the
// same 120000 entry as HEAD's.
func TestLinkFileIsNotEditedButDeletedAndRestored(t *testing.T) {
	dir := setupSymlinksFalse(t)
	disk := readDisk(t, dir, []string{"link"})
	r, s := open(t, dir, "s")
	link := resolve(t, r, dir, "link")

	_, err := s.Apply(context.Background(), link, session.RecordOutside, setContent("test.set", map[string]string{"link": "b.txt"}))
	if !errors.Is(err, session.ErrLinkFile) || !strings.Contains(err.Error(), "core.symlinks") {
		t.Fatalf("err = %v, want the link-file refusal naming core.symlinks", err)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" {
		t.Fatalf("a refused edit moved a ref: %s", refs)
	}
	if got := readDisk(t, dir, []string{"link"}); got["link"] != disk["link"] {
		t.Fatalf("a refused edit changed the link file: %+v", got["link"])
	}
	// Writing the same text is no edit at all.
	out, err := s.Apply(context.Background(), link, session.RecordOutside, setContent("test.set", map[string]string{"link": "a.txt"}))
	if err != nil || !out.Commit.IsZero() {
		t.Fatalf("rewriting the same target: %v, commit %s", err, out.Commit)
	}

	out, err = s.Apply(context.Background(), link, session.RecordOutside, setContent("test.delete", map[string]string{"link": gittest.Missing}))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Sync.IsZero() {
		t.Fatal("deleting the link recorded a sync commit")
	}
	if d := gittest.Git(t, dir, "diff", "--name-status", "HEAD", "refs/edits/s"); d != "D\tlink\n" {
		t.Fatalf("the session's diff: %q, want the link deleted", d)
	}
	if _, err := s.Apply(context.Background(), link, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := hist.PlanUndo(tx, s, "link", hist.DefaultUndoDepth, "test.undo")
		return pl, err
	}); err != nil {
		t.Fatal(err)
	}
	checkBack(t, dir, []string{"link"}, disk)
	if got := lsTreeMode(t, dir, "refs/edits/s", "link"); got != "120000" {
		t.Fatalf("link recorded as %s after the undo", got)
	}
}

// TestSparseCheckoutOnlySkippedPathsAreAsRecorded: in a sparse checkout a
// path outside the cone that is absent is as recorded, and a plan deleting
// it records nothing; a file inside the cone that the person deleted is
// still a deletion, recorded by a sync commit.
func TestSparseCheckoutOnlySkippedPathsAreAsRecorded(t *testing.T) {
	dir := setupSparse()(t)
	if err := os.Remove(filepath.Join(dir, "top.txt")); err != nil {
		t.Fatal(err)
	}
	r, s := open(t, dir, "s")
	out, err := s.Apply(context.Background(), resolve(t, r, dir, "in/a.txt", "out/b.txt", "top.txt"), session.RecordOutside,
		setContent("test.set", map[string]string{"in/a.txt": "ONE\n", "out/b.txt": gittest.Missing}))
	if err != nil {
		t.Fatal(err)
	}
	if out.Sync.IsZero() {
		t.Fatal("the person's deletion of top.txt was not recorded")
	}
	if d := gittest.Git(t, dir, "diff", "--name-status", "HEAD", out.Sync.String()); d != "D\ttop.txt\n" {
		t.Fatalf("the sync commit records %q, want only top.txt deleted", d)
	}
	if d := gittest.Git(t, dir, "diff", "--name-status", out.Sync.String(), "refs/edits/s"); d != "M\tin/a.txt\n" {
		t.Fatalf("the edit commit records %q, want only in/a.txt", d)
	}
	if gittest.ReadFile(t, dir, "out/b.txt") != gittest.Missing {
		t.Fatal("out/b.txt was created")
	}
	gittest.Fsck(t, dir)
}

// TestIndexIsReadOnlyInASparseCheckout: the index is never read unless
// core.sparseCheckout is on: with an unreadable index, a path deleted on
// disk is recorded as deleted in an ordinary repository, and refused, with
// nothing changed, in a sparse checkout, where its skip-worktree bit
// matters.
func TestIndexIsReadOnlyInASparseCheckout(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		t.Run(map[bool]string{false: "ordinary", true: "sparse"}[sparse], func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
			if sparse {
				gittest.Git(t, dir, "config", "core.sparseCheckout", "true")
			}
			must(t, os.Remove(filepath.Join(dir, "b.txt")))
			must(t, os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("not an index"), 0o644))
			r, s := open(t, dir, "s")
			out, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt", "b.txt"), session.RecordOutside,
				setContent("test.set", map[string]string{"a.txt": "A\n"}))
			if !sparse {
				if err != nil || out.Sync.IsZero() {
					t.Fatalf("err %v, sync %s: want b.txt's deletion recorded without reading the index", err, out.Sync)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "skip-worktree") {
				t.Fatalf("err = %v, want the index read refused", err)
			}
			if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" || gittest.ReadFile(t, dir, "a.txt") != "a\n" {
				t.Fatalf("a refused operation changed something: refs %q", refs)
			}
		})
	}
}

// TestRestoreKeepsTheDiskBitsWhenFileModeIsFalse: a write that fails
// after a.txt was written puts a.txt back with the bits it had on disk,
// not the ones its recorded mode would give it.
func TestRestoreKeepsTheDiskBitsWhenFileModeIsFalse(t *testing.T) {
	dir := setupFileModeFalse(t) // a.txt: 100644 recorded, 0755 on disk
	disk := readDisk(t, dir, []string{"a.txt"})
	r, s := open(t, dir, "s")
	restore := repo.SetPauseHook(func(at, path string) {
		if at == "checked" && path == "tool.sh" {
			appendLine(t, filepath.Join(dir, "tool.sh"), "person")
		}
	})
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "a.txt", "tool.sh"), session.RecordOutside,
		setContent("test.set", map[string]string{"a.txt": "agent\n", "tool.sh": "agent\n"}))
	restore()
	if !errors.Is(err, repo.ErrFileChanged) {
		t.Fatalf("err = %v, want the file-changed refusal", err)
	}
	if got := readDisk(t, dir, []string{"a.txt"}); got["a.txt"] != disk["a.txt"] {
		t.Fatalf("a.txt put back as %+v, want %+v", got["a.txt"], disk["a.txt"])
	}
}

// TestSparseCheckoutUndoAboutAPathWritesIt: an operation writes only the
// paths it changes, and a path outside the cone that it is about is
// written like any other: the person put out/b.txt on disk, the agent
// deleted it, and undo puts it back with its exact bytes.
func TestSparseCheckoutUndoAboutAPathWritesIt(t *testing.T) {
	dir := setupSparse()(t)
	gittest.WriteFile(t, dir, "out/b.txt", "two\n") // HEAD's bytes; the skip-worktree bit stays
	disk := readDisk(t, dir, []string{"out/b.txt", "in/a.txt"})
	r, s := open(t, dir, "s")
	b := resolve(t, r, dir, "out/b.txt")
	out, err := s.Apply(context.Background(), b, session.RecordOutside, setContent("test.delete", map[string]string{"out/b.txt": gittest.Missing}))
	if err != nil || !out.Sync.IsZero() {
		t.Fatalf("delete: %v, sync %s", err, out.Sync)
	}
	if gittest.ReadFile(t, dir, "out/b.txt") != gittest.Missing {
		t.Fatal("out/b.txt was not deleted")
	}
	if _, err := s.Apply(context.Background(), b, session.RefuseOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, _, err := hist.PlanUndo(tx, s, "out/b.txt", hist.DefaultUndoDepth, "test.undo")
		return pl, err
	}); err != nil {
		t.Fatal(err)
	}
	if got := readDisk(t, dir, []string{"out/b.txt", "in/a.txt"}); got["out/b.txt"] != disk["out/b.txt"] || got["in/a.txt"] != disk["in/a.txt"] {
		t.Fatalf("after the undo: %+v, want %+v", got, disk)
	}
	if d := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"); d != "" {
		t.Fatalf("the session differs from HEAD after the undo:\n%s", d)
	}
	gittest.Fsck(t, dir)
}
