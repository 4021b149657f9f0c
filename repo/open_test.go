package repo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// gitAtLeast reports whether the git on PATH is at least major.minor.
func gitAtLeast(t *testing.T, major, minor int) bool {
	t.Helper()
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out)) // git version 2.39.5
	if len(f) < 3 {
		t.Fatalf("git version: %q", out)
	}
	parts := strings.SplitN(f[2], ".", 3)
	ma, _ := strconv.Atoi(parts[0])
	mi := 0
	if len(parts) > 1 {
		mi, _ = strconv.Atoi(parts[1])
	}
	return ma > major || ma == major && mi >= minor
}

// requireRoot skips a test that needs to chown files to another user.
func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test hands a repository to another user (chown) to check git-edit's ownership rule")
	}
}

// chown runs the real chown.
func chown(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("chown", args...).CombinedOutput(); err != nil {
		t.Fatalf("chown %v: %v\n%s", args, err, out)
	}
}

// gitDubiousLines returns git's own refusal of dir for dubious ownership:
// its first line and its fix command, or "" when git accepts dir.
func gitDubiousLines(t *testing.T, dir string) (first, fix string) {
	t.Helper()
	out, err := gittest.GitHere(dir, "rev-parse", "--show-toplevel")
	if err == nil {
		return "", ""
	}
	if !strings.Contains(out, "dubious ownership") {
		t.Fatalf("git refused %s for another reason: %s", dir, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "fatal: "); ok {
			first = rest
		}
		if strings.HasPrefix(strings.TrimSpace(line), "git config --global --add safe.directory") {
			fix = strings.TrimSpace(line)
		}
	}
	return first, fix
}

func TestAttackOpenRefusesDubiousOwnershipAsGitDoes(t *testing.T) {
	requireRoot(t)
	global := gittest.Isolate(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// A quote and a space in the name check that the advice is quoted as
	// git quotes it.
	dir := filepath.Join(base, "it's a repo")
	gittest.Git(t, base, "init", "-q", "-b", "main", dir)
	gittest.Commit(t, dir, map[string]string{"f.txt": "person's\n"})
	// The repository vouching for itself must count for nothing, as in git.
	gittest.Git(t, dir, "config", "safe.directory", "*")
	chown(t, "-R", "65534:65534", dir)
	link := filepath.Join(base, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	// What `git -c safe.directory=DIR` hands to the programs it runs.
	params, err := gittest.GitHere(other, "-c", "safe.directory="+dir, "-c", "alias.params=!printenv GIT_CONFIG_PARAMETERS", "params")
	if err != nil {
		t.Fatalf("git alias: %v\n%s", err, params)
	}
	params = strings.TrimSpace(params)

	tests := []struct {
		name   string
		global string            // the global config file's content
		env    map[string]string // more environment
		safe   bool
		// sinceMinor is the git 2.x that has the rule; older gits are not
		// compared.
		sinceMinor int
	}{
		{name: "no exception", safe: false},
		{name: "exact path", global: "[safe]\n\tdirectory = " + dir + "\n", safe: true},
		{name: "star", global: "[safe]\n\tdirectory = *\n", safe: true},
		{name: "another path", global: "[safe]\n\tdirectory = " + base + "\n", safe: false},
		{name: "empty value clears the list", global: "[safe]\n\tdirectory = *\n\tdirectory = " + dir + "\n\tdirectory =\n", safe: false},
		{name: "after a reset", global: "[safe]\n\tdirectory =\n\tdirectory = " + dir + "\n", safe: true},
		{name: "relative path ignored", global: "[safe]\n\tdirectory = it's a repo\n", safe: false},
		{name: "home-relative path", global: "[safe]\n\tdirectory = ~/it's a repo\n", env: map[string]string{"HOME": base}, safe: true},
		{name: "parent with /*", global: "[safe]\n\tdirectory = " + base + "/*\n", safe: true, sinceMinor: 46},
		{name: "the directory itself with /* is not below it", global: "[safe]\n\tdirectory = " + dir + "/*\n", safe: false, sinceMinor: 46},
		{name: "through a symlink", global: "[safe]\n\tdirectory = " + link + "\n", safe: true, sinceMinor: 47},
		{name: "git -c", env: map[string]string{"GIT_CONFIG_PARAMETERS": params}, safe: true},
		{name: "GIT_CONFIG_COUNT", env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": dir}, safe: true},
		{name: "system config", env: map[string]string{"GIT_CONFIG_NOSYSTEM": "", "GIT_CONFIG_SYSTEM": filepath.Join(other, "system")}, safe: true},
		{name: "sudo for the owner", env: map[string]string{"SUDO_UID": "65534"}, safe: true},
		{name: "sudo for someone else", env: map[string]string{"SUDO_UID": "1234"}, safe: false},
	}
	if err := os.WriteFile(filepath.Join(other, "system"), []byte("[safe]\n\tdirectory = "+dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(global, []byte(tt.global), 0o644); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			before := gittest.TreeSnapshot(t, dir)
			gitFirst, gitFix := gitDubiousLines(t, dir)
			if gitAtLeast(t, 2, tt.sinceMinor) && (gitFirst == "") != tt.safe {
				t.Fatalf("git itself says safe=%v; the test expects %v", gitFirst == "", tt.safe)
			}
			r, err := repo.Open(dir)
			if tt.safe {
				if err != nil {
					t.Fatalf("Open refused a repository safe.directory allows: %v", err)
				}
				if r.Top != dir {
					t.Errorf("Top = %s, want %s", r.Top, dir)
				}
			} else {
				if !errors.Is(err, repo.ErrDubiousOwnership) {
					t.Fatalf("Open = %v, want ErrDubiousOwnership", err)
				}
				for _, want := range []string{
					"detected dubious ownership in repository at '" + dir + "'",
					"To add an exception for this directory, call: git config --global --add safe.directory '" + strings.ReplaceAll(dir, "'", `'\''`) + "'",
				} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the refusal does not say %q: %v", want, err)
					}
				}
				if gitFirst != "" && !strings.Contains(err.Error(), gitFirst) {
					t.Errorf("the refusal does not repeat git's %q: %v", gitFirst, err)
				}
				if gitFix != "" && !strings.Contains(err.Error(), gitFix) {
					t.Errorf("the refusal does not give git's fix %q: %v", gitFix, err)
				}
			}
			if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, dir)); d != "" {
				t.Errorf("Open changed the repository:\n%s", d)
			}
		})
	}
}

