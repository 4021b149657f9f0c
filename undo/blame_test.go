package undo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
)

// blameOf renders undo.Blame of the working f.txt as one "text=who" per
// line, naming commits by the step that made them: "e1" for an agent
// line, "person:base" for a line of the commit the session started from,
// "person:s1" for a person line a sync recorded, "person:-" for one
// nowhere committed.
func (f *fixture) blameOf(path, rev string) string {
	f.t.Helper()
	lines, err := undo.Blame(context.Background(), f.s.Repo, path, rev, nil)
	if err != nil {
		f.t.Fatalf("blame %s: %v", path, err)
	}
	var out []string
	for i, l := range lines {
		if l.Line != i+1 {
			f.t.Fatalf("line %d numbered %d", i+1, l.Line)
		}
		who := "person:" + f.name(l.Commit)
		if l.Commit.IsZero() {
			who = "person:-"
		}
		if l.Agent {
			who = f.name(l.Commit)
			if l.Session != sessionName || l.Op != session.OpEdit || l.Tool != "test.edit" {
				f.t.Errorf("line %d: agent line of session %q op %q tool %q", l.Line, l.Session, l.Op, l.Tool)
			}
		}
		out = append(out, l.Text+"="+who)
	}
	return strings.Join(out, " ")
}

// TestBlameRestoredLines: lines an undo, redo, rollback or reject puts
// back are blamed on whoever wrote them before, not on the commit that
// put them back.
func TestBlameRestoredLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"edits", []step{
			edit("e1", put("f.txt", "0\na\nb\n")),
			edit("e2", put("f.txt", "0\na\nB\nc\n")),
		}, "0=person:base a=e1 B=e2 c=e2"},
		{"undo", []step{
			edit("e1", put("f.txt", "0\na\nb\n")),
			edit("e2", put("f.txt", "0\na\nB\nc\n")),
			undone("u1", "e2", put("f.txt", "0\na\nb\n")),
		}, "0=person:base a=e1 b=e1"},
		{"undo of an earlier edit", []step{
			edit("e1", put("f.txt", "0\na\nb\n")),
			edit("e2", put("f.txt", "0\na\nb\nc\n")),
			undone("u1", "e1", put("f.txt", "0\nc\n")),
		}, "0=person:base c=e2"},
		{"redo", []step{
			edit("e1", put("f.txt", "0\na\nb\n")),
			edit("e2", put("f.txt", "0\na\nB\nc\n")),
			undone("u1", "e2", put("f.txt", "0\na\nb\n")),
			redone("r1", "u1", put("f.txt", "0\na\nB\nc\n")),
		}, "0=person:base a=e1 B=e2 c=e2"},
		{"rollback", []step{
			edit("e1", put("f.txt", "0\na\nb\n")),
			edit("e2", put("f.txt", "0\nA\nb\nc\n")),
			edit("e3", put("f.txt", "0\nA\nb\nC\n")),
			rolledBack("rb", "e1", put("f.txt", "0\na\nb\n")),
		}, "0=person:base a=e1 b=e1"},
		{"rollback to a person's sync", []step{
			outside("s1", put("f.txt", "0\np\n")),
			edit("e1", put("f.txt", "0\nq\n")),
			rolledBack("rb", "start", put("f.txt", "0\np\n")),
		}, "0=person:base p=person:s1"},
		{"reject", []step{
			outside("s1", put("f.txt", "0\np\n")),
			edit("e1", put("f.txt", "0\nq\nr\n")),
			{name: "rj", op: "reject", changes: []change{put("f.txt", "0\np\nr\n")}},
		}, "0=person:base p=person:s1 r=e1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.run(tc.steps...)
			// The session's tip holds what is on disk.
			if got := f.blameOf("f.txt", ""); got != tc.want {
				t.Errorf("blame:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestBlameTwoSessions: a second session that finds the first one's
// lines on disk records them in a sync (the person's, for it); they stay
// the first session's, and the second's own edit is its own.
func TestBlameTwoSessions(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e1", put("f.txt", "0\na\nb\n")))
	other, err := session.New(f.s.Repo, "other")
	if err != nil {
		t.Fatal(err)
	}
	saved := f.s
	f.s = other
	f.pendingSync = "os"
	f.run(edit("o1", put("f.txt", "0\na\nB\nc\n")))
	f.s = saved
	lines, err := undo.Blame(context.Background(), f.s.Repo, "f.txt", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		got = append(got, fmt.Sprintf("%s=%s:%s:%v", l.Text, l.Session, f.name(l.Commit), l.Agent))
	}
	want := "0=:base:false a=h:e1:true B=other:o1:true c=other:o1:true"
	if strings.Join(got, " ") != want {
		t.Errorf("blame:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// One session only: the other's lines are then the person's, as its
	// sync recorded them.
	lines, err = undo.Blame(context.Background(), f.s.Repo, "f.txt", "", []string{"other"})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, l := range lines {
		got = append(got, fmt.Sprintf("%s=%s:%s:%v", l.Text, l.Session, f.name(l.Commit), l.Agent))
	}
	want = "0=:base:false a=other:os:false B=other:o1:true c=other:o1:true"
	if strings.Join(got, " ") != want {
		t.Errorf("blame --session other:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if _, err := undo.Blame(context.Background(), f.s.Repo, "f.txt", "", []string{"nope"}); !errors.Is(err, undo.ErrUnknownSession) {
		t.Errorf("unknown session: %v, want ErrUnknownSession", err)
	}
	gittest.Git(t, f.dir, "fsck", "--strict")
}

// who renders lines as "text=agent:<op>" or "text=person:<commit short>"
// ("person:-" for nowhere committed).
func who(lines []undo.LineOrigin) string {
	var out []string
	for _, l := range lines {
		switch {
		case l.Agent:
			out = append(out, l.Text+"=agent:"+l.Op)
		case l.Commit.IsZero():
			out = append(out, l.Text+"=person:-")
		default:
			out = append(out, l.Text+"=person:"+l.Commit.String()[:7])
		}
	}
	return strings.Join(out, " ")
}

// A file git converts (core.autocrlf: CRLF on disk, LF blobs): the
// working file is blamed in the form `git add` stores, so the session's
// LF blobs and the person's HEAD match it line for line.
func TestBlameConvertedFile(t *testing.T) {
	dir := convRepo(t, [][2]string{{"core.autocrlf", "true"}}, "", map[string][]byte{"c.txt": []byte("one\ntwo\n")})
	if got := readDisk(t, dir, "c.txt"); string(got) != "one\r\ntwo\r\n" {
		t.Fatalf("checked out as %q", got)
	}
	s := openSession(t, dir)
	write(t, s, "c.txt", []byte("one\r\nagent\r\ntwo\r\n"))
	head := gittest.Rev(t, dir, "HEAD")[:7]
	for _, rev := range []string{"", "refs/edits/s"} {
		lines, err := undo.Blame(context.Background(), s.Repo, "c.txt", rev, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := who(lines), "one=person:"+head+" agent=agent:edit two=person:"+head; got != want {
			t.Errorf("blame at %q:\n got %s\nwant %s", rev, got, want)
		}
	}
}

// A file the agent created (no HEAD history) and a session on an unborn
// branch (no commit before it): every line is the agent's or, changed on
// disk since, the person's, not committed.
func TestBlameNewFileAndUnbornBranch(t *testing.T) {
	dir := gittest.New(t)
	s := openSession(t, dir)
	write(t, s, "n.txt", []byte("a\nb\n"))
	gittest.WriteFile(t, dir, "n.txt", "a\nb\nperson\n")
	lines, err := undo.Blame(context.Background(), s.Repo, "n.txt", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := who(lines), "a=agent:edit b=agent:edit person=person:-"; got != want {
		t.Errorf("blame:\n got %s\nwant %s", got, want)
	}
	gittest.Fsck(t, dir)
}

// A session whose history is missing (a commit of it gone) does not hide
// the other sessions' lines; named, it fails the blame, saying so.
func TestBlameBrokenSession(t *testing.T) {
	f := newFixture(t)
	f.run(edit("e1", put("f.txt", "0\na\n")))
	tree := gittest.Rev(t, f.dir, f.at("e1").String()+"^{tree}")
	msg := "edit f.txt\n\nEdit-Op: edit\nEdit-Session: broken\nEdit-Path: f.txt\nEdit-Seq: 1 1\n"
	obj := fmt.Sprintf("tree %s\nparent %s\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\n%s", tree, strings.Repeat("1", 40), msg)
	id := strings.TrimSpace(gitIn(t, f.dir, obj, "hash-object", "-t", "commit", "-w", "--literally", "--stdin"))
	if err := os.MkdirAll(filepath.Join(f.dir, ".git", "refs", "edits"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, ".git", "refs", "edits", "broken"), []byte(id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := f.blameOf("f.txt", ""), "0=person:base a=e1"; got != want {
		t.Errorf("blame:\n got %s\nwant %s", got, want)
	}
	if _, err := undo.Blame(context.Background(), f.s.Repo, "f.txt", "", []string{"broken"}); !errors.Is(err, session.ErrBroken) {
		t.Errorf("blame --session broken: %v, want session.ErrBroken", err)
	}
}

// gitIn runs git in dir with stdin and returns its output.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// Blame while the agent edits: each answer is whole (a line per line of
// the file as read, each the agent's or the person's) and no blame fails;
// the edits are not disturbed.
func TestConcurrentBlameWhileEditing(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "base\n"})
	s := openSession(t, dir)
	rounds := 30
	if testing.Short() {
		rounds = 8
	}
	done := make(chan error, 1)
	go func() {
		content := "base\n"
		for i := range rounds {
			content += fmt.Sprintf("agent %d\n", i)
			_, err := applyTo(t, s, "f.txt", session.RecordOutside, func(*session.Tx) (session.Plan, error) {
				return session.Plan{Changes: []session.Change{{Path: "f.txt", Content: []byte(content)}}, Meta: session.Meta{Op: session.OpEdit, Tool: "test.edit"}}, nil
			})
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		lines, err := undo.Blame(context.Background(), r, "f.txt", "", nil)
		if err != nil {
			t.Fatalf("blame during edits: %v", err)
		}
		for i, l := range lines {
			want := i > 0 // the first line is the person's, every other one an edit's
			if l.Line != i+1 || l.Agent != want || (want && l.Text != fmt.Sprintf("agent %d", i-1)) {
				t.Fatalf("line %d: %+v", i+1, l)
			}
		}
	}
	lines, err := undo.Blame(context.Background(), r, "f.txt", "", nil)
	if err != nil || len(lines) != rounds+1 {
		t.Fatalf("final blame: %d lines, %v", len(lines), err)
	}
	gittest.Fsck(t, dir)
}

// An edit writes the file, then moves its ref: a blame at that moment
// (the pause point files-written) waits for the edit, under the edit lock
// taken shared, instead of reading the new line and the old history and
// calling the agent's line nobody's.
func TestConcurrentBlameBetweenFileAndRef(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "base\n"})
	s := openSession(t, dir)
	paused, resume := make(chan struct{}), make(chan struct{})
	var once bool
	restore := repo.SetPauseHook(func(point, _ string) {
		if point == "files-written" && !once {
			once = true
			close(paused)
			<-resume
		}
	})
	defer restore()
	edited := make(chan error, 1)
	go func() {
		_, err := applyTo(t, s, "f.txt", session.RecordOutside, func(*session.Tx) (session.Plan, error) {
			return session.Plan{Changes: []session.Change{{Path: "f.txt", Content: []byte("base\nagent\n")}}, Meta: session.Meta{Op: session.OpEdit, Tool: "test.edit"}}, nil
		})
		edited <- err
	}()
	<-paused
	if got := readDisk(t, dir, "f.txt"); string(got) != "base\nagent\n" {
		t.Fatalf("paused with %q on disk", got)
	}
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type result struct {
		lines []undo.LineOrigin
		err   error
	}
	blamed := make(chan result, 1)
	go func() {
		lines, err := undo.Blame(context.Background(), r, "f.txt", "", nil)
		blamed <- result{lines, err}
	}()
	var res result
	select {
	case res = <-blamed: // answered while the edit was half done
		close(resume)
	case <-time.After(2 * time.Second): // waiting for the edit, as it should
		close(resume)
		res = <-blamed
	}
	if err := <-edited; err != nil {
		t.Fatal(err)
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	if got, want := who(res.lines), "base=person:"+gittest.Rev(t, dir, "HEAD")[:7]+" agent=agent:edit"; got != want {
		t.Errorf("blame during the edit:\n got %s\nwant %s", got, want)
	}
}
