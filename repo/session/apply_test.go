package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// setContent is a planner that sets each path to the given content ("" with
// del deletes it).
func setContent(tool string, contents map[string]string) func(*session.Tx) (session.Plan, error) {
	return func(tx *session.Tx) (session.Plan, error) {
		var pl session.Plan
		for p, c := range contents {
			if c == gittest.Missing {
				pl.Changes = append(pl.Changes, session.Change{Path: p, Delete: true})
			} else {
				pl.Changes = append(pl.Changes, session.Change{Path: p, Content: []byte(c)})
			}
		}
		pl.Meta = session.Meta{Op: session.OpEdit, Tool: tool}
		return pl, nil
	}
}

func open(t *testing.T, dir, name string) (*repo.Repo, *session.Session) {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(r, name)
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

func resolve(t *testing.T, r *repo.Repo, root string, args ...string) []repo.Path {
	t.Helper()
	var ps []repo.Path
	for _, a := range args {
		p, err := r.Resolve(root, a)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestApplyFirstCommitChildOfHeadWithTrailers(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "one\n", "dir/b.txt": "two\n", "c.txt": "three\n"})
	gittest.WriteFile(t, dir, "c.txt", "person's uncommitted change\n")
	before := gittest.Snapshot(t, dir)
	statusBefore := gittest.StatusExcept(t, dir, "dir/b.txt")
	r, s := open(t, dir, "s1")

	out, err := s.Apply(context.Background(), resolve(t, r, dir, "dir/b.txt"), session.RecordOutside,
		setContent("test.set", map[string]string{"dir/b.txt": "TWO\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.ReadFile(t, dir, "dir/b.txt"); got != "TWO\n" {
		t.Fatalf("file = %q", got)
	}
	if out.Sync.String() != "0000000000000000000000000000000000000000" {
		t.Fatalf("unexpected sync commit %s", out.Sync)
	}
	tip := gittest.Rev(t, dir, "refs/edits/s1")
	if tip != out.Commit.String() {
		t.Fatalf("ref at %s, commit %s", tip, out.Commit)
	}
	if parent := gittest.Rev(t, dir, "refs/edits/s1^"); parent != before.Head {
		t.Fatalf("parent %s, HEAD %s", parent, before.Head)
	}
	msg := gittest.Git(t, dir, "log", "-1", "--format=%B", "refs/edits/s1")
	want := "test.set: dir/b.txt\n\nEdit-Op: edit\nEdit-Tool: test.set\nEdit-Session: s1\nEdit-Path: dir/b.txt\nEdit-Seq: 0 1\n\n"
	if msg != want {
		t.Fatalf("message:\n%q\nwant\n%q", msg, want)
	}
	trailers := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", "refs/edits/s1")
	if strings.TrimSpace(trailers) != "edit" {
		t.Fatalf("git does not read the Edit-Op trailer: %q", trailers)
	}
	// Tree surgery: everything but the edited path is HEAD's tree, including
	// c.txt, whose uncommitted change the session never touched.
	diff := gittest.Git(t, dir, "diff", "--name-status", "HEAD", "refs/edits/s1")
	if diff != "M\tdir/b.txt\n" {
		t.Fatalf("HEAD..session differs in %q", diff)
	}
	if log := gittest.Git(t, dir, "log", "--format=%s", "HEAD..refs/edits/s1"); log != "test.set: dir/b.txt\n" {
		t.Fatalf("log HEAD..ref = %q", log)
	}
	if rl := gittest.Git(t, dir, "reflog", "--format=%gs", "refs/edits/s1"); rl != "test.set: dir/b.txt\n" {
		t.Fatalf("reflog = %q", rl)
	}
	gittest.Fsck(t, dir)
	if after := gittest.Snapshot(t, dir); after != before {
		t.Fatalf("person's state changed:\n%+v\n%+v", before, after)
	}
	if st := gittest.StatusExcept(t, dir, "dir/b.txt"); st != statusBefore {
		t.Fatalf("status of untouched files changed: %q -> %q", statusBefore, st)
	}
}

func TestApplyOnUnbornBranchHasNoParent(t *testing.T) {
	dir := gittest.New(t)
	r, s := open(t, dir, "s")
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, "new/file.txt"), session.RecordOutside,
		setContent("test.create", map[string]string{"new/file.txt": "hello\n"})); err != nil {
		t.Fatal(err)
	}
	if parents := gittest.Git(t, dir, "log", "-1", "--format=%P", "refs/edits/s"); parents != "\n" {
		t.Fatalf("parents = %q", parents)
	}
	if files := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "refs/edits/s"); files != "new/file.txt\n" {
		t.Fatalf("tree = %q", files)
	}
	if gittest.Rev(t, dir, "HEAD") != "" {
		t.Fatal("HEAD was born")
	}
	gittest.Fsck(t, dir)
}

