package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/undo/gitai"
)

// notesFixture drives a repository through the CLI: agent edits by call,
// the person's by writing files, commits by git.
type notesFixture struct {
	t   *testing.T
	dir string
}

// edit replaces old by new in path as session s with the given model and
// agent, and returns the edit commit's id.
func (f notesFixture) edit(s, model, agent, path, old, new string) string {
	f.t.Helper()
	args := `{"command":"str_replace","path":"` + path + `","old_str":"` + old + `","new_str":"` + new + `"}`
	if r := gitEdit(f.t, f.dir, args, nil, "call", "--session", s, "--model", model, "--agent", agent, "text_editor"); r.code != 0 {
		f.t.Fatalf("edit: %d %s %s", r.code, r.stdout, r.stderr)
	}
	return strings.TrimSpace(gittest.Git(f.t, f.dir, "rev-parse", "refs/edits/"+s))
}

func (f notesFixture) write(path, content string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, path), []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f notesFixture) commit(msg string) string {
	f.t.Helper()
	gittest.Git(f.t, f.dir, "add", "-A")
	gittest.Git(f.t, f.dir, "commit", "-q", "-m", msg)
	return strings.TrimSpace(gittest.Git(f.t, f.dir, "rev-parse", "HEAD"))
}

// wantNote is the note git-edit must write: files is the attestation
// section, sessions the JSON of metadata.sessions' entries, in key order.
func wantNote(commit, files string, sessions ...string) string {
	s := "{}"
	if len(sessions) > 0 {
		s = "{\n" + strings.Join(sessions, ",\n") + "\n  }"
	}
	return files + "---\n{\n  \"schema_version\": \"authorship/3.0.0\",\n  \"base_commit_sha\": \"" + commit + "\",\n  \"prompts\": {},\n  \"humans\": {},\n  \"sessions\": " + s + "\n}\n"
}

func sessionJSON(tool, name, model string) string {
	return "    \"" + gitai.SessionKey(tool, name) + "\": {\n      \"agent_id\": {\n        \"tool\": \"" + tool + "\",\n        \"id\": \"" + name + "\",\n        \"model\": \"" + model + "\"\n      }\n    }"
}

func key(tool, session, edit string) string {
	return gitai.SessionKey(tool, session) + "::t_" + edit[:14]
}

