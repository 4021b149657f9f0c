package repo_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
)

// StatusPaths names what git status names, each path once, with the
// names as they are (spaces, newlines, non-ASCII): modified, staged
// (a staged rename as both paths), deleted, untracked; not ignored files,
// not an untracked nested repository; pathspecs narrow it.
func TestStatusPaths(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c d.txt": "c\n", "sub/e.txt": "e\n", "mv.txt": "m\n", ".gitignore": "*.log\n"})
	gittest.WriteFile(t, dir, "a.txt", "a2\n")
	gittest.WriteFile(t, dir, "b.txt", "b2\n")
	gittest.Git(t, dir, "add", "b.txt")
	gittest.WriteFile(t, dir, "b.txt", "b3\n") // staged and changed again
	os.Remove(filepath.Join(dir, "c d.txt"))
	gittest.Git(t, dir, "mv", "mv.txt", "moved.txt")
	gittest.WriteFile(t, dir, "new\nline.txt", "n\n")
	gittest.WriteFile(t, dir, "sub/ünï.txt", "u\n")
	gittest.WriteFile(t, dir, "x.log", "ignored\n")
	gittest.Git(t, filepath.Join(dir, "sub"), "init", "-q", "nested")
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.StatusPaths(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"a.txt", "b.txt", "c d.txt", "moved.txt", "mv.txt", "new\nline.txt", "sub/ünï.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("StatusPaths = %q, want %q", got, want)
	}
	got, err = r.StatusPaths(context.Background(), []string{"sub", "a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"a.txt", "sub/ünï.txt"}; !slices.Equal(got, want) {
		t.Errorf("StatusPaths(sub, a.txt) = %q, want %q", got, want)
	}
	// Literal pathspecs: "*.txt" names no file.
	if got, err = r.StatusPaths(context.Background(), []string{"*.txt"}); err != nil || len(got) != 0 {
		t.Errorf("StatusPaths(*.txt) = %q, %v; want nothing", got, err)
	}
}

// StatusPaths names every untracked file under a new directory, in the
// person's mode of untracked files ("normal", where git names the
// directory, and "all"), without the ignored ones, a nested repository
// or git-edit's temporary files in it; a pathspec into the directory
// narrows it to what it names.
func TestStatusPathsUntrackedDirectories(t *testing.T) {
	for _, mode := range []string{"", "normal", "all"} {
		t.Run("showUntrackedFiles="+mode, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", ".gitignore": "*.log\n"})
			if mode != "" {
				gittest.Git(t, dir, "config", "status.showUntrackedFiles", mode)
			}
			gittest.WriteFile(t, dir, "new/x/y/z.txt", "z\n")
			gittest.WriteFile(t, dir, "new/w.txt", "w\n")
			gittest.WriteFile(t, dir, "new/x/skip.log", "ignored\n")
			gittest.WriteFile(t, dir, "new/x/.w.txt.git-edit-0a1b2c3d4e5f", "temporary\n")
			gittest.WriteFile(t, dir, "new/x/.w.txt.git-edit-kept-0a1b2c3d4e5f", "kept after a crash\n")
			gittest.WriteFile(t, dir, "new/x/.w.txt.git-edit-kept-notakeptname", "the agent's\n")
			gittest.WriteFile(t, dir, "other/o.txt", "o\n")
			gittest.Git(t, filepath.Join(dir, "new"), "init", "-q", "nested")
			gittest.WriteFile(t, dir, "new/nested/in.txt", "in a nested repository\n")
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				specs []string
				want  []string
			}{
				{nil, []string{"new/w.txt", "new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt", "other/o.txt"}},
				{[]string{"new/x"}, []string{"new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt"}},
				{[]string{"new/x/y/z.txt", "a.txt"}, []string{"new/x/y/z.txt"}},
				{[]string{"new"}, []string{"new/w.txt", "new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt"}},
				{[]string{"new/nested"}, nil},
				// Paths as a person may write them, cleaned first.
				{[]string{"./new/x/"}, []string{"new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt"}},
				{[]string{"new//x/y/"}, []string{"new/x/y/z.txt"}},
				{[]string{"./other"}, []string{"other/o.txt"}},
				{[]string{"."}, []string{"new/w.txt", "new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt", "other/o.txt"}},
				{[]string{"new/x", ""}, []string{"new/w.txt", "new/x/.w.txt.git-edit-kept-notakeptname", "new/x/y/z.txt", "other/o.txt"}},
			} {
				got, err := r.StatusPaths(context.Background(), c.specs)
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				if !slices.Equal(got, c.want) {
					t.Errorf("StatusPaths(%q) = %q, want %q", c.specs, got, c.want)
				}
			}
		})
	}
}