func TestApplyRecordsOutsideChangeAsSyncCommit(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "committed\n"})
	gittest.WriteFile(t, dir, "f.txt", "person wrote this\n")
	gittest.WriteFile(t, dir, "untracked.txt", "new by person\n")
	r, s := open(t, dir, "s")
	out, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt", "untracked.txt"), session.RecordOutside,
		setContent("test.set", map[string]string{"f.txt": "agent\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if out.Sync.IsZero() {
		t.Fatal("no sync commit")
	}
	log := gittest.Git(t, dir, "log", "--format=%s|%(trailers:key=Edit-Op,valueonly,separator=)", "HEAD..refs/edits/s")
	want := "test.set: f.txt|edit\nsync: f.txt, untracked.txt changed outside git-edit|sync\n"
	if log != want {
		t.Fatalf("log:\n%s\nwant\n%s", log, want)
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s~1:f.txt"); got != "person wrote this\n" {
		t.Fatalf("sync recorded %q", got)
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s~1:untracked.txt"); got != "new by person\n" {
		t.Fatalf("sync recorded %q", got)
	}
	// The edit commit's diff is exactly the edit.
	if d := gittest.Git(t, dir, "diff", "refs/edits/s~1", "refs/edits/s", "--stat=200"); !strings.Contains(d, "f.txt | 2 +-") || strings.Contains(d, "untracked") {
		t.Fatalf("edit diff: %s", d)
	}
	msg := gittest.Git(t, dir, "log", "-1", "--format=%B", "refs/edits/s")
	if !strings.Contains(msg, "Edit-Prev: "+out.Sync.String()+" f.txt\n") {
		t.Fatalf("edit commit does not name the sync as previous: %s", msg)
	}
	gittest.Fsck(t, dir)
}

func TestApplyDeleteAndNestedTreeSurgery(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a/b/c.txt": "c\n", "a/d.txt": "d\n", "e.txt": "e\n"})
	r, s := open(t, dir, "s")
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "a/b/c.txt", "a/x/y/z.txt"), session.RecordOutside,
		setContent("test.set", map[string]string{"a/b/c.txt": gittest.Missing, "a/x/y/z.txt": "z\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "refs/edits/s"); got != "a/d.txt\na/x/y/z.txt\ne.txt\n" {
		t.Fatalf("tree:\n%s", got)
	}
	if gittest.ReadFile(t, dir, "a/b/c.txt") != gittest.Missing || gittest.ReadFile(t, dir, "a/x/y/z.txt") != "z\n" {
		t.Fatal("files not as planned")
	}
	gittest.Fsck(t, dir)
}

func TestApplyKeepsModeAndRecordsExecutable(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "commit", "-qam", "exec")
	r, s := open(t, dir, "s")
	if _, err := s.Apply(context.Background(), resolve(t, r, dir, "run.sh"), session.RecordOutside,
		setContent("test.set", map[string]string{"run.sh": "#!/bin/sh\necho hi\n"})); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if got := gittest.Git(t, dir, "ls-tree", "refs/edits/s", "run.sh"); !strings.HasPrefix(got, "100755 ") {
		t.Fatalf("tree entry %q", got)
	}
}

func TestApplyNoChangeRecordsNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "same\n"})
	gittest.WriteFile(t, dir, "f.txt", "outside\n")
	r, s := open(t, dir, "s")
	out, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
		setContent("test.set", map[string]string{"f.txt": "outside\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Commit.IsZero() || gittest.Rev(t, dir, "refs/edits/s") != "" {
		t.Fatal("a no-op recorded a commit")
	}
}

// Every refusal leaves files and refs exactly as they were.
func TestApplyRefusalsChangeNothing(t *testing.T) {
	planErr := errors.New("planner says no")
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		plan  func(*session.Tx) (session.Plan, error)
		want  error
	}{
		{"planner error", nil, func(*session.Tx) (session.Plan, error) { return session.Plan{}, planErr }, planErr},
		{"ref locked", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, ".git/refs/edits/s.lock", "")
		}, setContent("t", map[string]string{"f.txt": "new\n"}), repo.ErrRefLocked},
		{"read-only file", func(t *testing.T, dir string) {
			os.Chmod(filepath.Join(dir, "f.txt"), 0o444)
		}, setContent("t", map[string]string{"f.txt": "new\n"}), repo.ErrReadOnly},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "old\n"})
			r, s := open(t, dir, "s")
			// One earlier edit so the ref exists and must stay put.
			if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
				setContent("t", map[string]string{"f.txt": "first\n"})); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			tip := gittest.Rev(t, dir, "refs/edits/s")
			reflog := gittest.Git(t, dir, "reflog", "refs/edits/s")
			_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, tc.plan)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if got := gittest.ReadFile(t, dir, "f.txt"); got != "first\n" {
				t.Fatalf("file changed to %q", got)
			}
			if gittest.Rev(t, dir, "refs/edits/s") != tip || gittest.Git(t, dir, "reflog", "refs/edits/s") != reflog {
				t.Fatal("ref or reflog moved")
			}
		})
	}
}

