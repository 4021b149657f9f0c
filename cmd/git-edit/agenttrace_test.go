package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 26: `git edit blame --format=agent-trace [REV|A..B]` prints one
// Agent Trace record per commit, one JSON object per line; a bad format
// is refused, saying which exists.
func TestBlameFormatAgentTrace(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "p1\n"})
	f := notesFixture{t, dir}
	f.edit("s1", "model-one", "claude-code 2.1", "f.txt", "p1\\n", "p1\\na1\\n")
	c1 := f.commit("c1")
	f.write("f.txt", "p1\na1\nh1\n")
	c2 := f.commit("c2")
	r := gitEdit(t, dir, "", nil, "blame", "--format=agent-trace", "HEAD~2..HEAD")
	if r.code != 0 {
		t.Fatalf("%d %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one record per commit of the range (2), got:\n%s", r.stdout)
	}
	var recs [2]struct {
		VCS   struct{ Revision string }
		Files []struct {
			Path          string
			Conversations []struct {
				Contributor struct {
					Type    string
					ModelID string `json:"model_id"`
				}
				Ranges []struct {
					StartLine int `json:"start_line"`
					EndLine   int `json:"end_line"`
				}
			}
		}
	}
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if recs[0].VCS.Revision != c1 || recs[1].VCS.Revision != c2 {
		t.Fatalf("revisions %s %s, want %s %s", recs[0].VCS.Revision, recs[1].VCS.Revision, c1, c2)
	}
	if c := recs[0].Files[0].Conversations; len(c) != 1 || c[0].Contributor.Type != "ai" || c[0].Contributor.ModelID != "model-one" {
		t.Fatalf("c1's conversations: %+v", c)
	}
	if c := recs[1].Files[0].Conversations; len(c) != 1 || c[0].Contributor.Type != "human" {
		t.Fatalf("c2's conversations: %+v", c)
	}
	if r := gitEdit(t, dir, "", nil, "blame", "--format=agent-trace", "--stat"); r.code == 0 || !strings.Contains(r.stderr, "no --stat") {
		t.Fatalf("--stat with agent-trace: %d %s", r.code, r.stderr)
	}
	r = gitEdit(t, dir, "", nil, "blame", "--format=trace")
	if r.code == 0 || !strings.Contains(r.stderr, "agent-trace") {
		t.Fatalf("bad format: %d %s", r.code, r.stderr)
	}
}
