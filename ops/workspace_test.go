package ops_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/text"
	"github.com/git-edit/git-edit/repo/gittest"
)

// The Workspace contract, case by case, against real repositories: what a
// plan may change, what Change refuses (and that a refusal leaves files and
// refs as they were), and the read-before-edit states.
func TestWorkspaceChange(t *testing.T) {
	errPlan := errors.New("the plan's own refusal")
	tests := []struct {
		name    string
		paths   []string
		plan    func(files []dialect.File) (dialect.Plan, error)
		wantErr error             // errors.Is; nil: success
		files   map[string]string // after (gittest.Missing: no file)
		commit  bool              // a commit is recorded
	}{
		{
			name:  "spans apply to the current content",
			paths: []string{"a.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				return dialect.Plan{Changes: []dialect.Change{{ID: f[0].ID, Edits: []text.Edit{{Start: 0, End: 1, New: "A"}}}}}, nil
			},
			files: map[string]string{"a.txt": "Alpha\n"}, commit: true,
		},
		{
			name:  "whole content creates a file and its directories; delete removes one",
			paths: []string{"new/dir/n.txt", "b.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				return dialect.Plan{Changes: []dialect.Change{{ID: f[0].ID, Whole: true, Content: []byte("n\n")}, {ID: f[1].ID, Delete: true}}}, nil
			},
			files: map[string]string{"new/dir/n.txt": "n\n", "b.txt": gittest.Missing}, commit: true,
		},
		{
			name:  "a change to a file the request did not name is refused",
			paths: []string{"a.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				return dialect.Plan{Changes: []dialect.Change{{ID: "b.txt", Delete: true}}}, nil
			},
			wantErr: text.ErrBadEdit, files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"},
		},
		{
			name:  "spans that do not fit the content are refused",
			paths: []string{"a.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				return dialect.Plan{Changes: []dialect.Change{{ID: f[0].ID, Edits: []text.Edit{{Start: 0, End: 99, New: "x"}}}}}, nil
			},
			wantErr: text.ErrBadEdit, files: map[string]string{"a.txt": "alpha\n"},
		},
		{
			name:    "the plan's own error comes back unchanged",
			paths:   []string{"a.txt", "b.txt"},
			plan:    func([]dialect.File) (dialect.Plan, error) { return dialect.Plan{}, errPlan },
			wantErr: errPlan, files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"},
		},
		{
			name:  "a change of no byte records nothing",
			paths: []string{"a.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				return dialect.Plan{Changes: []dialect.Change{{ID: f[0].ID, Whole: true, Content: []byte("alpha\n")}}}, nil
			},
			files: map[string]string{"a.txt": "alpha\n"},
		},
		{
			name:  "two spellings of one file are one ID",
			paths: []string{"a.txt", "./a.txt"},
			plan: func(f []dialect.File) (dialect.Plan, error) {
				if f[0].ID != f[1].ID {
					return dialect.Plan{}, errors.New("two IDs for one file: " + f[0].ID + " " + f[1].ID)
				}
				return dialect.Plan{Changes: []dialect.Change{{ID: f[1].ID, Whole: true, Content: []byte("one\n")}}}, nil
			},
			files: map[string]string{"a.txt": "one\n"}, commit: true,
		},
		{
			name:    "files of two repositories are refused before any plan",
			paths:   []string{"a.txt", "nested/g.txt"},
			plan:    func([]dialect.File) (dialect.Plan, error) { return dialect.Plan{}, errors.New("planned") },
			wantErr: dialect.ErrManyRepositories, files: map[string]string{"a.txt": "alpha\n", "nested/g.txt": "nested\n"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
			nested := filepath.Join(dir, "nested")
			gittest.Git(t, dir, "init", "-q", "-b", "main", nested)
			gittest.Commit(t, nested, map[string]string{"g.txt": "nested\n"})
			e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			refs := gittest.Git(t, dir, "for-each-ref")
			out, err := e.Workspace("test").Change(context.Background(), dialect.ChangeRequest{Tool: "test", Paths: tc.paths, Plan: tc.plan})
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			for path, want := range tc.files {
				if got := gittest.ReadFile(t, dir, path); got != want {
					t.Errorf("%s = %q, want %q", path, got, want)
				}
			}
			if moved := gittest.Git(t, dir, "for-each-ref") != refs; moved != tc.commit || (out.Commit != "") != tc.commit {
				t.Fatalf("refs moved %v, commit %q; want a commit: %v", moved, out.Commit, tc.commit)
			}
			if tc.commit {
				if tip := gittest.Rev(t, dir, "refs/edits/s"); tip != out.Commit {
					t.Fatalf("session tip %s, outcome %s", tip, out.Commit)
				}
			}
			gittest.Fsck(t, dir)
		})
	}
}

// File.Seen is what read-before-edit dialects branch on: never seen,
// seen as it is, changed since, and not required when the repository says
// so (git config edit.requireRead false).
func TestWorkspaceSeen(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "alpha\n"})
	seen := func(t *testing.T) dialect.Seen {
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		var got dialect.Seen
		_, err = e.Workspace("test").Change(context.Background(), dialect.ChangeRequest{Tool: "test", Paths: []string{"a.txt"}, CheckSeen: true,
			Plan: func(f []dialect.File) (dialect.Plan, error) { got = f[0].Seen; return dialect.Plan{}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	ws := func(t *testing.T) dialect.Workspace {
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e.Workspace("test")
	}
	if got := seen(t); got != dialect.SeenNever {
		t.Fatalf("before any read: %v", got)
	}
	f, err := ws(t).Read("a.txt")
	if err != nil || !f.Exists || string(f.Content) != "alpha\n" || f.ID != "a.txt" || f.Abs != filepath.Join(dir, "a.txt") {
		t.Fatalf("Read: %+v %v", f, err)
	}
	ws(t).MarkSeen("a.txt", f.Content)
	if got := seen(t); got != dialect.SeenCurrent {
		t.Fatalf("after a read: %v", got)
	}
	gittest.WriteFile(t, dir, "a.txt", "alpha, changed\n")
	if got := seen(t); got != dialect.SeenStale {
		t.Fatalf("after a change on disk: %v", got)
	}
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	if got := seen(t); got != dialect.SeenNotRequired {
		t.Fatalf("with edit.requireRead false: %v", got)
	}
}
