package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 26: blame reads back attribution from a git-ai v3 note another
// tool wrote in refs/notes/ai (written here with git notes, in the
// standard's format): the lines the note gives an AI session are the
// agent's, named by the note's agent_id, at their place in the file now
// (a later commit moved them down); a known human's lines (h_ key) and
// lines no note attests stay the person's; a git-edit session's lines are
// its own; a note that is not a v3 log is passed by.
func TestBlameReadsOtherToolsNotes(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"x.txt": "x\n"})
	f := notesFixture{t, dir}
	f.write("f.txt", "l1\nl2\nl3\nl4\n")
	c1 := f.commit("c1, written with another tool")
	note := "f.txt\n  s_0123456789abcd::t_00000000000001 2\n  h_31dce776f88375 3\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + c1 + `","prompts":{},` +
		`"humans":{"h_31dce776f88375":{"author":"Dev <dev@example.com>"}},` +
		`"sessions":{"s_0123456789abcd":{"agent_id":{"tool":"cursor","id":"conv-1","model":"gpt-4"}}}}` + "\n"
	gittest.Git(t, dir, "notes", "--ref=ai", "add", "-m", note, c1)
	// A later commit moves every line down by one; its note is garbage.
	f.write("f.txt", "top\nl1\nl2\nl3\nl4\n")
	c2 := f.commit("c2")
	gittest.Git(t, dir, "notes", "--ref=ai", "add", "-m", "not a note of the standard", c2)
	// A git-edit session's edit, not committed.
	f.edit("s1", "model-one", "claude-code 2.1", "f.txt", "l4\\n", "l4\\ne1\\n")

	type line struct {
		Line                           int
		Kind, Session, Op, Tool, Model string
		Commit                         string
	}
	check := func(args ...string) {
		t.Helper()
		r := gitEdit(t, dir, "", nil, append([]string{"blame", "--json"}, args...)...)
		if r.code != 0 {
			t.Fatalf("blame %v: %d %s", args, r.code, r.stderr)
		}
		var got []line
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, l := range got {
			who := l.Kind + " " + l.Commit[:7]
			if l.Kind == "agent" {
				who = l.Kind + " " + l.Session + " " + l.Op + " " + l.Tool + " " + l.Model
			}
			b.WriteString(who + "\n")
		}
		want := "person " + c2[:7] + "\nperson " + c1[:7] + "\nagent conv-1 note cursor gpt-4\nperson " + c1[:7] + "\nperson " + c1[:7] + "\n"
		if len(args) == 1 {
			want += "agent s1 edit text_editor.str_replace model-one\n"
		}
		if b.String() != want {
			t.Fatalf("blame %v:\n%s\nwant:\n%s", args, b.String(), want)
		}
	}
	check("f.txt")
	check("f.txt", "HEAD")
}

// Another tool's note is read for the working file as for HEAD when the
// file has CRLF line endings or no final newline: git blame names the
// note's commit and the line's number there in both cases.
func TestBlameReadsNotesOfCRLFAndUnterminatedFiles(t *testing.T) {
	for _, tc := range []struct{ name, content, line string }{
		{"crlf", "a\r\nb\r\nc\r\n", "2"},
		{"no final newline", "a\nb\nc", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"f.txt": tc.content})
			note := "f.txt\n  s_abc::t_def " + tc.line + "\n---\n" +
				`{"schema_version":"authorship/3.0.0","base_commit_sha":"x","sessions":{"s_abc":{"agent_id":{"tool":"cursor","id":"abc","model":"m"}}},"humans":{}}`
			gittest.Git(t, dir, "notes", "--ref=ai", "add", "-m", note, "HEAD")
			atHead := gitEdit(t, dir, "", nil, "blame", "f.txt", "HEAD")
			working := gitEdit(t, dir, "", nil, "blame", "f.txt")
			if atHead.code != 0 || working.code != 0 {
				t.Fatalf("blame: %d %s / %d %s", atHead.code, atHead.stderr, working.code, working.stderr)
			}
			var agentLines []string
			for i, l := range strings.Split(strings.TrimSuffix(atHead.stdout, "\n"), "\n") {
				if strings.Contains(l, "(agent abc cursor") {
					agentLines = append(agentLines, strconv.Itoa(i+1))
				}
			}
			if strings.Join(agentLines, ",") != tc.line {
				t.Fatalf("blame at HEAD gives the note's agent lines %v, want %s:\n%s", agentLines, tc.line, atHead.stdout)
			}
			if working.stdout != atHead.stdout {
				t.Errorf("blame of the unchanged working file differs from blame at HEAD:\nworking:\n%s\nHEAD:\n%s", working.stdout, atHead.stdout)
			}
		})
	}
}
