package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// person is a clone of the team's repository owned by one person (their
// user.email), where `git edit` runs as they type it.
type person struct {
	t     *testing.T
	dir   string
	email string
}

// clonePerson clones url into a new directory as the person with email.
func clonePerson(t *testing.T, url, email string) *person {
	t.Helper()
	dir := filepath.Join(t.TempDir(), strings.Split(email, "@")[0])
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", url, dir)
	gittest.Git(t, dir, "config", "user.email", email)
	gittest.Git(t, dir, "config", "user.name", strings.Split(email, "@")[0])
	return &person{t: t, dir: dir, email: email}
}

// run is `git edit args…` in the person's clone; it fails the test
// unless the exit status is code.
func (p *person) run(code int, stdin string, args ...string) cliResult {
	p.t.Helper()
	r := gitEdit(p.t, p.dir, stdin, nil, args...)
	if r.code != code {
		p.t.Fatalf("git edit %s: exit %d, want %d\nstdout %s\nstderr %s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
	return r
}

// edit makes one str_replace edit of path in session s, as an agent does.
func (p *person) edit(s, path, old, new string) {
	p.t.Helper()
	in, _ := json.Marshal(map[string]string{"command": "str_replace", "path": path, "old_str": old, "new_str": new})
	p.run(0, string(in), "call", "--session", s, "text_editor")
}

// create makes path with content in session s, as an agent does.
func (p *person) create(s, path, content string) {
	p.t.Helper()
	in, _ := json.Marshal(map[string]string{"command": "create", "path": path, "file_text": content})
	p.run(0, string(in), "call", "--session", s, "text_editor")
}

// refs is every ref of the clone with its value: what a refusal must not
// change.
func (p *person) refs() string {
	p.t.Helper()
	return gittest.Git(p.t, p.dir, "for-each-ref", "--format=%(objectname) %(refname)")
}

// servers are the two kinds of git server the sharing tests run against,
// both on loopback and started by the test: git daemon, and git's smart
// HTTP behind net/http/cgi.
var servers = []struct {
	name  string
	serve func(testing.TB) *gittest.Server
}{
	{"daemon", gittest.ServeDaemon},
	{"http", gittest.ServeHTTP},
}

// teamRepo starts a server with a team repository holding app.py on main,
// pushed by its first person, alice.
func teamRepo(t *testing.T, serve func(testing.TB) *gittest.Server) (*gittest.Server, string, *person) {
	t.Helper()
	srv := serve(t)
	url := srv.NewBare(t, "team.git")
	alice := clonePerson(t, url, "alice@example.com")
	gittest.Commit(t, alice.dir, map[string]string{"app.py": "def main():\n    print(\"hello\")\n"})
	gittest.Git(t, alice.dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	return srv, url, alice
}

// Two people, two clones, three sessions, over both servers: alice pushes
// two sessions and bob one, each under their own owner; each fetches the
// other's, reads them with every history command by
// <remote>/<owner>/<session>, and no writing command touches a fetched
// copy. A second push is a fast forward; a session begun again under an
// old name is refused as not one; prune --remote deletes on the server
// only what it says.
func TestShareTwoPeopleThreeSessions(t *testing.T) {
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			srv, url, alice := teamRepo(t, sv.serve)
			alice.edit("s1", "app.py", "hello", "hello, world")
			alice.create("s2", "util.py", "def add(a, b):\n    return a + b\n")
			out := alice.run(0, "", "push", "--all").stdout
			for _, want := range []string{
				"pushed s1 to origin as refs/edits/alice@example.com/s1 (new, ",
				"pushed s2 to origin as refs/edits/alice@example.com/s2 (new, ",
			} {
				if !strings.Contains(out, want) {
					t.Fatalf("push --all printed\n%s\nwant a line with %q", out, want)
				}
			}
			server := srv.Refs(t, "team.git")
			for _, s := range []string{"s1", "s2"} {
				want := gittest.Rev(t, alice.dir, "refs/edits/"+s) + " refs/edits/alice@example.com/" + s
				if !strings.Contains(server, want) {
					t.Fatalf("server refs\n%s\nwant %q", server, want)
				}
			}

			bob := clonePerson(t, url, "bob@example.com")
			bob.edit("b1", "app.py", "def main", "def run")
			bob.run(0, "", "push", "--session", "b1")
			out = bob.run(0, "", "fetch").stdout
			for _, want := range []string{"new session origin/alice@example.com/s1 (", "new session origin/alice@example.com/s2 (", "new session origin/bob@example.com/b1 ("} {
				if !strings.Contains(out, want) {
					t.Fatalf("fetch printed\n%s\nwant %q", out, want)
				}
			}
			alice.run(0, "", "fetch")

			// Every history command reads a fetched session by name.
			s1 := "origin/alice@example.com/s1"
			sessions := bob.run(0, "", "sessions").stdout
			if !strings.Contains(sessions, s1+"  1 commit (1 edit)  1 path") || !strings.HasPrefix(sessions, "b1 ") || strings.Count(sessions, "1 commit (1 edit)") != 4 {
				t.Fatalf("sessions\n%s", sessions)
			}
			log := bob.run(0, "", "log", "--session", s1).stdout
			if !strings.Contains(log, "text_editor.str_replace  +1 -1  app.py") {
				t.Fatalf("log --session %s:\n%s", s1, log)
			}
			commit := gittest.Rev(t, bob.dir, "refs/edits-remote/"+s1)
			show := bob.run(0, "", "show", "--session", s1, commit[:12]).stdout
			if !strings.Contains(show, "+    print(\"hello, world\")") {
				t.Fatalf("show:\n%s", show)
			}
			diff := bob.run(0, "", "diff", "--session", s1).stdout
			if !strings.Contains(diff, "+    print(\"hello, world\")") {
				t.Fatalf("diff --session %s:\n%s", s1, diff)
			}
			lines := alice.run(0, "", "log", "--session", "origin/bob@example.com/b1").stdout
			if !strings.Contains(lines, "app.py") {
				t.Fatalf("alice's log of bob's session:\n%s", lines)
			}

			// No writing command writes a fetched session: each is
			// refused, saying why, with files and refs as they were.
			before, files := bob.refs(), gittest.ReadFile(t, bob.dir, "app.py")
			in, _ := json.Marshal(map[string]string{"command": "str_replace", "path": "app.py", "old_str": "run", "new_str": "go"})
			for _, args := range [][]string{
				{"call", "--session", s1, "text_editor"},
				{"undo", "--session", s1},
				{"rollback", "--session", s1},
				{"undo", "--session", s1, "app.py"},
				{"checkpoint", "--session", s1, "cp"},
				{"record", "--session", s1, "--message", "x", "app.py"},
			} {
				r := gitEdit(t, bob.dir, string(in), nil, args...)
				if r.code == 0 || !strings.Contains(r.stderr, "fetched session is read-only") {
					t.Errorf("git edit %v on a fetched session: exit %d, stderr %q; want a refusal saying it is read-only", args, r.code, r.stderr)
				}
			}
			if bob.refs() != before || gittest.ReadFile(t, bob.dir, "app.py") != files {
				t.Fatalf("a refused write to a fetched session changed refs or files")
			}

			// A second push of a session that went on is a fast forward.
			alice.edit("s1", "app.py", "hello, world", "hello, team")
			out = alice.run(0, "", "push", "--session", "s1", "--session", "s2").stdout
			if !strings.Contains(out, "pushed s1 to origin as refs/edits/alice@example.com/s1 (from ") || !strings.Contains(out, "s2: up to date on origin") {
				t.Fatalf("second push printed\n%s", out)
			}
			out = bob.run(0, "", "fetch").stdout
			if !strings.Contains(out, "updated "+s1+": ") {
				t.Fatalf("second fetch printed\n%s", out)
			}

			// alice prunes s1 and begins again under the same name: the
			// server's s1 is no ancestor, and the push is refused.
			alice.run(0, "", "prune", "--session", "s1")
			alice.edit("s1", "app.py", "hello, team", "hi")
			server, local := srv.Refs(t, "team.git"), alice.refs()
			r := alice.run(1, "", "push", "--session", "s1")
			for _, want := range []string{"has commits this session does not", "nothing was pushed", "git config edit.owner NAME", "git edit prune --remote --session origin/alice@example.com/SESSION"} {
				if !strings.Contains(r.stderr, want) {
					t.Fatalf("non-fast-forward push: stderr %q, want %q", r.stderr, want)
				}
			}
			if srv.Refs(t, "team.git") != server || alice.refs() != local {
				t.Fatalf("a refused push changed refs")
			}

			// prune --remote of a fetched session says what it deletes,
			// deletes it on the server and the copy here; the others stay.
			s2 := "origin/alice@example.com/s2"
			out = bob.run(0, "", "prune", "--session", s2, "--remote").stdout
			if want := "deleting refs/edits/alice@example.com/s2 on origin (it names "; !strings.HasPrefix(out, want) {
				t.Fatalf("prune --remote printed %q, want it to start %q", out, want)
			}
			server = srv.Refs(t, "team.git")
			if strings.Contains(server, "refs/edits/alice@example.com/s2") || !strings.Contains(server, "refs/edits/alice@example.com/s1") {
				t.Fatalf("server refs after prune --remote of s2:\n%s", server)
			}
			if _, err := gittest.GitErr(bob.dir, "rev-parse", "--verify", "-q", "refs/edits-remote/"+s2); err == nil {
				t.Fatalf("the copy of %s is still here", s2)
			}
			// Without --remote only the copy goes; the server keeps it.
			bob.run(0, "", "prune", "--session", s1)
			if !strings.Contains(srv.Refs(t, "team.git"), "refs/edits/alice@example.com/s1") {
				t.Fatalf("prune without --remote deleted on the server")
			}
			gittest.Fsck(t, alice.dir)
			gittest.Fsck(t, bob.dir)
			gittest.Fsck(t, srv.Path("team.git"))
		})
	}
}