func TestRefuseOutsideReportsBothStates(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "old\n"})
	gittest.WriteFile(t, dir, "f.txt", "person\n")
	r, s := open(t, dir, "s")
	_, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RefuseOutside,
		setContent("t", map[string]string{"f.txt": "new\n"}))
	var oe *session.OutsideChangeError
	if !errors.As(err, &oe) {
		t.Fatalf("err = %v", err)
	}
	if string(oe.Recorded.Content) != "old\n" || string(oe.Disk.Content) != "person\n" {
		t.Fatalf("states %q %q", oe.Recorded.Content, oe.Disk.Content)
	}
	if gittest.ReadFile(t, dir, "f.txt") != "person\n" || gittest.Rev(t, dir, "refs/edits/s") != "" {
		t.Fatal("refusal changed something")
	}
}

func TestConcurrentAppliesLoseNothing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"log.txt": ""})
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := repo.Open(dir)
			if err != nil {
				errs <- err
				return
			}
			s, _ := session.New(r, "s")
			p, _ := r.Resolve(dir, "log.txt")
			_, err = s.Apply(context.Background(), []repo.Path{p}, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
				old := tx.Files["log.txt"].Content
				return session.Plan{
					Changes: []session.Change{{Path: "log.txt", Content: append(append([]byte{}, old...), fmt.Sprintf("line %d\n", i)...)}},
					Meta:    session.Meta{Op: session.OpEdit, Tool: "t"},
				}, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	content := gittest.ReadFile(t, dir, "log.txt")
	for i := range n {
		if !strings.Contains(content, fmt.Sprintf("line %d\n", i)) {
			t.Fatalf("line %d lost:\n%s", i, content)
		}
	}
	if count := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/s"); count != fmt.Sprintf("%d\n", n) {
		t.Fatalf("commits = %s", count)
	}
	gittest.Fsck(t, dir)
}

func TestPackedSessionRefIsReadAndUpdated(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	r, s := open(t, dir, "s")
	edit := func(c string) {
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			setContent("t", map[string]string{"f.txt": c})); err != nil {
			t.Fatal(err)
		}
	}
	edit("1\n")
	gittest.Git(t, dir, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(dir, ".git/refs/edits/s")); !os.IsNotExist(err) {
		t.Fatal("ref still loose after pack-refs")
	}
	edit("2\n")
	if got := gittest.Git(t, dir, "show", "refs/edits/s:f.txt"); got != "2\n" {
		t.Fatalf("tip holds %q", got)
	}
	if n := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/s"); n != "2\n" {
		t.Fatalf("chain broken: %s commits", n)
	}
	gittest.Fsck(t, dir)
}

func TestLinkedWorktreeSharesRefsAndUsesItsHead(t *testing.T) {
	main := gittest.NewWithCommit(t, map[string]string{"f.txt": "main\n"})
	gittest.Git(t, main, "branch", "other")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, main, "worktree", "add", "-q", wt, "other")
	wt, _ = filepath.EvalSymlinks(wt)
	gittest.Commit(t, wt, map[string]string{"g.txt": "on other\n"})
	r, s := open(t, filepath.Join(wt), "w")
	if r.Top != wt {
		t.Fatalf("top %s, want %s", r.Top, wt)
	}
	if _, err := s.Apply(context.Background(), resolve(t, r, wt, "g.txt"), session.RecordOutside,
		setContent("t", map[string]string{"g.txt": "edited\n"})); err != nil {
		t.Fatal(err)
	}
	if parent, head := gittest.Rev(t, main, "refs/edits/w^"), gittest.Rev(t, wt, "HEAD"); parent != head {
		t.Fatalf("parent %s is not the worktree's HEAD %s", parent, head)
	}
	gittest.Fsck(t, main)
}