// Issue 26: `git edit notes` writes the Git AI v3 note of a commit, of a
// squash of three commits and of each commit of a rebased branch, with
// the lines each session wrote (the commit's added lines, attributed by
// blame) — exact note text; --dry-run prints the same notes and writes
// nothing; the notes written are read back by git.
func TestNotesCommitSquashRebase(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "p1\np2\np3\n", "g.txt": "g1\n"})
	f := notesFixture{t, dir}
	base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))

	// One commit: an agent edit (two lines) and the person's line.
	e1 := f.edit("s1", "model-one", "claude-code 2.1", "f.txt", "p1\\n", "p1\\nx1\\nx2\\n")
	f.write("f.txt", "p1\nx1\nx2\np2\np3\nh1\n")
	c1 := f.commit("c1")
	note1 := wantNote(c1, "f.txt\n  "+key("claude-code", "s1", e1)+" 2-3\n", sessionJSON("claude-code", "s1", "model-one"))
	r := gitEdit(t, dir, "", nil, "notes", "--dry-run")
	if r.code != 0 || r.stdout != "commit "+c1+"\n"+note1 {
		t.Fatalf("notes --dry-run: %d %s\n%s\nwant:\n%s", r.code, r.stderr, r.stdout, note1)
	}
	if _, err := exec0(t, dir, "rev-parse", "--verify", "-q", "refs/notes/ai"); err == nil {
		t.Fatal("--dry-run wrote refs/notes/ai")
	}
	r = gitEdit(t, dir, "", nil, "notes")
	if r.code != 0 || r.stdout != c1[:12]+": note written to refs/notes/ai (2 of 3 added lines by agents)\n" {
		t.Fatalf("notes: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if got := gittest.Git(t, dir, "notes", "--ref=ai", "show", c1); got != note1 {
		t.Fatalf("git notes show:\n%s\nwant:\n%s", got, note1)
	}

	// Two more commits, then the three squashed into one.
	e2 := f.edit("s2", "model-two", "codex 0.5", "f.txt", "p3\\n", "p3\\ny1\\n")
	f.commit("c2")
	e3 := f.edit("s1", "model-three", "claude-code 2.1", "f.txt", "x2\\n", "x2\\nz1\\n")
	f.commit("c3")
	gittest.Git(t, dir, "reset", "-q", "--soft", base)
	sq := f.commit("squashed")
	// f.txt at sq: p1 x1 x2 z1 p2 p3 y1 h1; s1's newest model wins.
	noteSq := wantNote(sq, "f.txt\n  "+key("claude-code", "s1", e1)+" 2-3\n  "+key("claude-code", "s1", e3)+" 4\n  "+key("codex", "s2", e2)+" 7\n",
		sessionJSON("claude-code", "s1", "model-three"), sessionJSON("codex", "s2", "model-two"))
	if gitai.SessionKey("claude-code", "s1") > gitai.SessionKey("codex", "s2") {
		noteSq = wantNote(sq, "f.txt\n  "+key("claude-code", "s1", e1)+" 2-3\n  "+key("claude-code", "s1", e3)+" 4\n  "+key("codex", "s2", e2)+" 7\n",
			sessionJSON("codex", "s2", "model-two"), sessionJSON("claude-code", "s1", "model-three"))
	}
	if r := gitEdit(t, dir, "", nil, "notes", "HEAD"); r.code != 0 {
		t.Fatalf("notes of the squash: %d %s", r.code, r.stderr)
	}
	if got := gittest.Git(t, dir, "notes", "--ref=ai", "show", sq); got != noteSq {
		t.Fatalf("note of the squash:\n%s\nwant:\n%s", got, noteSq)
	}

	// A branch of two commits rebased onto a new commit of main: the
	// notes of the rebased commits are rebuilt from content.
	gittest.Git(t, dir, "checkout", "-q", "-b", "feature")
	e4 := f.edit("s2", "model-two", "codex 0.5", "g.txt", "g1\\n", "g0\\ng1\\n")
	f4 := f.commit("f4")
	f.write("g.txt", "g0\ng1\ng2\n")
	e5 := f.edit("s2", "model-two", "codex 0.5", "g.txt", "g2\\n", "g2\\ng3\\n")
	f.commit("f5")
	gittest.Git(t, dir, "checkout", "-q", "-")
	f.write("h.txt", "main\n")
	f.commit("m1")
	gittest.Git(t, dir, "checkout", "-q", "feature")
	gittest.Git(t, dir, "rebase", "-q", "main")
	if strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1")) == f4 {
		t.Fatal("the rebase kept the commit ids")
	}
	r = gitEdit(t, dir, "", nil, "notes", "--dry-run", "main..feature")
	r4, r5 := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1")), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	want := "commit " + r4 + "\n" + wantNote(r4, "g.txt\n  "+key("codex", "s2", e4)+" 1\n", sessionJSON("codex", "s2", "model-two")) +
		"commit " + r5 + "\n" + wantNote(r5, "g.txt\n  "+key("codex", "s2", e5)+" 4\n", sessionJSON("codex", "s2", "model-two"))
	if r.code != 0 || r.stdout != want {
		t.Fatalf("notes of the rebased branch: %d %s\n%s\nwant:\n%s", r.code, r.stderr, r.stdout, want)
	}
	// (g2, the person's line of f5, is left unattested.)
	if out := gittest.Git(t, dir, "fsck", "--strict"); strings.Contains(out, "error") {
		t.Fatal(out)
	}
}