// A branch written by an agent's session is squash-merged by another
// person; a reviewer who fetched the session sees, with blame --stat of
// the merge, the agent's lines attributed to it, and blame of the file
// names the session line by line.
func TestBlameOfSquashMergedBranchAttributesFetchedSession(t *testing.T) {
	_, url, alice := teamRepo(t, gittest.ServeDaemon)
	gittest.Git(t, alice.dir, "checkout", "-q", "-b", "feature")
	alice.create("s1", "calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
	gittest.WriteFile(t, alice.dir, "notes.txt", "written by alice\n")
	gittest.Git(t, alice.dir, "add", "calc.py", "notes.txt")
	gittest.Git(t, alice.dir, "commit", "-q", "-m", "feature: calc")
	gittest.Git(t, alice.dir, "commit", "-q", "--allow-empty", "-m", "second commit")
	gittest.Git(t, alice.dir, "push", "-q", "origin", "feature")
	alice.run(0, "", "push", "--session", "s1")

	bob := clonePerson(t, url, "bob@example.com")
	gittest.Git(t, bob.dir, "fetch", "-q", "origin")
	gittest.Git(t, bob.dir, "merge", "-q", "--squash", "origin/feature")
	gittest.Git(t, bob.dir, "commit", "-q", "-m", "squash: calc")
	bob.run(0, "", "fetch")
	var st struct {
		Files []struct {
			Path     string         `json:"path"`
			Added    int            `json:"added"`
			Agent    int            `json:"agent"`
			Person   int            `json:"person"`
			Sessions map[string]int `json:"sessions"`
		} `json:"files"`
	}
	out := bob.run(0, "", "blame", "--stat", "--json", "HEAD~1..HEAD").stdout
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("blame --stat --json: %v\n%s", err, out)
	}
	got := fmt.Sprint(st.Files)
	want := "[{calc.py 6 6 0 map[origin/alice@example.com/s1:6]} {notes.txt 1 0 1 map[]}]"
	if got != want {
		t.Fatalf("blame --stat of the squash merge: %s, want %s\n%s", got, want, out)
	}
	lines := bob.run(0, "", "blame", "calc.py").stdout
	if strings.Count(lines, "origin/alice@example.com/s1") != 6 {
		t.Fatalf("blame calc.py:\n%s", lines)
	}
}