// A path left unmerged by a merge (both changed it, or one deleted it)
// that the person then replaced by a directory: in the "normal" mode git
// names only the path, never the files under it; StatusPaths names them, as
// "all" does.
func TestStatusPathsUnmergedPathNowADirectory(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"both.txt": "1\n", "gone.txt": "1\n", "kept.txt": "1\n"})
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	gittest.WriteFile(t, dir, "both.txt", "other\n")
	gittest.WriteFile(t, dir, "gone.txt", "other\n")
	gittest.Git(t, dir, "rm", "-q", "kept.txt")
	gittest.Git(t, dir, "commit", "-q", "-am", "other")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.WriteFile(t, dir, "both.txt", "main\n")
	gittest.WriteFile(t, dir, "kept.txt", "main\n")
	gittest.Git(t, dir, "rm", "-q", "gone.txt")
	gittest.Git(t, dir, "commit", "-q", "-am", "main")
	if _, err := gittest.GitErr(dir, "merge", "-q", "other"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "UU both.txt\nUD gone.txt\nDU kept.txt\n" &&
		got != "UU both.txt\nDU gone.txt\nUD kept.txt\n" {
		t.Fatalf("the merge left %q, not the three conflicts this test is about", got)
	}
	for _, f := range []string{"both.txt", "gone.txt", "kept.txt"} {
		if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
		gittest.WriteFile(t, dir, f+"/in.txt", "a directory now\n")
	}
	got := statusPaths(t, dir)
	want := []string{"both.txt", "both.txt/in.txt", "gone.txt", "gone.txt/in.txt", "kept.txt", "kept.txt/in.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("StatusPaths = %q, want %q", got, want)
	}
	if all := statusAll(t, dir); !slices.Equal(all, want) {
		t.Fatalf("git status -uall names %q, want %q", all, want)
	}
}

// A tracked file the index tells git not to look at (assume-unchanged,
// skip-worktree) is not seen: git status names no change to it in any
// mode, and when a directory replaced it, "normal" names nothing of the
// directory, so StatusPaths does not either (where "all" would name its
// files). Finding those directories would mean reading the whole index on
// every question (63 MB at Chromium scale); the README says so.
func TestStatusPathsSeesNothingOfFilesGitIsToldNotToCheck(t *testing.T) {
	for _, flag := range []string{"--assume-unchanged", "--skip-worktree"} {
		t.Run(flag, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"changed.txt": "a\n", "dir.txt": "b\n", "seen.txt": "c\n"})
			gittest.Git(t, dir, "update-index", flag, "changed.txt", "dir.txt")
			gittest.WriteFile(t, dir, "changed.txt", "changed\n")
			if err := os.Remove(filepath.Join(dir, "dir.txt")); err != nil {
				t.Fatal(err)
			}
			gittest.WriteFile(t, dir, "dir.txt/in.txt", "in\n")
			gittest.WriteFile(t, dir, "seen.txt", "changed\n")
			if got, want := statusPaths(t, dir), []string{"seen.txt"}; !slices.Equal(got, want) {
				t.Fatalf("StatusPaths = %q, want %q", got, want)
			}
			if got, want := statusAll(t, dir), []string{"dir.txt/in.txt", "seen.txt"}; !slices.Equal(got, want) {
				t.Fatalf("git status -uall names %q, want %q (git changed: this test's premise)", got, want)
			}
		})
	}
}

