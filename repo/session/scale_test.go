package session_test

import (
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