// A session pushed and fetched back claims its lines twice, with the same
// commits: blame names the own session, not its copy.
func TestBlamePrefersOwnSessionToItsFetchedCopy(t *testing.T) {
	_, _, alice := teamRepo(t, gittest.ServeDaemon)
	alice.edit("s1", "app.py", "hello", "hello, world")
	alice.run(0, "", "push", "--session", "s1")
	alice.run(0, "", "fetch")
	lines := alice.run(0, "", "blame", "app.py").stdout
	if strings.Contains(lines, "origin/") || !strings.Contains(lines, "s1") {
		t.Fatalf("blame app.py names the fetched copy, not the own session:\n%s", lines)
	}
}

// The server refuses a ref (push protection, as a pre-receive hook): the
// push fails saying what the server said, the server's refs are as they
// were, and nothing changed here; a server without atomic pushes still
// takes a push, which says so.
func TestPushRefusedByServerChangesNothing(t *testing.T) {
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			srv, _, alice := teamRepo(t, sv.serve)
			srv.RejectRefs(t, "team.git", "refs/edits/*/blocked*", "push protection: this ref is blocked")
			alice.edit("ok", "app.py", "hello", "hello, world")
			alice.create("blocked", "b.py", "x = 1\n")
			server, local := srv.Refs(t, "team.git"), alice.refs()
			files := gittest.TreeSnapshot(t, alice.dir)
			r := alice.run(1, "", "push", "--all")
			for _, want := range []string{"git push failed to origin", "push protection: this ref is blocked", "pre-receive hook declined", "the server took nothing", "Nothing changed in this repository"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("refused push: stderr %q, want %q", r.stderr, want)
				}
			}
			if srv.Refs(t, "team.git") != server || alice.refs() != local {
				t.Fatalf("a push the server refused changed refs:\nserver %s\nlocal %s", srv.Refs(t, "team.git"), alice.refs())
			}
			if d := gittest.TreeDiff(files, gittest.TreeSnapshot(t, alice.dir)); d != "" {
				t.Fatalf("a refused push changed files: %s", d)
			}
			srv.AtomicOff(t, "team.git")
			out := alice.run(0, "", "push", "--session", "ok").stdout
			if !strings.Contains(out, "pushed ok to origin") || !strings.Contains(out, "does not offer atomic pushes") {
				t.Fatalf("push to a server without atomic pushes printed\n%s", out)
			}
		})
	}
}