func TestAttackOpenChecksTheOwnerOfEachPart(t *testing.T) {
	requireRoot(t)
	gittest.Isolate(t)
	tests := []struct {
		name string
		// foreign returns the paths to hand to nobody and the directory to
		// open (the top git names in its refusal).
		foreign func(t *testing.T, main, linked string) (chownArgs [][]string, open string)
	}{
		{"worktree top only", func(t *testing.T, main, _ string) ([][]string, string) {
			return [][]string{{"65534:65534", main}}, main
		}},
		{".git directory only", func(t *testing.T, main, _ string) ([][]string, string) {
			return [][]string{{"-R", "65534:65534", filepath.Join(main, ".git")}}, main
		}},
		{"linked worktree's .git file", func(t *testing.T, _, linked string) ([][]string, string) {
			return [][]string{{"65534:65534", filepath.Join(linked, ".git")}}, linked
		}},
		{"linked worktree's git dir", func(t *testing.T, main, linked string) ([][]string, string) {
			return [][]string{{"-R", "65534:65534", filepath.Join(main, ".git", "worktrees", "linked")}}, linked
		}},
		{"a .git file leading through our own symlink to a foreign git dir", func(t *testing.T, main, linked string) ([][]string, string) {
			// The link is ours, the git dir it leads to is not: git checks
			// where the link leads.
			link := filepath.Join(filepath.Dir(main), "link.git")
			if err := os.Symlink(filepath.Join(main, ".git", "worktrees", "linked"), link); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+link+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return [][]string{{"-R", "65534:65534", filepath.Join(main, ".git", "worktrees", "linked")}}, linked
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			main := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
			linked := filepath.Join(filepath.Dir(main), "linked")
			gittest.Git(t, main, "worktree", "add", "-q", linked)
			args, dir := tt.foreign(t, main, linked)
			for _, a := range args {
				chown(t, a...)
			}
			if first, _ := gitDubiousLines(t, dir); first == "" {
				t.Fatalf("git accepts %s; the case is not what the test means", dir)
			}
			before := gittest.TreeSnapshot(t, filepath.Dir(main))
			_, err := repo.Open(dir)
			if !errors.Is(err, repo.ErrDubiousOwnership) || !strings.Contains(err.Error(), "in repository at '"+dir+"'") {
				t.Fatalf("Open = %v, want dubious ownership of %s", err, dir)
			}
			if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, filepath.Dir(main))); d != "" {
				t.Errorf("Open changed files:\n%s", d)
			}
		})
	}
}

// formatCase is a repository whose format git-edit must accept or refuse
// as git does.
type formatCase struct {
	name  string
	setup func(t *testing.T) string // makes the repository, returns its top
	// refuse is what the refusal must name ("" when the repository is
	// accepted).
	refuse []string
}

