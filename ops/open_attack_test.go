package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// gitEnv runs git in dir with the test's environment as it is now (what
// git-edit sees too) and a fixed identity; a failure fails the test.
func gitEnv(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gittest.GitHere(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// writeCall runs text_editor write of path with content from root.
func writeCall(t *testing.T, root, path, content string) (bool, string) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"command": "write", "path": path, "file_text": content})
	res, err := ops.Call(context.Background(), ops.Options{Root: root, Session: "s"}, "text_editor", raw)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // keep git's "<=" readable for comparison
	must(t, enc.Encode(res.Value))
	return res.OK, out.String()
}

func TestAttackEditRefusedInAnotherUsersRepository(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test hands a repository to another user (chown) to check git-edit's ownership rule")
	}
	global := gittest.Isolate(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "person's\n"})
	if out, err := exec.Command("chown", "-R", "65534:65534", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	// git as root refuses the repository too; these look with an exception
	// given on the command line only.
	status := gitEnv(t, dir, "-c", "safe.directory=*", "--no-optional-locks", "status", "--porcelain")
	before := gittest.TreeSnapshot(t, dir)

	ok, out := writeCall(t, dir, "f.txt", "root's\n")
	if ok {
		t.Fatalf("git-edit edited another user's repository: %s", out)
	}
	for _, want := range []string{"detected dubious ownership in repository at '" + dir + "'",
		"To add an exception for this directory, call: git config --global --add safe.directory " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q: %s", want, out)
		}
	}
	if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, dir)); d != "" {
		t.Fatalf("the refused call changed the repository (owners included):\n%s", d)
	}
	if now := gitEnv(t, dir, "-c", "safe.directory=*", "--no-optional-locks", "status", "--porcelain"); now != status {
		t.Fatalf("git status changed: %q, was %q", now, status)
	}

	// The person's exception, where git reads it, lets git-edit in as git.
	must(t, os.WriteFile(global, []byte("[safe]\n\tdirectory = "+dir+"\n"), 0o644))
	gitEnv(t, dir, "rev-parse", "--show-toplevel")
	if ok, out := writeCall(t, dir, "f.txt", "root's\n"); !ok {
		t.Fatalf("refused with safe.directory set: %s", out)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "root's\n" {
		t.Fatalf("f.txt = %q", got)
	}
	// The rewritten file keeps its owner, so the person can still write it.
	if fi, err := os.Stat(filepath.Join(dir, "f.txt")); err != nil {
		t.Fatal(err)
	} else if uid, gid := ownerOf(fi); uid != 65534 || gid != 65534 {
		t.Fatalf("f.txt is owned by %d:%d after the edit, want 65534:65534", uid, gid)
	}
	if log := gitEnv(t, dir, "log", "--format=%s", "refs/edits/s"); log == "" {
		t.Fatal("no edit recorded on refs/edits/s")
	}
}

func TestAttackEditRefusedInUnsupportedFormatWritesNothing(t *testing.T) {
	gittest.Isolate(t)
	tests := []struct {
		name   string
		init   []string // git init options
		config []string // git config name/value pairs
		want   string
	}{
		{"sha256", []string{"--object-format=sha256"}, nil, "extensions.objectFormat = sha256"},
		{"reftable", nil, []string{"core.repositoryformatversion", "1", "extensions.refStorage", "reftable"}, "extensions.refStorage = reftable"},
		{"version 2", nil, []string{"core.repositoryformatversion", "2"}, "Expected git repo version <= 1, found 2"},
		{"unknown extension", nil, []string{"core.repositoryformatversion", "1", "extensions.futureThing", "true"}, "unknown repository extension found: extensions.futurething"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			must(t, err)
			gittest.Git(t, dir, append([]string{"init", "-q", "-b", "main"}, tt.init...)...)
			gittest.Commit(t, dir, map[string]string{"f.txt": "x\n"})
			for i := 0; i+1 < len(tt.config); i += 2 {
				gittest.Git(t, dir, "config", tt.config[i], tt.config[i+1])
			}
			before := gittest.TreeSnapshot(t, dir)
			ok, out := writeCall(t, dir, "f.txt", "y\n")
			if ok || !strings.Contains(out, tt.want) {
				t.Fatalf("ok=%v %s; want a refusal saying %q", ok, out, tt.want)
			}
			if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, dir)); d != "" {
				t.Fatalf("the refused call wrote:\n%s", d)
			}
		})
	}
}

