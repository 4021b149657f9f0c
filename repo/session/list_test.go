package session_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// missingCommit is a commit id no test repository has.
const missingCommit = "0123456789abcdef0123456789abcdef01234567"

// sessionsRepo makes a repository with three sessions: a (two edits of
// f.txt, then one of g.txt, which was changed by hand first: a sync commit
// before it), b (one edit of f.txt, which a changed: a sync commit before
// it too) and c, whose ref names a commit that is missing.
func sessionsRepo(t *testing.T) (dir string, r *repo.Repo) {
	t.Helper()
	dir = gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n", "g.txt": "0\n"})
	edit := func(name string, contents map[string]string) {
		t.Helper()
		r, s := open(t, dir, name)
		var args []string
		for p := range contents {
			args = append(args, p)
		}
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, args...), session.RecordOutside, setContent("t", contents)); err != nil {
			t.Fatal(err)
		}
	}
	edit("a", map[string]string{"f.txt": "1\n"})
	edit("a", map[string]string{"f.txt": "2\n"})
	gittest.WriteFile(t, dir, "g.txt", "by hand\n")
	edit("a", map[string]string{"g.txt": "3\n"})
	edit("b", map[string]string{"f.txt": "4\n"})
	gittest.WriteFile(t, dir, ".git/refs/edits/c", missingCommit+"\n")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, r
}

func TestListSummarizesEverySessionFromItsHistory(t *testing.T) {
	dir, r := sessionsRepo(t)
	sums, err := session.List(r)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sums {
		names = append(names, s.Name)
	}
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("sessions %v, want %v", names, want)
	}
	head := gittest.Rev(t, dir, "HEAD")
	for _, tc := range []struct {
		sum            session.Summary
		commits, edits int
		paths          []string
	}{
		{sums[0], 4, 3, []string{"f.txt", "g.txt"}}, // three edits and a sync
		{sums[1], 2, 1, []string{"f.txt"}},          // a sync of f.txt (changed by a) and an edit
	} {
		s := tc.sum
		ref := "refs/edits/" + s.Name
		if s.Ref != ref || s.Broken != nil {
			t.Errorf("%s: ref %q, broken %v", s.Name, s.Ref, s.Broken)
		}
		if got := s.Tip.String(); got != gittest.Rev(t, dir, ref) {
			t.Errorf("%s: tip %s, git says %s", s.Name, got, gittest.Rev(t, dir, ref))
		}
		if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", "HEAD.."+ref)); s.Commits != tc.commits || n != strconv.Itoa(tc.commits) {
			t.Errorf("%s: %d commits (git counts %s), want %d", s.Name, s.Commits, n, tc.commits)
		}
		if s.Edits != tc.edits || !reflect.DeepEqual(s.Paths, tc.paths) {
			t.Errorf("%s: %d edits of %v, want %d of %v", s.Name, s.Edits, s.Paths, tc.edits, tc.paths)
		}
		if s.Base.String() != head {
			t.Errorf("%s: base %s, want HEAD %s", s.Name, s.Base, head)
		}
		when := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%ct", ref))
		if got := strconv.FormatInt(s.Last.Unix(), 10); got != when {
			t.Errorf("%s: last %s, git says %s", s.Name, got, when)
		}
	}
	c := sums[2]
	if c.Broken == nil || !errors.Is(c.Broken, session.ErrBroken) || !c.Tip.IsZero() || c.Commits != 0 || len(c.Paths) != 0 {
		t.Fatalf("broken session summarized as %+v", c)
	}
	if !strings.Contains(c.Broken.Error(), "git edit prune --session c") {
		t.Fatalf("the broken summary does not say how to remove it: %v", c.Broken)
	}
}