// withConfig makes a repository with one commit and applies git config
// name/value pairs.
func withConfig(pairs ...string) func(t *testing.T) string {
	return func(t *testing.T) string {
		dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "x\n"})
		for i := 0; i+1 < len(pairs); i += 2 {
			gittest.Git(t, dir, "config", pairs[i], pairs[i+1])
		}
		return dir
	}
}

// formatCases are the repository formats git-edit must accept or refuse.
func formatCases() []formatCase {
	return []formatCase{
		{"version 2", withConfig("core.repositoryformatversion", "2"), []string{"Expected git repo version <= 1, found 2"}},
		{"unknown extension", withConfig("core.repositoryformatversion", "1", "extensions.futureThing", "true"), []string{"unknown repository extension found: extensions.futurething"}},
		{"v1-only extension in version 0", withConfig("extensions.objectFormat", "sha1"), []string{"repo version is 0, but v1-only extension found: extensions.objectFormat"}},
		{"sha256", func(t *testing.T) string {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, "init", "-q", "-b", "main", "--object-format=sha256")
			gittest.Commit(t, dir, map[string]string{"f.txt": "x\n"})
			return dir
		}, []string{"extensions.objectFormat = sha256", "SHA-1 only"}},
		{"compat object format", withConfig("core.repositoryformatversion", "1", "extensions.compatObjectFormat", "sha256"), []string{"extensions.compatObjectFormat = sha256"}},
		{"reftable", func(t *testing.T) string {
			if gitAtLeast(t, 2, 45) {
				dir, err := filepath.EvalSymlinks(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				gittest.Git(t, dir, "init", "-q", "-b", "main", "--ref-format=reftable")
				gittest.Commit(t, dir, map[string]string{"f.txt": "x\n"})
				return dir
			}
			// This git cannot make one; the setting is what marks one.
			return withConfig("core.repositoryformatversion", "1", "extensions.refStorage", "reftable")(t)
		}, []string{"extensions.refStorage = reftable", "loose files"}},
		{"precious objects", withConfig("core.repositoryformatversion", "1", "extensions.preciousObjects", "true"), nil},
		{"noop", withConfig("core.repositoryformatversion", "1", "extensions.noop", "anything"), nil},
		{"worktree config", withConfig("core.repositoryformatversion", "1", "extensions.worktreeConfig", "true"), nil},
		{"partial clone", withConfig("core.repositoryformatversion", "1", "extensions.partialClone", "origin"), nil},
		{"sha1 named", withConfig("core.repositoryformatversion", "1", "extensions.objectFormat", "sha1"), nil},
		{"unknown extension in version 0", withConfig("extensions.futureThing", "true"), nil},
	}
}

func TestAttackOpenRefusesFormatsGitRefuses(t *testing.T) {
	gittest.Isolate(t)
	for _, tt := range formatCases() {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			out, gitErr := gittest.GitHere(dir, "status", "--porcelain")
			// git accepts exactly what git-edit accepts, except the two
			// formats git reads and git-edit cannot write.
			gitOK := gitErr == nil
			wantGitOK := tt.refuse == nil || tt.name == "sha256" || (tt.name == "reftable" && gitAtLeast(t, 2, 45))
			if gitOK != wantGitOK {
				t.Fatalf("git status: ok=%v, want %v: %s", gitOK, wantGitOK, out)
			}
			before := gittest.TreeSnapshot(t, dir)
			r, err := repo.Open(dir)
			if tt.refuse == nil {
				if err != nil {
					t.Fatalf("Open refused a format git-edit supports: %v", err)
				}
				if r.Top != dir {
					t.Errorf("Top = %s, want %s", r.Top, dir)
				}
			} else {
				if !errors.Is(err, repo.ErrUnsupportedFormat) {
					t.Fatalf("Open = %v, want ErrUnsupportedFormat", err)
				}
				for _, want := range tt.refuse {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the refusal does not say %q: %v", want, err)
					}
				}
			}
			if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, dir)); d != "" {
				t.Errorf("Open changed the repository:\n%s", d)
			}
		})
	}
}

// layout is a set of repositories for the environment tests: main, a
// repository with a commit and a subdirectory; linked, a linked worktree of
// it; sepGit and sepWork, a git directory and its worktree apart from it,
// the worktree inside decoy, another repository.
type layout struct {
	base, main, linked, sepGit, sepWork, decoy string
}

