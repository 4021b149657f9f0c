package undo_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

func TestLog(t *testing.T) {
	f := newFixture(t)
	f.run(
		edit("e1", put("f.txt", "1\n")),
		edit("g1", put("g.txt", "g1\n")),
		edit("fg", put("f.txt", "2\n"), put("g.txt", "g2\n")),
		outside("s", put("f.txt", "p\n")), // recorded as sync s before g3
		edit("g3", put("g.txt", "g3\n")),
	)
	cases := []struct {
		name  string
		tip   string // the step whose commit is the tip; "" = zero
		n     int
		paths []string
		want  string
	}{
		{name: "every commit, sync included", tip: "g3", want: "g3 s fg g1 e1"},
		{name: "at most n", tip: "g3", n: 2, want: "g3 s"},
		{name: "n larger than the session", tip: "g3", n: 9, want: "g3 s fg g1 e1"},
		{name: "one path, along its chain", tip: "g3", paths: []string{"f.txt"}, want: "s fg e1"},
		{name: "one path, at most n", tip: "g3", n: 2, paths: []string{"f.txt"}, want: "s fg"},
		{name: "the other path", tip: "g3", paths: []string{"g.txt"}, want: "g3 fg g1"},
		{name: "two paths", tip: "g3", paths: []string{"f.txt", "g.txt"}, want: "g3 s fg g1 e1"},
		{name: "two paths, at most n", tip: "g3", n: 1, paths: []string{"g.txt", "f.txt"}, want: "g3"},
		{name: "a path never touched", tip: "g3", paths: []string{"n.txt"}, want: ""},
		{name: "an older tip", tip: "fg", want: "fg g1 e1"},
		{name: "an older tip, one path", tip: "g1", paths: []string{"f.txt"}, want: "e1"},
		{name: "no commits", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var tip plumbing.Hash
			if tc.tip != "" {
				tip = f.at(tc.tip)
			}
			got, err := undo.Log(f.s, tip, tc.n, tc.paths)
			if err != nil || f.names(got) != tc.want {
				t.Fatalf("Log = %q, %v; want %q", f.names(got), err, tc.want)
			}
			for _, c := range got {
				checkCommit(t, f, c)
			}
		})
	}
}

// checkCommit compares what history says of a commit with what git says.
func checkCommit(t *testing.T, f *fixture, c undo.Commit) {
	t.Helper()
	rev := c.Hash.String()
	subject := strings.TrimSuffix(gittest.Git(t, f.dir, "log", "-1", "--format=%s", rev), "\n")
	parent := strings.TrimSuffix(gittest.Git(t, f.dir, "log", "-1", "--format=%P", rev), "\n")
	if c.Subject != subject || c.Parent.String() != parent || c.Meta.Op != f.trailer(c.Hash, "Edit-Op") {
		t.Fatalf("%s: subject %q, parent %s, op %q; git says %q, %s, %q", f.name(c.Hash), c.Subject, c.Parent, c.Meta.Op, subject, parent, f.trailer(c.Hash, "Edit-Op"))
	}
}

func TestTouchedAndBeforeSession(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
		// want lists, in order of first touch, each path with the step
		// that first touched it and its bytes before the session.
		want []touch
	}{
		{
			name:  "edits only",
			steps: []step{edit("e1", put("f.txt", "1\n")), edit("fg", put("f.txt", "2\n"), put("g.txt", "g2\n")), edit("n1", put("n.txt", "new\n"))},
			want:  []touch{{"f.txt", "e1", "0\n"}, {"g.txt", "fg", "g0\n"}, {"n.txt", "n1", gittest.Missing}},
		},
		{
			name:  "a sync first: the person's bytes are the start",
			steps: []step{outside("s", put("f.txt", "p\n")), edit("g1", put("g.txt", "g1\n")), edit("e1", put("f.txt", "1\n"))},
			want:  []touch{{"f.txt", "s", "p\n"}, {"g.txt", "g1", "g0\n"}},
		},
		{
			name:  "a deleted file, then recreated",
			steps: []step{edit("d", del("f.txt")), edit("e1", put("f.txt", "1\n"))},
			want:  []touch{{"f.txt", "d", "0\n"}},
		},
		{
			name:  "undone edits still count as touched",
			steps: []step{edit("n1", put("n.txt", "new\n")), undone("un", "n1", del("n.txt"))},
			want:  []touch{{"n.txt", "n1", gittest.Missing}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.run(tc.steps...)
			paths, first, err := undo.Touched(f.s, f.tip())
			if err != nil {
				t.Fatal(err)
			}
			var got []touch
			for _, p := range paths {
				before, err := undo.BeforeSession(f.reader(), first[p], p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, touch{p, f.name(first[p].Hash), content(before.Exists, before.Content)})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("touched %v\nwant    %v", got, tc.want)
			}
		})
	}
}

