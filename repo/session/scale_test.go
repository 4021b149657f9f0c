package session_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// TestPackedSessionsReadPackedRefsOnce: listing 300 packed sessions (and
// reading each one's tip) parses packed-refs once, not once per session;
// a command on one named session does not read the others.
func TestPackedSessionsReadPackedRefsOnce(t *testing.T) {
	const n = 300
	dir := packedSessions(t, n)
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sums, err := session.List(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != n {
		t.Fatalf("listed %d sessions, want %d", len(sums), n)
	}
	if sums[0].Name != "s0" || sums[0].Commits != 1 {
		t.Errorf("s0: %+v, want 1 commit", sums[0])
	}
	if got := r.PackedRefsReads(); got != 1 {
		t.Errorf("listing %d packed sessions parsed packed-refs %d times, want 1", n, got)
	}
	// The file replaced (git pack-refs again, after a new ref): read anew.
	gittest.Git(t, dir, "update-ref", "refs/edits/new", gittest.Rev(t, dir, "HEAD"))
	gittest.Git(t, dir, "pack-refs", "--all")
	if h, err := r.ReadRef("refs/edits/new"); err != nil || h.String() != gittest.Rev(t, dir, "HEAD") {
		t.Errorf("a ref packed after the cache was filled reads %v, %v", h, err)
	}
	gittest.Git(t, dir, "update-ref", "-d", "refs/edits/new")
	if h, err := r.ReadRef("refs/edits/new"); err != nil || !h.IsZero() {
		t.Errorf("a packed ref deleted after the cache was filled reads %v, %v", h, err)
	}
	if got := r.PackedRefsReads(); got != 3 {
		t.Errorf("packed-refs parsed %d times after two rewrites, want 3", got)
	}

	r2, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := session.Exists(r2, "s7"); err != nil || !ok {
		t.Errorf("Exists(s7) = %v, %v", ok, err)
	}
	if ok, err := session.Exists(r2, "nope"); err != nil || ok {
		t.Errorf("Exists(nope) = %v, %v", ok, err)
	}
}

// TestAttackSessionRefNamesATag: a session ref naming an annotated tag
// (what a push or fetch of a tag into refs/edits/ leaves), or a tree, is
// reported as naming that object, not as a missing commit; questions over
// all sessions leave it out instead of failing; sessions lists it as
// broken with how to remove it, and prune removes it.
func TestAttackSessionRefNamesATag(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "0\n"})
	r, a := open(t, dir, "a")
	if _, err := a.Apply(context.Background(), resolve(t, r, dir, "f.txt"), session.RecordOutside, setContent("t", map[string]string{"f.txt": "1\n"})); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "tag", "-a", "-m", "release", "v1", "HEAD")
	tag := gittest.Rev(t, dir, "refs/tags/v1")
	tree := gittest.Rev(t, dir, "HEAD^{tree}")
	gittest.Git(t, dir, "update-ref", "refs/edits/t", tag)
	gittest.Git(t, dir, "update-ref", "refs/edits/u", tree)
	before := gittest.Snapshot(t, dir)

	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"t": "refs/edits/t names a tag (object " + tag + "), not a commit", "u": "refs/edits/u names a tree (object " + tree + ")"} {
		s, _ := session.New(r, name)
		_, err := s.Tip()
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "missing") {
			t.Errorf("Tip of %s: %v; want it to say %q", name, err, want)
		}
	}
	all, err := session.All(r)
	if err != nil {
		t.Fatalf("All failed because of one ref: %v", err)
	}
	if len(all) != 1 || all[0].Name != "a" {
		t.Errorf("All = %v, want only a", all)
	}
	sums, err := session.List(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 3 || sums[0].Commits != 1 || sums[1].Broken == nil || sums[1].Broken.Type != "tag" || sums[2].Broken == nil || sums[2].Broken.Type != "tree" {
		t.Fatalf("List = %+v; want a with 1 commit, t and u broken (tag, tree)", sums)
	}
	if msg := sums[1].Broken.Error(); !strings.Contains(msg, "git edit prune --session t") {
		t.Errorf("the report does not say how to remove it: %s", msg)
	}
	if after := gittest.Snapshot(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("reading changed the repository")
	}
	res, err := session.Prune(context.Background(), r, session.PruneOptions{Sessions: []string{"t", "u"}})
	if err != nil || len(res.Pruned) != 2 {
		t.Fatalf("prune: %+v, %v", res, err)
	}
	if out := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); strings.Contains(out, "refs/edits/t") || !strings.Contains(out, "refs/edits/a") {
		t.Errorf("refs after prune:\n%s", out)
	}
	gittest.Git(t, dir, "fsck", "--strict")
}
