package share_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/companion"
	"github.com/git-edit/git-edit/ops/share"
	"github.com/git-edit/git-edit/ops/share/secrets"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// awsKey is an AWS-style access key id, made at run time so that no
// scanner flags this file.
var awsKey = "AKIA" + "Z3MSJV4WWNKWW5FG"

// clone makes a clone of url owned by alice@example.com.
func clone(t *testing.T, url string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "alice")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", url, dir)
	gittest.Git(t, dir, "config", "user.email", "alice@example.com")
	return dir
}

// team starts a git daemon with team.git holding app.py on main, and
// returns the server, the repository's URL and alice's clone.
func team(t *testing.T) (*gittest.Server, string, string) {
	t.Helper()
	srv := gittest.ServeDaemon(t)
	url := srv.NewBare(t, "team.git")
	dir := clone(t, url)
	gittest.Commit(t, dir, map[string]string{"app.py": "print(\"hello\")\n"})
	gittest.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	return srv, url, dir
}

// create makes path with content in session s of dir, as an agent does.
func create(t *testing.T, dir, s, path, content string) {
	t.Helper()
	e, err := ops.Open(ops.Options{Root: dir, Session: s})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	args, _ := json.Marshal(map[string]string{"command": "create", "path": path, "file_text": content})
	if res, err := e.Call(context.Background(), "text_editor", args); err != nil || !res.OK {
		t.Fatalf("create %s in session %s: %v %+v", path, s, err, res)
	}
}