// Nothing secret leaves: a session that recorded an ignored .env, and one
// whose edit added an AWS-style key, are refused with the exact file and
// line, the server's refs unchanged; --allow and --allow-secret proceed.
func TestPushRefusesIgnoredFilesAndSecrets(t *testing.T) {
	srv, _, alice := teamRepo(t, gittest.ServeDaemon)
	gittest.Commit(t, alice.dir, map[string]string{".gitignore": ".env\n*.pem\n"})
	gittest.Git(t, alice.dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	key := "AKIA" + "Z3MSJV4WWNKWW5FG" // made here, so that no scanner flags this file
	alice.create("env", ".env", "PASSWORD=hunter2\n")
	alice.create("aws", "cfg.py", "import os\n\nREGION = \"eu-west-1\"\nKEY = \""+key+"\"\n")
	server, local := srv.Refs(t, "team.git"), alice.refs()
	r := alice.run(1, "", "push", "--all")
	envCommit, awsCommit := gittest.Rev(t, alice.dir, "refs/edits/env"), gittest.Rev(t, alice.dir, "refs/edits/aws")
	fp := awsCommit + ":cfg.py:aws-access-token:4"
	for _, want := range []string{
		"the push would send ignored files or secrets; nothing was pushed:",
		"session env, commit " + envCommit[:12] + ": .env is ignored by this worktree",
		"--allow .env sends it",
		"session aws, commit " + awsCommit[:12] + ": cfg.py line 4: aws-access-token",
		"--allow-secret " + fp + " sends it",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("push of a secret: stderr\n%s\nwant %q", r.stderr, want)
		}
	}
	if srv.Refs(t, "team.git") != server || alice.refs() != local {
		t.Fatalf("a refused push changed refs")
	}
	// Each allowance lets through what it names, and only that.
	r = alice.run(1, "", "push", "--all", "--allow", ".env")
	if strings.Contains(r.stderr, ".env is ignored") || !strings.Contains(r.stderr, "cfg.py line 4") {
		t.Fatalf("push --allow .env: stderr\n%s", r.stderr)
	}
	if srv.Refs(t, "team.git") != server {
		t.Fatalf("a refused push changed the server's refs")
	}
	out := alice.run(0, "", "push", "--all", "--allow", ".env", "--allow-secret", fp).stdout
	if !strings.Contains(out, "pushed aws to origin") || !strings.Contains(out, "pushed env to origin") {
		t.Fatalf("push with both allowed printed\n%s", out)
	}
	if got := srv.Refs(t, "team.git"); !strings.Contains(got, awsCommit+" refs/edits/alice@example.com/aws") || !strings.Contains(got, envCommit+" refs/edits/alice@example.com/env") {
		t.Fatalf("server refs after the allowed push:\n%s", got)
	}
}