func newLayout(t *testing.T) layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := layout{base: base, main: filepath.Join(base, "main"), linked: filepath.Join(base, "linked"),
		sepGit: filepath.Join(base, "sep.git"), decoy: filepath.Join(base, "decoy")}
	l.sepWork = filepath.Join(l.decoy, "work")
	for _, d := range []string{l.main, l.decoy} {
		gittest.Git(t, base, "init", "-q", "-b", "main", d)
		gittest.Commit(t, d, map[string]string{"f.txt": "x\n", "sub/g.txt": "y\n"})
	}
	gittest.Git(t, l.main, "worktree", "add", "-q", l.linked)
	gittest.WriteFile(t, l.sepWork, "sub/h.txt", "z\n")
	gittest.Git(t, base, "--git-dir="+l.sepGit, "--work-tree="+l.sepWork, "init", "-q", "-b", "main")
	gittest.Git(t, base, "--git-dir="+l.sepGit, "config", "--unset", "core.worktree")
	return l
}

func TestAttackOpenFollowsGitEnvironment(t *testing.T) {
	gittest.Isolate(t)
	type row struct {
		name string
		// prepare may change the layout; it returns the directory to open
		// (git's working directory) and the environment.
		prepare func(t *testing.T, l layout) (string, map[string]string)
		// refuse, when set, is what git-edit's refusal must say; git must
		// refuse too.
		refuse string
	}
	rows := []row{
		{"GIT_DIR and GIT_WORK_TREE", func(t *testing.T, l layout) (string, map[string]string) {
			return l.sepWork, map[string]string{"GIT_DIR": l.sepGit, "GIT_WORK_TREE": l.sepWork}
		}, ""},
		{"GIT_DIR alone: the working directory is the top", func(t *testing.T, l layout) (string, map[string]string) {
			return filepath.Join(l.sepWork, "sub"), map[string]string{"GIT_DIR": l.sepGit}
		}, ""},
		{"relative GIT_DIR and GIT_WORK_TREE", func(t *testing.T, l layout) (string, map[string]string) {
			return filepath.Join(l.sepWork, "sub"), map[string]string{"GIT_DIR": "../../../sep.git", "GIT_WORK_TREE": ".."}
		}, ""},
		{"GIT_DIR with core.worktree relative to it", func(t *testing.T, l layout) (string, map[string]string) {
			gittest.Git(t, l.base, "--git-dir="+l.sepGit, "config", "core.worktree", "../decoy/work")
			return filepath.Join(l.sepWork, "sub"), map[string]string{"GIT_DIR": l.sepGit}
		}, ""},
		{"core.worktree of a discovered repository", func(t *testing.T, l layout) (string, map[string]string) {
			gittest.Git(t, l.main, "config", "core.worktree", l.sepWork)
			return l.main, nil
		}, ""},
		{"GIT_WORK_TREE with a discovered git dir", func(t *testing.T, l layout) (string, map[string]string) {
			return filepath.Join(l.main, "sub"), map[string]string{"GIT_WORK_TREE": l.main}
		}, ""},
		{"GIT_DIR naming a linked worktree's .git file", func(t *testing.T, l layout) (string, map[string]string) {
			return l.linked, map[string]string{"GIT_DIR": filepath.Join(l.linked, ".git")}
		}, ""},
		{"GIT_COMMON_DIR naming the common dir", func(t *testing.T, l layout) (string, map[string]string) {
			return l.linked, map[string]string{"GIT_COMMON_DIR": filepath.Join(l.main, ".git")}
		}, ""},
		{"GIT_COMMON_DIR elsewhere", func(t *testing.T, l layout) (string, map[string]string) {
			// Without its commondir file the linked worktree's git dir is a
			// repository only through GIT_COMMON_DIR; git then reads refs
			// from the git dir and objects from GIT_COMMON_DIR.
			if err := os.Remove(filepath.Join(l.main, ".git", "worktrees", "linked", "commondir")); err != nil {
				t.Fatal(err)
			}
			return l.linked, map[string]string{"GIT_COMMON_DIR": filepath.Join(l.main, ".git")}
		}, "GIT_COMMON_DIR"},
		{"GIT_CEILING_DIRECTORIES stops the search", func(t *testing.T, l layout) (string, map[string]string) {
			return filepath.Join(l.sepWork, "sub"), map[string]string{"GIT_CEILING_DIRECTORIES": l.sepWork}
		}, "GIT_CEILING_DIRECTORIES"},
		{"GIT_DIR not a repository", func(t *testing.T, l layout) (string, map[string]string) {
			return l.main, map[string]string{"GIT_DIR": l.sepWork}
		}, "(from GIT_DIR)"},
		{"GIT_DIR naming a bare repository", func(t *testing.T, l layout) (string, map[string]string) {
			gittest.Git(t, l.base, "--git-dir="+l.sepGit, "config", "core.bare", "true")
			return l.sepWork, map[string]string{"GIT_DIR": l.sepGit}
		}, "bare repository"},
		{"core.bare in a discovered .git", func(t *testing.T, l layout) (string, map[string]string) {
			gittest.Git(t, l.main, "config", "core.bare", "true")
			return l.main, nil
		}, "bare repository"},
		{"GIT_OBJECT_DIRECTORY", func(t *testing.T, l layout) (string, map[string]string) {
			return l.main, map[string]string{"GIT_OBJECT_DIRECTORY": filepath.Join(l.base, "objects")}
		}, "GIT_OBJECT_DIRECTORY"},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			l := newLayout(t)
			dir, env := tt.prepare(t, l)
			for k, v := range env {
				t.Setenv(k, v)
			}
			before := gittest.TreeSnapshot(t, l.base)
			r, err := repo.Open(dir)
			if tt.name == "GIT_OBJECT_DIRECTORY" || tt.name == "GIT_COMMON_DIR elsewhere" {
				// git honours it and git-edit refuses it; there is no git
				// answer to compare.
				if err == nil || !strings.Contains(err.Error(), tt.refuse) {
					t.Fatalf("Open = %v, want a refusal naming %s", err, tt.refuse)
				}
				return
			}
			out, gitErr := gittest.GitHere(dir, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir")
			if tt.refuse != "" {
				if gitErr == nil {
					t.Fatalf("git accepts the case: %s", out)
				}
				if err == nil || !strings.Contains(err.Error(), tt.refuse) {
					t.Fatalf("Open = %v; git refuses (%s), and git-edit must too, saying %q", err, strings.TrimSpace(out), tt.refuse)
				}
				if !errors.Is(err, repo.ErrNotRepository) {
					t.Errorf("the refusal does not wrap ErrNotRepository: %v", err)
				}
			} else {
				if gitErr != nil {
					t.Fatalf("git rev-parse: %v\n%s", gitErr, out)
				}
				if err != nil {
					t.Fatalf("Open refused what git opens: %v", err)
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				common := lines[2]
				if !filepath.IsAbs(common) {
					common = filepath.Join(dir, common)
				}
				common, err = filepath.EvalSymlinks(common)
				if err != nil {
					t.Fatal(err)
				}
				got := []string{r.Top, r.GitDir, r.CommonDir}
				want := []string{lines[0], lines[1], common}
				for i, what := range []string{"Top", "GitDir", "CommonDir"} {
					if got[i] != want[i] {
						t.Errorf("%s = %s; git says %s", what, got[i], want[i])
					}
				}
			}
			if d := gittest.TreeDiff(before, gittest.TreeSnapshot(t, l.base)); d != "" {
				t.Errorf("Open (or git rev-parse) changed files:\n%s", d)
			}
		})
	}
}

