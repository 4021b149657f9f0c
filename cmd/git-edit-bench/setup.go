package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// cached returns dir, made by gen first unless it is there already, and
// says which it was and how long generating took. gen writes beside dir,
// renamed into place when done, so an interrupted run never leaves a half
// made repository that the next run would take as done.
func cached(dir string, gen func(string) error) (string, string, error) {
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err == nil {
		return dir, "cached in " + dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
		return "", "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+"-tmp-")
	if err != nil {
		return "", "", err
	}
	start := time.Now()
	if err := gen(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", "", err
	}
	took := time.Since(start).Round(100 * time.Millisecond)
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", "", fmt.Errorf("cache the generated repository: %w", err)
	}
	return dir, fmt.Sprintf("generated in %s, cached in %s", took, dir), nil
}

// copyRepo copies a cached repository, worktree and all, to a new place
// and refreshes its index there: the copy's files have new inodes and
// times, which git would otherwise re-hash inside the first measured run.
// The pack files (never written again once made: git and git-edit write a
// new pack and delete an old one) are hard links to the cache's, so a
// copy of git's 500 MB pack costs nothing; every other file is copied.
func copyRepo(from, to string) error {
	if _, err := os.Stat(to); err == nil {
		return fmt.Errorf("%s exists: give -out an empty or new directory", to)
	}
	if err := copyTree(from, to); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	// update-index exits 1 when it finds changes: there must be none.
	_, err := packtest.Git(to, nil, "update-index", "-q", "--refresh")
	return err
}

// packFile reports whether rel (a slash path in a worktree) is a file of a
// pack that copyTree links rather than copies.
func packFile(rel string) bool {
	dir, name := path.Split(rel)
	if dir != ".git/objects/pack/" {
		return false
	}
	switch path.Ext(name) {
	case ".pack", ".idx", ".rev", ".bitmap", ".mtimes":
		return true
	}
	return false
}

// copyTree copies the directory from to to (which must not exist): files
// with their mode and modification time, symbolic links as links, and the
// pack files as hard links (copied where a link cannot be made, as across
// file systems).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Mkdir(dst, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case !d.Type().IsRegular():
			return nil // sockets and the like: nothing git keeps
		case packFile(filepath.ToSlash(rel)):
			if os.Link(p, dst) == nil {
				return nil
			}
		}
		return copyFile(p, dst, info)
	})
}

// copyFile copies one regular file with its mode and modification time.
func copyFile(from, to string, info fs.FileInfo) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err = errors.Join(err, dst.Close()); err != nil {
		return err
	}
	return os.Chtimes(to, info.ModTime(), info.ModTime())
}

// prepareHistory commits the files the history rows edit (histPaths files
// in histDirs directories that the session edits in turn, newFiles the
// first-edit row takes one each run) and builds a session "hist" of edits
// on them with real MCP calls (buildSession).
func prepareHistory(dir, bin string, edits, newFiles int) error {
	var paths []string
	for i := range histPaths {
		// Spread over directories, as a project's files are.
		paths = append(paths, fmt.Sprintf("%s/d%d/h%02d.txt", histDir, i%histDirs, i))
	}
	var all []string
	all = append(all, paths...)
	for i := range newFiles {
		all = append(all, fmt.Sprintf("%s/n%04d.txt", newDir, i))
	}
	for _, p := range all {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, p), histFile(0), 0o644); err != nil {
			return err
		}
	}
	if _, err := packtest.Git(dir, nil, "add", histDir, newDir); err != nil {
		return err
	}
	if _, err := packtest.Git(dir, nil, "commit", "-q", "-m", "the history benchmark's files"); err != nil {
		return err
	}
	if _, err := buildSession(dir, bin, "hist", edits, paths); err != nil {
		return err
	}
	// git-edit must read it as a session of that many edits.
	cmd := exec.Command(bin, "log", "-n", "1", "--session", "hist")
	cmd.Dir, cmd.Env = dir, packtest.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git-edit log of the built session: %w\n%s", err, out)
	}
	cmd = exec.Command(bin, "sessions", "--json")
	cmd.Dir, cmd.Env = dir, packtest.Env()
	if out, err = cmd.Output(); err != nil {
		return fmt.Errorf("git-edit sessions: %w", err)
	}
	var list []struct {
		Session string
		Edits   int
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return fmt.Errorf("git-edit sessions --json: %w\n%s", err, out)
	}
	if len(list) != 1 || list[0].Session != "hist" || list[0].Edits != edits {
		return fmt.Errorf("git-edit sessions does not read the built session as %d edits:\n%s", edits, out)
	}
	return nil
}

// companions are the programs git-edit runs for some of its commands
// (see ops/companion): a build of git-edit has them beside it.
var companions = []string{"git-edit-mcp", "git-edit-secrets"}

// build compiles git-edit into bin, and its companions beside it, from the
// module this command belongs to, as `go install ./cmd/...` lays them out.
func build(bin string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	dir := filepath.Dir(bin)
	pkgs := []string{"./cmd/git-edit"}
	for _, c := range companions {
		pkgs = append(pkgs, "./cmd/"+c)
	}
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(os.PathSeparator)}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, out)
	}
	if built := filepath.Join(dir, "git-edit"+exeSuffix()); built != bin {
		if err := os.Rename(built, bin); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	return nil
}

// besideBin checks that git-edit's companions are beside bin (built there,
// or a -bin build to compare), and makes them the ones every git-edit the benchmark
// starts runs, whatever GIT_EDIT_EXEC_PATH the person has set: a
// measurement of one build must not run another's companions.
func besideBin(bin string) error {
	dir := filepath.Dir(bin)
	for _, c := range companions {
		if _, err := os.Stat(filepath.Join(dir, c+exeSuffix())); err != nil {
			return fmt.Errorf("-bin %s: its companion %s is not beside it (%w); build them all there: go build -o %s%c ./cmd/git-edit ./cmd/%s", bin, c, err, dir, os.PathSeparator, strings.Join(companions, " ./cmd/"))
		}
	}
	return os.Setenv("GIT_EDIT_EXEC_PATH", dir)
}

// exeSuffix is what a program's file name ends with on this system.
func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

func moduleRoot() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return "", errors.New("run from inside the git-edit checkout")
	}
	return root, nil
}

// buildHello compiles the smallest Go program that prints: the floor of
// starting a Go process, which `git-edit tools` is compared with.
func buildHello(bin string) error {
	dir, err := os.MkdirTemp("", "git-edit-bench-hello-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"go.mod":  "module hello\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build hello: %w\n%s", err, out)
	}
	return nil
}

func objectCount(dir string) string {
	out, err := packtest.Git(dir, nil, "count-objects", "-v")
	if err != nil {
		return "? objects"
	}
	var loose, packed, packs, size string
	for line := range strings.Lines(out) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ": ")
		switch k {
		case "count":
			loose = v
		case "in-pack":
			packed = v
		case "packs":
			packs = v
		case "size-pack":
			size = v
		}
	}
	return fmt.Sprintf("%s objects in %s pack(s) of %s KiB, %s loose", packed, packs, size, loose)
}