func open(t *testing.T, dir string) *repo.Repo {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An edit made between the check and git push (pause point
// "share-checked") is not sent: the push sends the tip it checked, so the
// key the late edit adds stays here, and the next push refuses it.
func TestAttackPushSendsTheTipItChecked(t *testing.T) {
	srv, _, dir := team(t)
	create(t, dir, "s1", "a.py", "x = 1\n")
	checked := gittest.Rev(t, dir, "refs/edits/s1")
	restore := repo.SetPauseHook(func(point, _ string) {
		if point == "share-checked" {
			create(t, dir, "s1", "b.py", "KEY = \""+awsKey+"\"\n")
		}
	})
	_, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if late := gittest.Rev(t, dir, "refs/edits/s1"); late == checked {
		t.Fatal("the pause point did not run: the late edit is missing")
	}
	if got := srv.Refs(t, "team.git"); !strings.Contains(got, checked+" refs/edits/alice@example.com/s1") {
		t.Fatalf("server refs\n%s\nwant s1 at the checked tip %s", got, checked)
	}
	var ce *share.CheckError
	_, err = share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
	if !errors.As(err, &ce) || len(ce.Findings) != 1 || ce.Findings[0].Path != "b.py" {
		t.Fatalf("the next push: %v, want the late key refused", err)
	}
}

// What the server has is asked of every push URL at push time, never read
// from this clone's remote-tracking refs or the fetch URL: a commit with a
// key that is on a branch deleted on the server since it was fetched, on
// the fetch URL's server only, or on one of two push URLs only, is checked
// and refused.
func TestAttackPushChecksWhatEveryDestinationHasNow(t *testing.T) {
	cases := []struct {
		name  string
		setUp func(t *testing.T, srv *gittest.Server, dir string)
	}{
		{"branch deleted on the server, still tracked here", func(t *testing.T, srv *gittest.Server, dir string) {
			gittest.Git(t, dir, "push", "-q", "origin", "--delete", "feature")
			gittest.Git(t, dir, "update-ref", "refs/remotes/origin/feature", "feature")
		}},
		{"pushurl names another server", func(t *testing.T, srv *gittest.Server, dir string) {
			gittest.Git(t, dir, "config", "remote.origin.pushurl", srv.NewBare(t, "other.git"))
		}},
		{"two push URLs, one without the commit", func(t *testing.T, srv *gittest.Server, dir string) {
			gittest.Git(t, dir, "config", "--add", "remote.origin.pushurl", srv.URL+"/team.git")
			gittest.Git(t, dir, "config", "--add", "remote.origin.pushurl", srv.NewBare(t, "mirror.git"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _, dir := team(t)
			gittest.Git(t, dir, "checkout", "-q", "-b", "feature")
			gittest.Commit(t, dir, map[string]string{"cfg.py": "KEY = \"" + awsKey + "\"\n"})
			gittest.Git(t, dir, "push", "-q", "origin", "feature")
			create(t, dir, "s1", "a.py", "x = 1\n")
			c.setUp(t, srv, dir)
			before := srv.Refs(t, "team.git")
			var ce *share.CheckError
			_, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
			if !errors.As(err, &ce) || len(ce.Findings) != 1 || ce.Findings[0].Path != "cfg.py" || ce.Findings[0].Line != 1 {
				t.Fatalf("push: %v, want the key in cfg.py line 1 refused", err)
			}
			if srv.Refs(t, "team.git") != before {
				t.Fatal("a refused push changed the server's refs")
			}
		})
	}
}

// With no remote named, a push goes where `git push` goes from the
// current branch: branch.<b>.pushRemote, remote.pushDefault,
// branch.<b>.remote, origin.
func TestPushGoesWhereGitPushGoes(t *testing.T) {
	srv, _, dir := team(t)
	create(t, dir, "s1", "a.py", "x = 1\n")
	gittest.Git(t, dir, "remote", "add", "review", srv.NewBare(t, "review.git"))
	gittest.Git(t, dir, "remote", "add", "fork", srv.NewBare(t, "fork.git"))
	for _, c := range []struct{ config, want string }{
		{"", "origin"},
		{"branch.main.remote=review", "review"},
		{"remote.pushDefault=fork", "fork"},
		{"branch.main.pushRemote=review", "review"},
	} {
		if c.config != "" {
			k, v, _ := strings.Cut(c.config, "=")
			gittest.Git(t, dir, "config", k, v)
		}
		res, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}, DryRun: true})
		if err != nil || res.Remote != c.want {
			t.Fatalf("after %s: pushes to %q (%v), want %q", c.config, res.Remote, err, c.want)
		}
	}
}

// Without a terminal, git is never let ask for a password: a server that
// wants credentials fails the push at once, saying what to set up.
func TestAttackPushNeverWaitsOnAPrompt(t *testing.T) {
	_, _, dir := team(t)
	create(t, dir, "s1", "a.py", "x = 1\n")
	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="team"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer locked.Close()
	gittest.Git(t, dir, "remote", "add", "locked", locked.URL+"/team.git")
	// An askpass program, as editors set one in their terminals: git
	// would run it before it looks at GIT_TERMINAL_PROMPT, and it waits.
	asked := filepath.Join(t.TempDir(), "asked")
	askpass := filepath.Join(t.TempDir(), "askpass.sh")
	if err := os.WriteFile(askpass, []byte("#!/bin/sh\ntouch '"+asked+"'\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_ASKPASS", askpass)
	t.Setenv("SSH_ASKPASS", askpass)
	gittest.Git(t, dir, "config", "core.askPass", askpass)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := share.Push(ctx, open(t, dir), share.PushOptions{Remote: "locked", Sessions: []string{"s1"}})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "terminal prompts disabled") {
		t.Fatalf("push to a server that wants credentials: %v (context: %v)", err, ctx.Err())
	}
	if _, err := os.Stat(asked); err == nil {
		t.Fatal("git ran the askpass program")
	}
}

// A remote with two push URLs: git pushes to each in turn. A session the
// second has diverged copy of is refused before anything is sent, and a
// refusal by the second after the first took the session says so.
func TestAttackPushToTwoURLs(t *testing.T) {
	srv, url, dir := team(t)
	other := srv.NewBare(t, "other.git")
	create(t, dir, "s1", "a.py", "x = 1\n")
	// other.git has an s1 of alice's that this s1 does not descend from.
	gittest.Git(t, dir, "push", "-q", other, "main:refs/heads/main")
	sibling := strings.TrimSpace(gittest.Git(t, dir, "commit-tree", "-p", "main", "-m", "another s1", "main^{tree}"))
	gittest.Git(t, dir, "push", "-q", other, sibling+":refs/edits/alice@example.com/s1")
	gittest.Git(t, dir, "config", "--add", "remote.origin.pushurl", url)
	gittest.Git(t, dir, "config", "--add", "remote.origin.pushurl", other)
	before := srv.Refs(t, "team.git")
	_, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
	if !errors.Is(err, share.ErrNotFastForward) || !strings.Contains(err.Error(), other) {
		t.Fatalf("push: %v, want it refused as not a fast forward on %s", err, other)
	}
	if srv.Refs(t, "team.git") != before {
		t.Fatal("the first URL took the session although the second refuses it")
	}
	// A refusal by the second URL's hook, after the first took it.
	gittest.Git(t, srv.Path("other.git"), "update-ref", "-d", "refs/edits/alice@example.com/s1")
	srv.RejectRefs(t, "other.git", "refs/edits/*", "push protection on the mirror")
	_, err = share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
	if !errors.Is(err, share.ErrPushRejected) || !strings.Contains(err.Error(), "took their refs before one refused: refs/edits/alice@example.com/s1 at "+url) {
		t.Fatalf("push: %v, want it to say the first URL took s1", err)
	}
}

// Settings of the person's that would make git push send more than the
// sessions are turned off: remote.<name>.mirror (git would refuse the
// refspecs, or mirror every ref) and push.followTags (an annotated tag of
// the base commit would go along, unchecked).
func TestPushSendsOnlyTheSessions(t *testing.T) {
	srv, _, dir := team(t)
	gittest.Git(t, dir, "tag", "-a", "-m", "release", "v1")
	gittest.Git(t, dir, "config", "remote.origin.mirror", "true")
	gittest.Git(t, dir, "config", "push.followTags", "true")
	create(t, dir, "s1", "a.py", "x = 1\n")
	if _, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}}); err != nil {
		t.Fatal(err)
	}
	got := srv.Refs(t, "team.git")
	want := gittest.Rev(t, dir, "refs/edits/s1") + " refs/edits/alice@example.com/s1\n" + gittest.Rev(t, dir, "main") + " refs/heads/main\n"
	if got != want {
		t.Fatalf("server refs\n%s\nwant\n%s", got, want)
	}
}