// StatusPaths asks git a second question only when the first one left
// files unnamed: not for a nested repository (git names it, never its
// files, in every mode), never in the "all" mode (the first question named
// every file), and many nested repositories never make it fall back to a
// walk of everything. git's trace2 counts the questions.
func TestStatusPathsAsksAgainOnlyWhenFilesAreUnnamed(t *testing.T) {
	for _, c := range []struct {
		name      string
		setup     func(t *testing.T, dir string)
		bound     int
		questions int
		want      []string
	}{
		{"an untracked directory", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "u/v.txt", "v\n")
		}, 100, 2, []string{"u/v.txt"}},
		{"a nested repository", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "init", "-q", "nested")
			gittest.WriteFile(t, dir, "nested/in.txt", "in\n")
		}, 100, 1, nil},
		{"nested repositories past the bound", func(t *testing.T, dir string) {
			for _, n := range []string{"n1", "n2", "n3"} {
				gittest.Git(t, dir, "init", "-q", n)
			}
		}, 2, 1, nil},
		{"a .git directory that is no repository", func(t *testing.T, dir string) {
			gittest.WriteFile(t, dir, "fake/.git/HEAD", "ref: refs/heads/main\n")
			gittest.WriteFile(t, dir, "fake/in.txt", "in\n")
		}, 100, 2, []string{"fake/in.txt"}}, // git never names what is in a .git
		{"mode all, a deleted file now a directory", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "status.showUntrackedFiles", "all")
			os.Remove(filepath.Join(dir, "a.txt"))
			gittest.WriteFile(t, dir, "a.txt/in.txt", "in\n")
			gittest.Git(t, dir, "init", "-q", "nested")
		}, 100, 1, []string{"a.txt", "a.txt/in.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
			c.setup(t, dir)
			trace := filepath.Join(t.TempDir(), "trace2")
			t.Setenv("GIT_TRACE2_EVENT", trace)
			defer repo.SetMaxUntrackedSpecs(c.bound)()
			got := statusPaths(t, dir)
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("GIT_TRACE2_EVENT", "")
			if !slices.Equal(got, c.want) {
				t.Fatalf("StatusPaths = %q, want %q", got, c.want)
			}
			if all := statusAll(t, dir); !slices.Equal(all, c.want) {
				t.Fatalf("git status -uall names %q, want %q", all, c.want)
			}
			if n := strings.Count(string(b), `"argv":["git","--no-optional-locks"`); n != c.questions {
				t.Fatalf("StatusPaths asked git status %d times, want %d:\n%s", n, c.questions, b)
			}
		})
	}
}

// Thousands of untracked directories (a build's output, not ignored) are
// asked about in one walk, not as thousands of pathspecs: those would cost
// git a match of every path against each (seconds) and, past about 2 MB,
// overflow the command line (E2BIG). Here 9,000 directories with long
// names make 2.3 MB of pathspecs.
func TestStatusPathsManyUntrackedDirectories(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "deep/b.txt": "b\n"})
	long := strings.Repeat("d", 240)
	var want []string
	for i := range 9000 {
		name := fmt.Sprintf("deep/%s%05d", long, i) // beside a tracked file: each is named
		if err := os.MkdirAll(filepath.Join(dir, name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "f"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name+"/f")
	}
	slices.Sort(want)
	for _, specs := range [][]string{nil, {"deep"}, {"a.txt", "deep/"}} {
		if got := statusPaths(t, dir, specs...); !slices.Equal(got, want) {
			t.Fatalf("StatusPaths(%q) names %d paths, want the %d files", specs, len(got), len(want))
		}
	}
}

// statusPaths is what StatusPaths names in dir with pathspecs, sorted.
func statusPaths(t *testing.T, dir string, pathspecs ...string) []string {
	t.Helper()
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.StatusPaths(context.Background(), pathspecs)
	if err != nil {
		t.Fatalf("StatusPaths(%q): %v", pathspecs, err)
	}
	slices.Sort(got)
	return got
}

