package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// TestAttackTurnsAndCheckpointsFromTheIndex (issue 22 item 19b): `undo
// --turn`, `rollback --to` a turn or checkpoint, and `checkpoint NAME`
// (refusing a name in use) walked every commit of the session; they read
// the commits the history index names for that turn or name, and no
// others. Answers are compared with git's listing of the trailers, from an
// index read back from disk, and from a forged one (a label moved to
// another commit), which costs a walk, never a wrong answer.
func TestAttackTurnsAndCheckpointsFromTheIndex(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	r, s := open(t, dir, "s")
	const commits, turns = 120, 10
	ctx := context.Background()
	for i := range commits {
		turnCtx := session.WithTurn(ctx, fmt.Sprintf("turn %d", i%turns))
		if _, err := s.Apply(turnCtx, resolve(t, r, dir, "a.txt"), session.RecordOutside,
			setContent("test.set", map[string]string{"a.txt": fmt.Sprintf("%d\n", i)})); err != nil {
			t.Fatal(err)
		}
		if i == commits/2 {
			if _, err := s.Checkpoint(ctx, "half", false); err != nil {
				t.Fatal(err)
			}
		}
	}
	tip := plumbing.NewHash(gittest.Rev(t, dir, "refs/edits/s"))
	// git's answer: each commit's Edit-Turn and Edit-Checkpoint, newest first.
	byGit := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "log", "--format=%H|%(trailers:key=Edit-Turn,valueonly,separator=)|%(trailers:key=Edit-Checkpoint,valueonly,separator=)", "refs/edits/s")), "\n") {
		f := strings.Split(l, "|")
		if f[1] != "" {
			byGit["t"+f[1]] = append(byGit["t"+f[1]], f[0])
		}
		if f[2] != "" {
			byGit["c"+f[2]] = append(byGit["c"+f[2]], f[0])
		}
	}
	ids := func(cs []session.Commit) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Hash.String())
		}
		return out
	}
	check := func(what string, fresh *session.Session, bound int64) {
		t.Helper()
		before := r.CommitReads()
		got, err := fresh.TurnCommits(tip, "turn 3")
		if err != nil || !slices.Equal(ids(got), byGit["tturn 3"]) || len(got) != commits/turns {
			t.Fatalf("%s: TurnCommits = %d commits, %v; git lists %d", what, len(got), err, len(byGit["tturn 3"]))
		}
		cps, err := fresh.CheckpointsNamed(tip, "half")
		if err != nil || !slices.Equal(ids(cps), byGit["chalf"]) || len(cps) != 1 {
			t.Fatalf("%s: CheckpointsNamed = %v, %v; git lists %v", what, ids(cps), err, byGit["chalf"])
		}
		if none, err := fresh.TurnCommits(tip, "turn 99"); err != nil || len(none) != 0 {
			t.Fatalf("%s: an unknown turn gave %d commits, %v", what, len(none), err)
		}
		_, err = fresh.Checkpoint(ctx, "half", true)
		if !errors.Is(err, session.ErrCheckpointExists) {
			t.Fatalf("%s: a second checkpoint named half: %v", what, err)
		}
		if reads := r.CommitReads() - before; bound > 0 && reads > bound {
			t.Errorf("%s: decoded %d commits of a session of %d to answer about %d of them; want at most %d", what, reads, commits, commits/turns+1, bound)
		}
	}
	// Read back from disk by another process: the commits named, plus at
	// most the catch-up since the index was written.
	fresh, err := session.New(r, "s")
	if err != nil {
		t.Fatal(err)
	}
	check("index read back", fresh, commits/turns+1+10)

	// Forged: the first label of turn 3 moved to a commit of turn 4, the
	// table resealed. The check against the commit finds it; a walk
	// answers.
	idx := filepath.Join(dir, ".git", "git-edit", "sessions", "s", "history.idx")
	good, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
	lines = lines[:len(lines)-1]
	forged := false
	for i, l := range lines {
		if f := strings.SplitN(l, " ", 4); len(f) == 4 && f[2] == "t" && f[3] == `turn 3` && !forged {
			f[1] = byGit["tturn 4"][0]
			lines[i], forged = strings.Join(f, " "), true
		}
	}
	if !forged {
		t.Fatalf("no label of turn 3 in the index:\n%s", good)
	}
	if err := os.WriteFile(idx, session.ResealIndex(lines), 0o666); err != nil {
		t.Fatal(err)
	}
	r2, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	r = r2
	forgedS, err := session.New(r2, "s")
	if err != nil {
		t.Fatal(err)
	}
	check("forged index", forgedS, 0)
}