// A file git-lfs tracks is stored as a pointer, and git-lfs' pre-push hook
// uploads its object beside the push: the object is what is checked, and
// a key in it refuses the push.
func TestAttackLFSObjectScanned(t *testing.T) {
	if _, err := exec.LookPath("git-lfs"); err != nil {
		t.Skip("git-lfs is not installed (.ci/run installs Debian's)")
	}
	for _, storage := range []bool{false, true} {
		t.Run(fmt.Sprintf("lfs.storage %t", storage), func(t *testing.T) { lfsObjectScanned(t, storage) })
	}
}

func lfsObjectScanned(t *testing.T, storage bool) {
	srv, _, dir := team(t)
	gittest.Git(t, dir, "lfs", "install", "--local")
	gittest.Commit(t, dir, map[string]string{".gitattributes": "*.cfg filter=lfs diff=lfs merge=lfs -text\n"})
	gittest.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	if storage {
		// git-lfs keeps its objects elsewhere when lfs.storage says so.
		gittest.Git(t, dir, "config", "lfs.storage", filepath.Join(t.TempDir(), "lfs-store"))
	}
	create(t, dir, "s1", "prod.cfg", "region = eu-west-1\nkey = "+awsKey+"\n")
	if blob := gittest.Git(t, dir, "cat-file", "-p", "refs/edits/s1:prod.cfg"); !strings.HasPrefix(blob, "version https://git-lfs") {
		t.Fatalf("precondition: prod.cfg is stored as %q, not as a git-lfs pointer", blob)
	}
	before := srv.Refs(t, "team.git")
	var ce *share.CheckError
	_, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
	if !errors.As(err, &ce) || len(ce.Findings) != 1 || ce.Findings[0].Path != "prod.cfg" || ce.Findings[0].Line != 2 {
		t.Fatalf("push: %v, want the key in prod.cfg's git-lfs object, line 2, refused", err)
	}
	if srv.Refs(t, "team.git") != before {
		t.Fatal("a refused push changed the server's refs")
	}
}

// A git-edit-secrets that does not scan as this git-edit asks (one of
// another version, or any program of that name that answers null) or that
// hangs does not let a key out: the push is refused, saying why and what to
// do, and the server's refs are as they were.
func TestAttackPushWithAScannerThatDoesNotScan(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake git-edit-secrets is a shell script")
	}
	tests := []struct{ name, script, deadline, says string }{
		{"answers null", "cat >/dev/null\necho null", "", "protocol version 0"},
		{"hangs", "exec sleep 3600", "300ms", "did not answer in 300ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _, dir := team(t)
			create(t, dir, "s1", "conf.py", "KEY = \""+awsKey+"\"\n")
			bin := t.TempDir()
			if err := os.WriteFile(filepath.Join(bin, companion.Secrets), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv(companion.EnvExecPath, bin)
			t.Setenv(secrets.EnvDeadline, tc.deadline)
			before := srv.Refs(t, "team.git")
			_, err := share.Push(context.Background(), open(t, dir), share.PushOptions{Sessions: []string{"s1"}})
			if err == nil {
				t.Fatal("the push went out though its scan did not happen")
			}
			for _, part := range []string{tc.says, "nothing was pushed", filepath.Join(bin, companion.Secrets)} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("the refusal does not say %q: %v", part, err)
				}
			}
			if srv.Refs(t, "team.git") != before {
				t.Fatal("a refused push changed the server's refs")
			}
		})
	}
}

// A fetch writes only refs/edits-remote/<remote>/: not the remote's
// configured refspecs' refs, even one that maps refs/edits/ onto itself
// (+refs/*:refs/*), which would overwrite the person's own session.
func TestFetchChangesNoOtherRef(t *testing.T) {
	srv, _, dir := team(t)
	create(t, dir, "s9", "a.py", "x = 1\n")
	own := gittest.Rev(t, dir, "refs/edits/s9")
	gittest.Git(t, srv.Path("team.git"), "update-ref", "refs/edits/s9", gittest.Rev(t, dir, "main"))
	gittest.Git(t, dir, "config", "--add", "remote.origin.fetch", "+refs/*:refs/*")
	refs := func() string {
		var keep []string
		for _, line := range strings.Split(gittest.Git(t, dir, "for-each-ref", "--format=%(objectname) %(refname)"), "\n") {
			if !strings.Contains(line, " refs/edits-remote/") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	before := refs()
	if _, err := share.Fetch(context.Background(), open(t, dir), share.FetchOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := refs(); got != before || gittest.Rev(t, dir, "refs/edits/s9") != own {
		t.Fatalf("fetch changed refs outside refs/edits-remote/:\nbefore\n%s\nafter\n%s", before, got)
	}
	if gittest.Rev(t, dir, "refs/edits-remote/origin/s9") != gittest.Rev(t, dir, "main") {
		t.Fatal("the fetched copy is missing")
	}
}