func TestAttackGitDirEditLandsInTheNamedRepository(t *testing.T) {
	gittest.Isolate(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	// decoy is the repository the worktree sits in; sep.git is the one
	// GIT_DIR names; work/nested is a repository of its own.
	decoy, gitDir := filepath.Join(base, "decoy"), filepath.Join(base, "sep.git")
	work := filepath.Join(decoy, "work")
	nested := filepath.Join(work, "nested")
	gittest.Git(t, base, "init", "-q", "-b", "main", decoy)
	gittest.Commit(t, decoy, map[string]string{"d.txt": "decoy\n"})
	gittest.WriteFile(t, work, "f.txt", "work\n")
	gittest.Git(t, base, "--git-dir="+gitDir, "--work-tree="+work, "init", "-q", "-b", "main")
	gittest.Git(t, base, "--git-dir="+gitDir, "config", "--unset", "core.worktree")
	gittest.Git(t, base, "init", "-q", "-b", "main", nested)
	gittest.Commit(t, nested, map[string]string{"g.txt": "nested\n"})

	tests := []struct {
		name string
		env  map[string]string
		root string
	}{
		{"GIT_DIR and GIT_WORK_TREE", map[string]string{"GIT_DIR": gitDir, "GIT_WORK_TREE": work}, work},
		{"GIT_DIR alone, from the worktree top", map[string]string{"GIT_DIR": gitDir}, work},
		{"relative GIT_DIR", map[string]string{"GIT_DIR": "../../sep.git"}, work},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			content := strings.Repeat("edited\n", i+1)
			if ok, out := writeCall(t, tt.root, "f.txt", content); !ok {
				t.Fatalf("refused: %s", out)
			}
			before := gittest.ReadFile(t, nested, "g.txt")
			if ok, out := writeCall(t, tt.root, "nested/g.txt", content); !ok {
				t.Fatalf("nested: refused: %s", out)
			}
			for _, f := range []struct{ dir, rel string }{{work, "f.txt"}, {nested, "g.txt"}} {
				if got := gittest.ReadFile(t, f.dir, f.rel); got != content {
					t.Errorf("%s = %q, want %q", f.rel, got, content)
				}
			}
			// Each file's edit is in its own repository: f.txt's where git
			// looks with the same environment, g.txt's in the nested
			// repository (git too leaves GIT_DIR behind in a submodule).
			// --git-dir names the others, since GIT_DIR is set.
			if got := gitEnv(t, tt.root, "show", "refs/edits/s:f.txt"); got != content {
				t.Errorf("refs/edits/s:f.txt in %s = %q", gitDir, got)
			}
			nestedGit, decoyGit := "--git-dir="+filepath.Join(nested, ".git"), "--git-dir="+filepath.Join(decoy, ".git")
			if got := gitEnv(t, base, nestedGit, "show", "refs/edits/s:g.txt"); got != content {
				t.Errorf("refs/edits/s:g.txt in the nested repository = %q", got)
			}
			if refs := gitEnv(t, base, decoyGit, "for-each-ref", "refs/edits/"); refs != "" {
				t.Errorf("an edit landed in the repository around the worktree: %s", refs)
			}
			// History commands find the nested repository the same way: an
			// undo of g.txt is recorded there too, never where GIT_DIR points.
			e, err := ops.Open(ops.Options{Root: tt.root, Session: "s"})
			must(t, err)
			t.Cleanup(func() { e.Close() })
			if _, err := e.Undo(context.Background(), "nested/g.txt", false); err != nil {
				t.Fatalf("undo nested/g.txt: %v", err)
			}
			if got := gittest.ReadFile(t, nested, "g.txt"); got != before {
				t.Errorf("g.txt after undo = %q, want %q", got, before)
			}
			if op := gitEnv(t, base, nestedGit, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", "refs/edits/s"); strings.TrimSpace(op) != "undo" {
				t.Errorf("the nested repository's session ends in %q, want the undo", op)
			}
			for _, g := range []string{"--git-dir=" + gitDir, nestedGit, decoyGit} {
				gitEnv(t, base, g, "fsck", "--strict", "--no-dangling")
			}
		})
	}
}

func TestAttackWorktreeConfigReachesTheEngine(t *testing.T) {
	gittest.Isolate(t)
	main := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
	linked := filepath.Join(filepath.Dir(main), "linked")
	gittest.Git(t, main, "worktree", "add", "-q", linked)
	gittest.Git(t, main, "config", "core.repositoryformatversion", "1")
	gittest.Git(t, main, "config", "extensions.worktreeConfig", "true")
	gittest.Git(t, main, "config", "--worktree", "edit.maxFileSize", "5")
	gittest.Git(t, main, "config", "--worktree", "edit.requireRead", "false")
	gittest.Git(t, linked, "config", "--worktree", "edit.maxFileSize", "9")
	for _, dir := range []string{main, linked} {
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		size := strings.TrimSpace(gitEnv(t, dir, "config", "--get", "edit.maxFileSize"))
		read, _ := exec.Command("git", "-C", dir, "config", "--type=bool", "--get", "edit.requireRead").Output()
		requireRead := strings.TrimSpace(string(read)) != "false" // unset: git-edit's default, true
		if got := e.Session.MaxFileSize; size != strconv.FormatInt(got, 10) {
			t.Errorf("in %s: MaxFileSize = %d; git config says %s", filepath.Base(dir), got, size)
		}
		if e.RequireRead != requireRead {
			t.Errorf("in %s: RequireRead = %v; git config says %q", filepath.Base(dir), e.RequireRead, read)
		}
	}
}