func TestPruneDeletesTheSelectedSessionsOnly(t *testing.T) {
	later := time.Now().Add(time.Hour)
	for _, tc := range []struct {
		name         string
		opts         session.PruneOptions
		pruned, kept []string
		left         []string // session refs left, in git's order
	}{
		{"by age: none old enough", session.PruneOptions{ByAge: true, OlderThan: 2 * time.Hour, Now: later},
			nil, []string{"c"}, []string{"a", "b", "c"}},
		{"by age: the healthy ones, the broken one kept", session.PruneOptions{ByAge: true, OlderThan: time.Minute, Now: later},
			[]string{"a", "b"}, []string{"c"}, []string{"c"}},
		{"by name, broken included, in the order named", session.PruneOptions{Sessions: []string{"c", "a"}, Now: later},
			[]string{"c", "a"}, nil, []string{"b"}},
		{"a name given twice is pruned once", session.PruneOptions{Sessions: []string{"b", "b"}, Now: later},
			[]string{"b"}, nil, []string{"a", "c"}},
		{"by name and age: too young is kept", session.PruneOptions{Sessions: []string{"a"}, ByAge: true, OlderThan: 2 * time.Hour, Now: later},
			nil, nil, []string{"a", "b", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, r := sessionsRepo(t)
			gittest.WriteFile(t, dir, ".git/git-edit/sessions/a/seen/x", "record\n")
			res, err := session.Prune(context.Background(), r, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var pruned, kept []string
			for _, p := range res.Pruned {
				pruned = append(pruned, p.Name)
				if p.Name == "c" && (p.Broken == nil || p.Was.String() != missingCommit) {
					t.Errorf("pruned broken c as %+v", p)
				}
			}
			for _, k := range res.Kept {
				kept = append(kept, k.Name)
			}
			if !reflect.DeepEqual(pruned, tc.pruned) || !reflect.DeepEqual(kept, tc.kept) {
				t.Fatalf("pruned %v and kept %v, want %v and %v", pruned, kept, tc.pruned, tc.kept)
			}
			if got := refsLeft(t, dir); !reflect.DeepEqual(got, tc.left) {
				t.Fatalf("left %v, want %v", got, tc.left)
			}
			for _, p := range tc.pruned {
				if _, err := gittest.GitErr(dir, "reflog", "exists", "refs/edits/"+p); err == nil {
					t.Fatalf("the reflog of pruned %s is still there", p)
				}
			}
			aPruned := slices.Contains(tc.pruned, "a")
			if seen := gittest.ReadFile(t, dir, ".git/git-edit/sessions/a/seen/x"); aPruned == (seen != gittest.Missing) {
				t.Fatalf("a pruned: %v, its read record: %q", aPruned, seen)
			}
		})
	}
}

// refsLeft lists the sessions whose refs git still has.
func refsLeft(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	for _, line := range strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/")) {
		names = append(names, strings.TrimPrefix(line, "refs/edits/"))
	}
	return names
}

func TestPruneRefusesBeforeDeletingAnything(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  session.PruneOptions
		check func(error) bool
	}{
		{"an unknown name", session.PruneOptions{Sessions: []string{"a", "nosuch"}},
			func(err error) bool {
				var unknown *session.UnknownSessionError
				return errors.As(err, &unknown) && unknown.Name == "nosuch" && strings.Contains(err.Error(), "nothing was pruned")
			}},
		{"an invalid name", session.PruneOptions{Sessions: []string{"a", "x/y"}},
			func(err error) bool { return errors.Is(err, session.ErrBadName) }},
		{"neither age nor names", session.PruneOptions{},
			func(err error) bool { return err != nil && strings.Contains(err.Error(), "nothing was pruned") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, r := sessionsRepo(t)
			before := gittest.Git(t, dir, "for-each-ref", "--format=%(objectname) %(refname)")
			_, err := session.Prune(context.Background(), r, tc.opts)
			if !tc.check(err) {
				t.Fatalf("got %v", err)
			}
			if after := gittest.Git(t, dir, "for-each-ref", "--format=%(objectname) %(refname)"); after != before {
				t.Fatalf("refs changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}
