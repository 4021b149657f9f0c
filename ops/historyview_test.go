package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// Log over every session lists the newest commit first by instant, not by
// the text of its time: sessions written in different zones (or a commit
// given an odd zone by hand) must not sort as strings do. Each entry's JSON
// time is RFC 3339 in the zone git recorded, whatever that zone is.
func TestLogSortsSessionsByInstant(t *testing.T) {
	// Listed newest instant first; the texts of b, c and d sort before a's
	// or after it in other orders.
	sessions := []struct {
		name     string
		date     string // the committer date written into the session's commit
		wantJSON string
	}{
		{"a", "1767261600 +0000", `"2026-01-01T10:00:00Z"`},      // 10:00Z
		{"b", "1767258000 +0200", `"2026-01-01T11:00:00+02:00"`}, // 09:00Z
		{"c", "1767254400 +9959", `"2026-01-05T11:59:00+99:59"`}, // 08:00Z, a zone time.Time's MarshalJSON refuses
		{"d", "1767250800 -0700", `"2026-01-01T00:00:00-07:00"`}, // 07:00Z
	}
	dir := gittest.NewWithCommit(t, map[string]string{"base.txt": "base\n"})
	for _, s := range sessions {
		e, err := ops.Open(ops.Options{Root: dir, Session: s.name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		res, err := e.Call(context.Background(), "text_editor", []byte(`{"command":"create","path":"`+s.name+`.txt","file_text":"x\n"}`))
		if err != nil || !res.OK {
			t.Fatalf("session %s: %v %s", s.name, err, res.Text)
		}
		redate(t, dir, "refs/edits/"+s.name, s.date)
	}

	e, err := ops.Open(ops.Options{Root: dir, Session: "a"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	entries, err := e.Log(0, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(sessions) {
		t.Fatalf("%d entries, want one per session (%d): %+v", len(entries), len(sessions), entries)
	}
	for i, s := range sessions {
		en := entries[i]
		if en.Session != s.name {
			t.Fatalf("entry %d is session %s's, want %s's: newest first by instant", i, en.Session, s.name)
		}
		got, err := json.Marshal(en.Time)
		if err != nil {
			t.Fatalf("session %s: the time does not marshal: %v", s.name, err)
		}
		if string(got) != s.wantJSON {
			t.Errorf("session %s: JSON time %s, want %s", s.name, got, s.wantJSON)
		}
	}
}

// redate rewrites the commit ref points at with its committer date set to
// date (git's "<unix seconds> <zone>"), written as is with git hash-object
// --literally (git fsck would refuse an impossible zone), and moves ref to
// it.
func redate(t *testing.T, dir, ref, date string) {
	t.Helper()
	old := gittest.Rev(t, dir, ref)
	body := gittest.Git(t, dir, "cat-file", "commit", old)
	committer := regexp.MustCompile(`(?m)^(committer .*> )\d+ [+-]\d{4}$`)
	if !committer.MatchString(body) {
		t.Fatalf("no committer line in\n%s", body)
	}
	body = committer.ReplaceAllString(body, "${1}"+date)
	file := filepath.Join(t.TempDir(), "commit")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	hash := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-t", "commit", "-w", "--literally", file))
	gittest.Git(t, dir, "update-ref", ref, hash, old)
}