// 300 sessions go in one push: one run of the server's receive hook, and
// 300 refs.
func TestPush300SessionsInOnePush(t *testing.T) {
	srv, _, alice := teamRepo(t, gittest.ServeDaemon)
	for i := range 300 {
		in := fmt.Sprintf(`{"path":"f%03d.txt","operations":[{"op":"insert","afterLine":0,"content":["line %d"]}]}`, i, i)
		gittest.WriteFile(t, alice.dir, fmt.Sprintf("f%03d.txt", i), "")
		if r := runCLI(t, in, "call", "--root", alice.dir, "--session", fmt.Sprintf("s%03d", i), "edit_lines"); r.code != 0 {
			t.Fatalf("edit %d: %s", i, r.stderr)
		}
	}
	hook := filepath.Join(srv.Path("team.git"), "hooks", "pre-receive")
	count := filepath.Join(t.TempDir(), "pushes")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho push >> '"+count+"'\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := alice.run(0, "", "push", "--all").stdout
	if n := strings.Count(out, "\npushed s") + strings.Count(out[:min(len(out), 7)], "pushed"); n != 300 {
		t.Fatalf("push --all printed %d pushed lines, want 300:\n%s", n, out)
	}
	if b, err := os.ReadFile(count); err != nil || string(b) != "push\n" {
		t.Fatalf("the server's receive hook ran %q times (err %v), want once", b, err)
	}
	if n := strings.Count(srv.Refs(t, "team.git"), " refs/edits/alice@example.com/s"); n != 300 {
		t.Fatalf("the server has %d session refs, want 300", n)
	}
}

// Without --session or --all, push sends the session every other command
// picks: the one last written in this worktree, named on stderr.
func TestPushPicksTheSessionOthersPick(t *testing.T) {
	srv, _, alice := teamRepo(t, gittest.ServeDaemon)
	alice.edit("first", "app.py", "hello", "hello, world")
	alice.edit("later", "app.py", "hello, world", "hi")
	r := alice.run(0, "", "push")
	if !strings.HasPrefix(r.stderr, "session later, the last written in this worktree; ") || !strings.Contains(r.stdout, "pushed later to origin") {
		t.Fatalf("push without --session: %+v", r)
	}
	if refs := srv.Refs(t, "team.git"); strings.Contains(refs, "/first") || !strings.Contains(refs, "refs/edits/alice@example.com/later") {
		t.Fatalf("server refs:\n%s", refs)
	}
}

// A ref under refs/edits/ whose name has slashes (as a fetch with the
// person's own +refs/*:refs/* refspec leaves) is no session here: it is
// not listed, neither as own nor as fetched.
func TestSessionsListNoNestedRefAsASession(t *testing.T) {
	_, _, alice := teamRepo(t, gittest.ServeDaemon)
	alice.edit("s1", "app.py", "hello", "hello, world")
	gittest.Git(t, alice.dir, "update-ref", "refs/edits/bob@example.com/s2", "refs/edits/s1")
	gittest.Git(t, alice.dir, "update-ref", "refs/edits/a/b/c", "refs/edits/s1")
	out := alice.run(0, "", "sessions").stdout
	if strings.Contains(out, "a/b/c") || strings.Contains(out, "bob@example.com") || !strings.HasPrefix(out, "s1 ") {
		t.Fatalf("sessions:\n%s", out)
	}
}
