package gittest

import (
	"bytes"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// servers are the two kinds of git server the helpers start.
var servers = []struct {
	name  string
	serve func(testing.TB) *Server
}{
	{"daemon", ServeDaemon},
	{"http", ServeHTTP},
}

// gitSplit runs git in dir and returns its standard output and standard
// error apart, and its error.
func gitSplit(dir string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, Env()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// cloneEmpty clones the empty repository at url and puts HEAD on an
// unborn main.
func cloneEmpty(t *testing.T, url string) string {
	t.Helper()
	dir := filepath.Join(serverDir(t), "clone")
	Git(t, "", "clone", "-q", url, dir)
	Git(t, dir, "symbolic-ref", "HEAD", "refs/heads/main")
	return dir
}

// editCommit makes a commit on top of HEAD, as git-edit records an edit,
// points ref at it and returns it.
func editCommit(t *testing.T, dir, ref string) string {
	t.Helper()
	c := strings.TrimSpace(Git(t, dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "edit "+ref))
	Git(t, dir, "update-ref", ref, c)
	return c
}

func TestServersPushFetch(t *testing.T) {
	for _, tc := range servers {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.serve(t)
			url := s.NewBare(t, "team.git")
			if url != s.URL+"/team.git" {
				t.Fatalf("NewBare = %q, want %q", url, s.URL+"/team.git")
			}
			if got := strings.TrimSpace(Git(t, s.Path("team.git"), "rev-parse", "--is-bare-repository")); got != "true" {
				t.Fatalf("%s is not bare: %s", s.Path("team.git"), got)
			}
			if s.Refs(t, "team.git") != "" {
				t.Fatalf("new bare repository has refs:\n%s", s.Refs(t, "team.git"))
			}

			a := cloneEmpty(t, url)
			Commit(t, a, map[string]string{"f.txt": "one\n"})
			head := Rev(t, a, "HEAD")
			edit := editCommit(t, a, "refs/edits/alice/s1")
			Git(t, a, "push", "-q", "--atomic", "origin", "main", "refs/edits/alice/s1")

			want := edit + " refs/edits/alice/s1\n" + head + " refs/heads/main\n"
			if got := s.Refs(t, "team.git"); got != want {
				t.Fatalf("server refs after push:\n%s\nwant:\n%s", got, want)
			}

			b := filepath.Join(serverDir(t), "b")
			Git(t, "", "clone", "-q", url, b)
			Git(t, b, "fetch", "-q", "origin", "+refs/edits/*:refs/edits-remote/origin/*")
			if got := Rev(t, b, "refs/edits-remote/origin/alice/s1"); got != edit {
				t.Fatalf("fetched refs/edits-remote/origin/alice/s1 = %q, want %s", got, edit)
			}
			if got := Rev(t, b, "refs/remotes/origin/main"); got != head {
				t.Fatalf("refs/remotes/origin/main = %q, want %s", got, head)
			}
		})
	}
}

func TestServersRejectRefs(t *testing.T) {
	const message = "push protection: refs/edits/*/secret* may not be pushed"
	for _, tc := range servers {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.serve(t)
			url := s.NewBare(t, "team.git")
			s.RejectRefs(t, "team.git", "refs/edits/*/secret*", message)

			a := cloneEmpty(t, url)
			Commit(t, a, map[string]string{"f.txt": "one\n"})
			Git(t, a, "push", "-q", "origin", "main")
			before := s.Refs(t, "team.git")

			Commit(t, a, map[string]string{"f.txt": "two\n"})
			editCommit(t, a, "refs/edits/alice/s1")
			editCommit(t, a, "refs/edits/alice/secret-s2")
			_, stderr, err := gitSplit(a, "push", "origin", "main", "refs/edits/alice/s1", "refs/edits/alice/secret-s2")
			if err == nil {
				t.Fatalf("push of refs/edits/alice/secret-s2 succeeded:\n%s", stderr)
			}
			if !strings.Contains(stderr, "remote: "+message) || !strings.Contains(stderr, "pre-receive hook declined") {
				t.Fatalf("push's stderr does not give the hook's message %q:\n%s", message, stderr)
			}
			if after := s.Refs(t, "team.git"); after != before {
				t.Fatalf("rejected push changed the server's refs:\n%s\nwas:\n%s", after, before)
			}

			// The same push without the matching ref goes through.
			Git(t, a, "push", "-q", "origin", "main", "refs/edits/alice/s1")
			want := Rev(t, a, "refs/edits/alice/s1") + " refs/edits/alice/s1\n" + Rev(t, a, "main") + " refs/heads/main\n"
			if got := s.Refs(t, "team.git"); got != want {
				t.Fatalf("server refs after push:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestServersAtomicOff(t *testing.T) {
	for _, tc := range servers {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.serve(t)
			url := s.NewBare(t, "team.git")
			s.AtomicOff(t, "team.git")

			a := cloneEmpty(t, url)
			Commit(t, a, map[string]string{"f.txt": "one\n"})
			editCommit(t, a, "refs/edits/alice/s1")
			_, stderr, err := gitSplit(a, "push", "--atomic", "origin", "main", "refs/edits/alice/s1")
			if err == nil {
				t.Fatalf("git push --atomic succeeded with atomic pushes off:\n%s", stderr)
			}
			// git 2.39's send-pack: die(_("the receiving end does not support --atomic push")).
			if !strings.Contains(stderr, "fatal: the receiving end does not support --atomic push") {
				t.Fatalf("git push --atomic's stderr:\n%s", stderr)
			}
			if got := s.Refs(t, "team.git"); got != "" {
				t.Fatalf("refused atomic push changed the server's refs:\n%s", got)
			}

			Git(t, a, "push", "-q", "origin", "main", "refs/edits/alice/s1")
			want := Rev(t, a, "refs/edits/alice/s1") + " refs/edits/alice/s1\n" + Rev(t, a, "main") + " refs/heads/main\n"
			if got := s.Refs(t, "team.git"); got != want {
				t.Fatalf("server refs after plain push:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestServersLargePush pushes more than http.postBuffer (1 MiB), which git
// sends over HTTP as a chunked request body.
func TestServersLargePush(t *testing.T) {
	big := make([]byte, 3<<20)
	rand.New(rand.NewSource(1)).Read(big) // incompressible
	for _, tc := range servers {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.serve(t)
			url := s.NewBare(t, "team.git")
			a := cloneEmpty(t, url)
			Commit(t, a, map[string]string{"big.bin": string(big)})
			Git(t, a, "push", "-q", "origin", "main")
			if got, want := s.Refs(t, "team.git"), Rev(t, a, "main")+" refs/heads/main\n"; got != want {
				t.Fatalf("server refs after push:\n%s\nwant:\n%s", got, want)
			}
			Fsck(t, s.Path("team.git"))
		})
	}
}
