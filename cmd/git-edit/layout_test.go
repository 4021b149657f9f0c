package main

import (
	"go/build"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is this repository's module path; layout tests read its packages.
const module = "github.com/git-edit/git-edit/"

// The card's top level: these folders and files, plus dot-files and an
// optional LICENSE, and nothing else (issue 21).
var cardTopLevel = []string{"cmd", "repo", "ops", "undo", "diffview", "testdata", "go.mod", "go.sum", "README.md", "LICENSE"}

// TestTopLevelIsTheCards: what git tracks at the top of the repository is
// the card's rooms and files, so a newcomer who reads the card finds them.
func TestTopLevelIsTheCards(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		top, _, _ := strings.Cut(p, "/")
		if strings.HasPrefix(top, ".") || seen[top] {
			continue
		}
		seen[top] = true
		if !slices.Contains(cardTopLevel, top) {
			t.Errorf("%s is at the top level; the card names only %s: move it into one of those rooms", top, strings.Join(cardTopLevel, ", "))
		}
	}
	for _, want := range cardTopLevel {
		if want != "LICENSE" && !seen[want] {
			t.Errorf("the card's %s is missing at the top level", want)
		}
	}
}

// packages returns every Go package directory of the module, relative to
// its top, with the module packages its non-test files import.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		var mine []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				mine = append(mine, strings.TrimPrefix(imp, module))
			}
		}
		pkgs[filepath.ToSlash(rel)] = mine
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// room is the layer a package belongs to, highest first: cmd, the
// operation layer (package ops), the history questions (undo), the session
// layer (repo/session), the plumbing (repo and below). The rooms under
// ops/ (the dialects, their contract, the text primitives) are pure: they
// sit beside the layers, importing only each other and diffview.
func room(pkg string) (rank int, pure bool) {
	switch {
	case strings.HasPrefix(pkg, "cmd/"):
		return 5, false
	case pkg == "ops":
		return 4, false
	case pkg == "undo", pkg == "ops/share":
		return 3, false
	case pkg == "repo/session":
		return 2, false
	case pkg == "repo" || strings.HasPrefix(pkg, "repo/"):
		return 1, false
	case strings.HasPrefix(pkg, "ops/"):
		return 0, true
	default: // diffview
		return 0, false
	}
}

// TestImportsPointDown: no package imports one of a layer above it, the
// pure rooms under ops/ import nothing that touches git, and the commands
// (git-edit, its companion git-edit-mcp and the pieces they share under
// cmd/internal) reach only the layer below them (ops and repo/session)
// and each other's shared pieces, never the plumbing, undo or diffview
// directly. (git-edit-secrets is the one program that runs a room below:
// it serves ops/share/secrets' scan.)
func TestImportsPointDown(t *testing.T) {
	pkgs := packages(t)
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages: %v", len(pkgs), pkgs)
	}
	for pkg, imports := range pkgs {
		rank, pure := room(pkg)
		for _, imp := range imports {
			irank, ipure := room(imp)
			switch {
			case commands(pkg) && imp != "ops" && imp != "repo/session" && !strings.HasPrefix(imp, "cmd/internal/"):
				t.Errorf("%s imports %s: the commands reach only ops and repo/session; have the layer below name what they need", pkg, imp)
			case pure && !ipure && imp != "diffview":
				t.Errorf("%s imports %s: the rooms under ops/ are pure and import only each other and diffview", pkg, imp)
			case !pure && !ipure && irank > rank:
				t.Errorf("%s imports %s, a layer above it", pkg, imp)
			}
		}
	}
}

// commands reports the packages held to reaching only ops and repo/session
// (and cmd/internal): git-edit, git-edit-mcp and what they share.
func commands(pkg string) bool {
	return pkg == "cmd/git-edit" || pkg == "cmd/git-edit-mcp" || strings.HasPrefix(pkg, "cmd/internal/")
}

// TestReadmeLayoutMatchesTheTree: the README's Layout table names every
// package folder in its first column, and every folder it names exists.
func TestReadmeLayoutMatchesTheTree(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	i := strings.Index(s, "\n## Layout\n")
	if i < 0 {
		t.Fatal("README has no Layout section")
	}
	section := s[i+1:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	named := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| (`[^|]*`) \\|")
	folder := regexp.MustCompile("`([a-z][a-z0-9_/-]*)`")
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		for _, f := range folder.FindAllStringSubmatch(m[1], -1) {
			named[f[1]] = true
		}
	}
	for f := range named {
		if st, err := os.Stat(filepath.Join("../..", f)); err != nil || !st.IsDir() {
			t.Errorf("the README's Layout table names %s, which is not a folder", f)
		}
	}
	for pkg := range packages(t) {
		// A package is covered by its own row or by a row of a folder
		// above it inside a room (ops/texteditor covers its internal/
		// packages); a room's own row does not cover the rooms inside it.
		covered := false
		for f := pkg; f != "." && !covered; f = filepath.Dir(f) {
			covered = named[f] && (f == pkg || strings.Contains(f, "/"))
		}
		if !covered {
			t.Errorf("the README's Layout table has no row for %s", pkg)
		}
	}
	if !named["testdata"] {
		t.Error("the README's Layout table has no row for testdata")
	}
}