// touch is a path, the step that first touched it, and its bytes before
// the session (gittest.Missing: it did not exist).
type touch struct{ path, first, before string }

func content(exists bool, b []byte) string {
	if !exists {
		return gittest.Missing
	}
	return string(b)
}

func TestResolve(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e1", put("f.txt", "1\n")), edit("e2", put("f.txt", "2\n")), edit("e3", put("f.txt", "3\n")))
	idOf := func(step string, n int) string { return f.at(step).String()[:n] }
	cases := []struct {
		name    string
		arg     string
		want    string
		wantErr string // in the refusal, which wraps ErrUnknownEdit
	}{
		{name: "full id", arg: idOf("e2", 40), want: "e2"},
		{name: "abbreviated id", arg: idOf("e2", 7), want: "e2"},
		{name: "four digits", arg: idOf("e1", 4), want: "e1"},
		{name: "upper case", arg: strings.ToUpper(idOf("e2", 10)), want: "e2"},
		{name: "tip", arg: "tip", want: "e3"},
		{name: "the session's name", arg: sessionName, want: "e3"},
		{name: "the session's ref", arg: "refs/edits/" + sessionName, want: "e3"},
		{name: "tip~2", arg: "tip~2", want: "e1"},
		{name: "id~1", arg: idOf("e3", 7) + "~1", want: "e2"},
		{name: "~0", arg: sessionName + "~0", want: "e3"},
		{name: "back past the first commit", arg: "tip~3", wantErr: "has only 2 commits before it"},
		{name: "back by no number", arg: "tip~x", wantErr: "after ~ give a number"},
		{name: "back by a negative number", arg: "tip~-1", wantErr: "after ~ give a number"},
		{name: "three digits are too few", arg: idOf("e2", 3), wantErr: "give a commit id from `git edit log --session h`"},
		{name: "the commit the session started from", arg: f.base.String(), wantErr: "give a commit id from"},
		{name: "a branch name", arg: "main", wantErr: "give a commit id from"},
		{name: "not hex", arg: "zzzzzzz", wantErr: "give a commit id from"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := undo.Resolve(f.s, f.tip(), tc.arg)
			if tc.wantErr != "" {
				if !errors.Is(err, undo.ErrUnknownEdit) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.arg) {
					t.Fatalf("Resolve(%q) = %s, %v; want a refusal naming it with %q", tc.arg, f.name(got.Hash), err, tc.wantErr)
				}
				return
			}
			if err != nil || got.Hash != f.at(tc.want) {
				t.Fatalf("Resolve(%q) = %s, %v; want %s", tc.arg, f.name(got.Hash), err, tc.want)
			}
			checkCommit(t, f, got)
		})
	}

	t.Run("a session with no commits", func(t *testing.T) {
		if _, err := undo.Resolve(f.s, plumbing.ZeroHash, "tip"); !errors.Is(err, undo.ErrUnknownEdit) || !strings.Contains(err.Error(), "has no commits") {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("an ambiguous prefix", func(t *testing.T) {
		twin := f.commitSharingPrefix(f.at("e1"), 4)
		prefix := idOf("e1", 4)
		if _, err := undo.Resolve(f.s, twin, prefix); !errors.Is(err, undo.ErrUnknownEdit) || !strings.Contains(err.Error(), "ambiguous") {
			t.Fatalf("Resolve(%q) with two commits starting so: err = %v", prefix, err)
		}
		if got, err := undo.Resolve(f.s, twin, idOf("e1", 40)); err != nil || got.Hash != f.at("e1") {
			t.Fatalf("the full id: %s, %v", f.name(got.Hash), err)
		}
		if got, err := undo.Resolve(f.s, twin, "tip"); err != nil || got.Hash != twin {
			t.Fatalf("tip: %s, %v", f.name(got.Hash), err)
		}
	})
}

// commitSharingPrefix writes, with git, a session commit on top of the tip
// whose id starts with the same n hex digits as other's (a nonce in its
// subject is tried until it does), moves the session's ref to it, and
// returns it.
func (f *fixture) commitSharingPrefix(other plumbing.Hash, n int) plumbing.Hash {
	f.t.Helper()
	tip := f.tip()
	header := gittest.Git(f.t, f.dir, "log", "-1", "--format=tree %T%nauthor %an <%ae> %ad%ncommitter %cn <%ce> %cd", "--date=raw", tip.String())
	tree, people, _ := strings.Cut(header, "\n")
	for nonce := 0; nonce < 1<<24; nonce++ {
		body := fmt.Sprintf("%s\nparent %s\n%s\n\ntwin %d\n\nEdit-Op: edit\nEdit-Tool: test.twin\nEdit-Session: %s\n", tree, tip, strings.TrimSuffix(people, "\n"), nonce, sessionName)
		sum := sha1.Sum([]byte(fmt.Sprintf("commit %d\x00%s", len(body), body)))
		id := hex.EncodeToString(sum[:])
		if id[:n] != other.String()[:n] {
			continue
		}
		file := filepath.Join(f.t.TempDir(), "commit")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			f.t.Fatal(err)
		}
		if written := strings.TrimSpace(gittest.Git(f.t, f.dir, "hash-object", "-t", "commit", "-w", file)); written != id {
			f.t.Fatalf("git wrote %s, expected %s", written, id)
		}
		gittest.Git(f.t, f.dir, "update-ref", session.RefName(sessionName), id, tip.String())
		h := plumbing.NewHash(id)
		f.steps["twin"] = h
		return h
	}
	f.t.Fatal("no nonce gave the prefix")
	return plumbing.ZeroHash
}

// TestAttackEmptyAndMalformedTurnNames: "turn:" and "checkpoint:" with an
// empty or malformed name are refused (ErrBadLabel), never matched against
// the commits that carry no turn or are unnamed checkpoints, and neither
// is a bare name; undo of turn "" is refused the same way.
func TestAttackEmptyAndMalformedTurnNames(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e0", put("f.txt", "1\n")))
	cp, err := f.s.Checkpoint(context.Background(), "", false) // unnamed
	if err != nil {
		t.Fatal(err)
	}
	f.steps["cp"] = cp.Hash
	f.run(step{name: "t1", op: session.OpEdit, turn: "1", changes: []change{put("f.txt", "2\n")}},
		step{name: "t2", op: session.OpEdit, turn: "2", changes: []change{put("g.txt", "g2\n")}})
	tip := f.tip()
	for _, name := range []string{"turn:", "checkpoint:", "turn: 1", "turn:1 ", "turn:a\x00b", "checkpoint:a b", "checkpoint:" + strings.Repeat("x", 129)} {
		c, kind, err := undo.ResolveTo(f.s, tip, name)
		if !errors.Is(err, session.ErrBadLabel) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("ResolveTo(%q) = %s (%s), %v; want an ErrBadLabel refusal", name, f.name(c.Hash), kind, err)
		}
	}
	if c, _, err := undo.ResolveTo(f.s, tip, "turn:1"); err != nil || c.Hash != f.at("t1") {
		t.Fatalf("ResolveTo(turn:1) = %s, %v; want t1", f.name(c.Hash), err)
	}
	for _, turn := range []string{"", " 2", "\n"} {
		rs, err := undo.TurnReversals(f.s, tip, turn)
		if !errors.Is(err, session.ErrBadLabel) {
			t.Errorf("TurnReversals(%q) = %d reversals, %v; want an ErrBadLabel refusal", turn, len(rs), err)
		}
	}
}