func TestAttackWorktreeConfigIsReadWhereGitReadsIt(t *testing.T) {
	gittest.Isolate(t)
	tests := []struct {
		name string
		ext  bool
		// where writes config.worktree: "main" or "linked".
		where string
	}{
		{"main worktree, extension on", true, "main"},
		{"linked worktree, extension on", true, "linked"},
		{"main worktree, extension off", false, "main"},
		{"linked worktree, extension off", false, "linked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLayout(t)
			gittest.Git(t, l.main, "config", "edit.maxFileSize", "100")
			if tt.ext {
				gittest.Git(t, l.main, "config", "core.repositoryformatversion", "1")
				gittest.Git(t, l.main, "config", "extensions.worktreeConfig", "true")
			}
			gitDir := filepath.Join(l.main, ".git")
			if tt.where == "linked" {
				gitDir = filepath.Join(gitDir, "worktrees", "linked")
			}
			// Written by hand: `git config --worktree` refuses without the
			// extension, and a stale file is what the off rows are about.
			if err := os.WriteFile(filepath.Join(gitDir, "config.worktree"), []byte("[edit]\n\tmaxFileSize = 7\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{l.main, l.linked} {
				out, err := gittest.GitHere(d, "config", "--get", "edit.maxFileSize")
				if err != nil {
					t.Fatalf("git config: %v\n%s", err, out)
				}
				want := strings.TrimSpace(out)
				r, err := repo.Open(d)
				if err != nil {
					t.Fatal(err)
				}
				got, ok, err := r.ConfigValue("edit", "maxFileSize")
				if err != nil || !ok || got != want {
					t.Errorf("in %s: ConfigValue = %q, %v, %v; git config says %q", filepath.Base(d), got, ok, err, want)
				}
			}
		})
	}
}