// statusAll is what `git status --untracked-files=all` names in dir, sorted,
// read as StatusPaths reads it: the reference StatusPaths must agree with.
func statusAll(t *testing.T, dir string, pathspecs ...string) []string {
	t.Helper()
	args := append([]string{"--no-optional-locks", "--literal-pathspecs", "status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all", "--"}, pathspecs...)
	all, _, _, err := repo.ParseStatusV2([]byte(gittest.Git(t, dir, args...)))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(all)
	return all
}

// StatusPaths asks in the mode the person's untracked cache was made for,
// so that git uses the cache and opens no directory it knows unchanged:
// git's trace2 counts the directories it opened ("opendir"), and reports
// no count at all when it walked without the cache.
func TestStatusPathsUsesTheUntrackedCache(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("d%d/e%d/f.txt", i%8, i)] = "f\n"
	}
	for _, mode := range []string{"normal", "all"} {
		t.Run(mode, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, files)
			gittest.Git(t, dir, "config", "core.untrackedCache", "true")
			gittest.Git(t, dir, "config", "status.showUntrackedFiles", mode)
			gittest.WriteFile(t, dir, "d1/new.txt", "new\n")
			// Directories changed in the second the index is written are
			// racy to git's cache, which then opens them all: these were
			// made an hour ago, as a person's are.
			hourAgo := time.Now().Add(-time.Hour)
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					err = os.Chtimes(p, hourAgo, hourAgo)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			// The person's: the first makes the cache, the second finds
			// it complete and marks it so; both write it into the index.
			gittest.Git(t, dir, "status")
			gittest.Git(t, dir, "status")
			r, err := repo.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			trace := filepath.Join(t.TempDir(), "trace2")
			t.Setenv("GIT_TRACE2_PERF", trace)
			got, err := r.StatusPaths(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"d1/new.txt"}; !slices.Equal(got, want) {
				t.Errorf("StatusPaths = %q, want %q", got, want)
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`opendir:(\d+)`).FindSubmatch(b)
			if m == nil {
				t.Fatalf("git status walked without the untracked cache (no opendir count in its trace2):\n%s", b)
			}
			if n, _ := strconv.Atoi(string(m[1])); n > 2 {
				t.Errorf("git status opened %d directories, want at most 2 (the cache knows the 49 others unchanged)", n)
			}
		})
	}
}