// exec0 runs git in dir and returns its output and error (gittest.Git
// fails the test on an error; here an error is the answer).
func exec0(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A note another tool wrote in refs/notes/ai is kept: `git edit notes`
// warns, naming the commit and how to replace it, and writes nothing;
// --force replaces it. A note equal to git-edit's is left as it is (no new
// commit of refs/notes/ai), and git-edit's own earlier note, now stale, is
// replaced without --force.
func TestNotesKeepAnotherToolsNote(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "a\n"})
	f := notesFixture{t, dir}
	f.write("f.txt", "a\nb\n")
	c := f.commit("cursor wrote b")
	theirs := "f.txt\n  s_abc::t_def 2\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + c + `","sessions":{"s_abc":{"agent_id":{"tool":"cursor","id":"abc","model":"m"}}},"humans":{}}` + "\n"
	gittest.Git(t, dir, "notes", "--ref=ai", "add", "-m", theirs, c)
	notesLog := func() string { return gittest.Git(t, dir, "log", "--format=%H", "refs/notes/ai") }
	before, beforeLog := gittest.Git(t, dir, "notes", "--ref=ai", "show", c), notesLog()

	r := gitEdit(t, dir, "", nil, "notes", "HEAD")
	wantWarn := "warning: " + c[:12] + ": refs/notes/ai holds another tool's note for this commit; kept it, nothing written. See it with `git notes --ref=ai show " + c[:12] + "`; replace it with git-edit's with `git edit notes --force " + c[:12] + "`\n"
	if r.code != 0 || r.stdout != "" || r.stderr != wantWarn {
		t.Fatalf("notes over another tool's note: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if after := gittest.Git(t, dir, "notes", "--ref=ai", "show", c); after != before || notesLog() != beforeLog {
		t.Fatalf("another tool's note changed:\n%s\nwant:\n%s", after, before)
	}

	r = gitEdit(t, dir, "", nil, "notes", "--force", "HEAD")
	if r.code != 0 || r.stdout != c[:12]+": note written to refs/notes/ai (0 of 1 added lines by agents)\n" {
		t.Fatalf("notes --force: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got, want := gittest.Git(t, dir, "notes", "--ref=ai", "show", c), wantNote(c, ""); got != want {
		t.Fatalf("note after --force:\n%s\nwant:\n%s", got, want)
	}

	// Again: the note is already this one; refs/notes/ai does not move.
	forcedLog := notesLog()
	r = gitEdit(t, dir, "", nil, "notes", "HEAD")
	if r.code != 0 || r.stdout != c[:12]+": note in refs/notes/ai already up to date (0 of 1 added lines by agents)\n" || notesLog() != forcedLog {
		t.Fatalf("notes again: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// git-edit's own note, stale (a session's range changed by hand), is
	// replaced without --force.
	e1 := f.edit("s1", "model-one", "claude-code 2.1", "f.txt", "b\\n", "b\\nx1\\nx2\\n")
	c2 := f.commit("c2")
	own := wantNote(c2, "f.txt\n  "+key("claude-code", "s1", e1)+" 3-4\n", sessionJSON("claude-code", "s1", "model-one"))
	stale := strings.Replace(own, " 3-4\n", " 3\n", 1)
	gittest.Git(t, dir, "notes", "--ref=ai", "add", "-m", stale, c2)
	r = gitEdit(t, dir, "", nil, "notes", "HEAD")
	if r.code != 0 || r.stdout != c2[:12]+": note written to refs/notes/ai (2 of 2 added lines by agents)\n" || r.stderr != "" {
		t.Fatalf("notes over git-edit's stale note: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := gittest.Git(t, dir, "notes", "--ref=ai", "show", c2); got != own {
		t.Fatalf("note:\n%s\nwant:\n%s", got, own)
	}
	gittest.Fsck(t, dir)
}