func TestValidateSessionName(t *testing.T) {
	for _, good := range []string{"default", "mcp-20261121-153000-ab12", "agent_1.task"} {
		if err := session.ValidateName(good); err != nil {
			t.Errorf("%q refused: %v", good, err)
		}
	}
	for _, bad := range []string{"", "@", ".hidden", "-x", "a.lock", "a.", "a..b", "a@{b", "a b", "a/b", "a:b", "a~1", "a^", "a?", "a*", "a[", `a\b`, "a\x01"} {
		if err := session.ValidateName(bad); !errors.Is(err, session.ErrBadName) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMetaRoundTrip(t *testing.T) {
	m := session.Meta{Op: session.OpUndo, Tool: "text_editor.undo_edit", Session: "s",
		Paths: []string{"plain.go", "with space.go", "\"quoted\".go", "new\nline.go"}}
	h1 := plumbing.NewHash("1111111111111111111111111111111111111111")
	h2 := plumbing.NewHash("2222222222222222222222222222222222222222")
	m.Prev = map[string]plumbing.Hash{"with space.go": h1, "new\nline.go": h2}
	m.Undoes = h2
	m.Matched = []string{"indentation: a missing leading space on 3 lines", "similarity: line 4 differs\nin two words"}
	m.Model, m.Agent = "claude-sonnet-4-5-20250929", "claude-code 2.1.3"
	m.Rejects = []session.Rejected{{Path: "with space.go", Hunk: "@@ -3,2 +3,4 @@"}, {Path: "new\nline.go", Hunk: "@@ -0,0 +1 @@"}, {Path: "a @@ -1 +1 @@.go", Hunk: "@@ -7 +7,0 @@"}}
	got, ok := session.ParseMeta(m.Message("subject"))
	if got.Model != m.Model || got.Agent != m.Agent {
		t.Fatalf("Edit-Model/Edit-Agent round trip: %q %q, want %q %q", got.Model, got.Agent, m.Model, m.Agent)
	}
	if msg := m.Message("subject"); !strings.Contains(msg, "\nEdit-Model: claude-sonnet-4-5-20250929\nEdit-Agent: claude-code 2.1.3\n") {
		t.Fatalf("trailers:\n%s", msg)
	}
	if !slices.Equal(got.Rejects, m.Rejects) {
		t.Fatalf("Edit-Rejects round trip: %q, want %q", got.Rejects, m.Rejects)
	}
	if want := []string{m.Matched[0], "similarity: line 4 differs in two words"}; !slices.Equal(got.Matched, want) {
		t.Fatalf("Edit-Match round trip: %q, want %q", got.Matched, want)
	}
	if !ok || got.Op != m.Op || got.Tool != m.Tool || got.Session != m.Session || got.Undoes != h2 ||
		strings.Join(got.Paths, "|") != strings.Join(m.Paths, "|") ||
		len(got.Prev) != 2 || got.Prev["with space.go"] != h1 || got.Prev["new\nline.go"] != h2 {
		t.Fatalf("round trip: %+v", got)
	}
	if _, ok := session.ParseMeta("Edit-Op: edit\n"); ok {
		t.Fatal("a subject alone must not parse as trailers")
	}
}

func TestSeenRecordsPersistPerSession(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	_, s1 := open(t, dir, "one")
	if _, ok, err := s1.LastSeen("dir/odd name\n.go"); ok || err != nil {
		t.Fatalf("unseen path: ok=%v err=%v", ok, err)
	}
	if err := s1.RecordSeen("dir/odd name\n.go", repo.BlobHash([]byte("content"))); err != nil {
		t.Fatal(err)
	}
	// Another process of the same session sees it; another session does not.
	_, again := open(t, dir, "one")
	h, ok, err := again.LastSeen("dir/odd name\n.go")
	if err != nil || !ok || h != repo.BlobHash([]byte("content")) {
		t.Fatalf("LastSeen = %s %v %v", h, ok, err)
	}
	_, other := open(t, dir, "two")
	if _, ok, _ := other.LastSeen("dir/odd name\n.go"); ok {
		t.Fatal("session two sees session one's record")
	}
	if err := again.RecordSeen("dir/odd name\n.go", repo.BlobHash([]byte("new"))); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := s1.LastSeen("dir/odd name\n.go"); h != repo.BlobHash([]byte("new")) {
		t.Fatal("record not replaced")
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Fatalf("records leaked into the worktree: %q", st)
	}
	gittest.Fsck(t, dir)
}

// A Repo kept open (as by the MCP server) keeps working after an external
// `git gc` moves every object into a new pack and deletes the old one.
func TestApplyAfterExternalGC(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	gittest.Git(t, dir, "gc", "-q")
	r, s := open(t, dir, "s")
	edit := func(c string) {
		t.Helper()
		if _, err := s.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside,
			setContent("t", map[string]string{"f.txt": c})); err != nil {
			t.Fatalf("edit %q: %v", c, err)
		}
	}
	edit("1\n") // reads HEAD from the first pack: go-git loads its index
	gittest.Git(t, dir, "gc", "-q", "--prune=now")
	edit("2\n") // the tip now lives only in a new pack
	gittest.Git(t, dir, "gc", "-q", "--prune=now", "--aggressive")
	edit("3\n")
	if got := gittest.Git(t, dir, "log", "--format=%s", "HEAD..refs/edits/s"); got != "t: f.txt\nt: f.txt\nt: f.txt\n" {
		t.Fatalf("history: %q", got)
	}
	gittest.Fsck(t, dir)
}