// StatusPaths in the "normal" mode (with the directories it names asked
// again, and deleted files that became directories) names exactly what
// `git status --untracked-files=all` names: random worktrees of new
// directories, deletions, files turned into directories and back, ignored
// files and nested repositories, each compared with git's own answer.
func TestStatusPathsAgreesWithUntrackedAll(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(uint64(seed), 0))
	names := []string{"a", "b", "c.txt", "d", "e.log", "f g"}
	randPath := func() string {
		parts := make([]string, 1+rnd.IntN(3))
		for i := range parts {
			parts[i] = names[rnd.IntN(len(names))]
		}
		return strings.Join(parts, "/")
	}
	// A pathspec as a person may write it: a path, a directory's slash,
	// "./" before it, a slash doubled; sometimes the whole worktree.
	randSpec := func() (written, clean string) {
		p := randPath()
		if rnd.IntN(8) == 0 {
			p = names[rnd.IntN(len(names))]
		}
		written = p
		switch rnd.IntN(6) {
		case 0:
			written = p + "/"
		case 1:
			written = "./" + p
		case 2:
			written = strings.Replace(p, "/", "//", 1)
		case 3:
			if rnd.IntN(4) == 0 {
				return ".", ""
			}
		}
		return written, p
	}
	for round := range 60 {
		files := map[string]string{".gitignore": "*.log\n"}
		dirs := []string{"a", "b", "d", "f g"} // never a file's name
		for range 6 {
			parts := make([]string, 1+rnd.IntN(3))
			for i := range parts {
				parts[i] = dirs[rnd.IntN(len(dirs))]
			}
			files[strings.Join(parts, "/")+".c"] = "x\n"
		}
		files["c.txt"], files["d/x.txt"] = "c\n", "x\n"
		dir := gittest.NewWithCommit(t, files)
		conflict := ""
		if rnd.IntN(3) == 0 {
			conflict = mergeConflict(t, dir, rnd)
			if rnd.IntN(2) == 0 { // a conflicted path replaced by a directory
				p := filepath.Join(dir, []string{"c.txt", "d/x.txt"}[rnd.IntN(2)])
				os.RemoveAll(p)
				os.MkdirAll(p, 0o777)
				os.WriteFile(filepath.Join(p, "in.c"), []byte("in\n"), 0o644)
			}
		}
		for range 1 + rnd.IntN(6) {
			p := filepath.Join(dir, filepath.FromSlash(randPath()))
			switch rnd.IntN(5) {
			case 0, 1: // a new file, perhaps in new directories
				if os.MkdirAll(filepath.Dir(p), 0o777) == nil {
					os.WriteFile(p, []byte("new\n"), 0o644)
				}
			case 2: // a file or directory removed, perhaps replaced by the other
				os.RemoveAll(p)
				if rnd.IntN(2) == 0 {
					if os.MkdirAll(p, 0o777) == nil {
						os.WriteFile(filepath.Join(p, "in.c"), []byte("in\n"), 0o644)
					}
				} else if os.MkdirAll(filepath.Dir(p), 0o777) == nil {
					os.WriteFile(p, []byte("file\n"), 0o644)
				}
			case 3: // a tracked file changed
				for f := range files {
					os.WriteFile(filepath.Join(dir, f), []byte("changed\n"), 0o644)
					break
				}
			case 4: // a nested repository
				if os.MkdirAll(p, 0o777) == nil {
					exec.Command("git", "init", "-q", p).Run()
					os.WriteFile(filepath.Join(p, "n.c"), []byte("n\n"), 0o644)
				}
			}
		}
		var written, clean []string
		if rnd.IntN(2) == 0 {
			for range 1 + rnd.IntN(3) {
				w, c := randSpec()
				written = append(written, w)
				if c == "" {
					clean = nil // the whole worktree
					break
				}
				clean = append(clean, c)
			}
			if slices.Contains(written, ".") {
				clean = nil
			}
		}
		r, err := repo.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		few := rnd.IntN(2) == 0 // the second question asks of everything past one directory
		bound := 100
		if few {
			bound = 1
		}
		restore := repo.SetMaxUntrackedSpecs(bound)
		got, err := r.StatusPaths(context.Background(), written)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		want := statusAll(t, dir, clean...)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (seed %d, conflict %q, bound 1: %v): StatusPaths(%q) = %q, git status -uall -- %q names %q\n%s", round, seed, conflict, few, written, got, clean, want, gittest.Git(t, dir, "status", "--porcelain", "-uall"))
		}
	}
}

// mergeConflict leaves dir (made by the test above, with c.txt and
// d/x.txt) in a merge that stopped on conflicts: both sides changed
// c.txt, or one deleted it, and likewise d/x.txt. It returns what git
// status says of them.
func mergeConflict(t *testing.T, dir string, rnd *rand.Rand) string {
	t.Helper()
	side := func(branch string) {
		for _, f := range []string{"c.txt", "d/x.txt"} {
			if rnd.IntN(3) == 0 {
				gittest.Git(t, dir, "rm", "-q", f)
			} else {
				gittest.WriteFile(t, dir, f, branch+"\n")
				gittest.Git(t, dir, "add", f)
			}
		}
		gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", branch)
	}
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	side("other")
	gittest.Git(t, dir, "checkout", "-q", "main")
	side("main")
	gittest.GitErr(dir, "merge", "-q", "other") // fails on a conflict, as wanted; a clean merge is fine too
	return gittest.Git(t, dir, "status", "--porcelain")
}
