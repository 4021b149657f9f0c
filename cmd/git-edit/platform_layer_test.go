package main

import (
	"go/build"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// platformRooms are the packages whose files may call the operating system
// directly: the platform layer in repo (and the pack index's memory map
// below it), the commands where one needs a terminal or signals (and the
// benchmark its peak memory; cmd/internal/clikit names the signals that
// end git-edit and git-edit-mcp; git-edit runs git-edit-mcp in its place),
// and the test helpers, which read files' owners (repo/gittest is not
// linked into git-edit, and cannot ask repo: repo's own tests import it).
var platformRooms = []string{"repo", "repo/packidx", "repo/gittest", "cmd/git-edit", "cmd/git-edit-bench", "cmd/internal/clikit"}

// osPackages are the imports that reach the operating system's own calls.
var osPackages = []string{"syscall", "golang.org/x/sys/unix", "golang.org/x/sys/windows"}

// targets are the systems git-edit builds for (.ci/run builds and vets
// each).
var targets = []struct{ goos, goarch string }{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"},
	{"freebsd", "amd64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

// TestOnlyThePlatformLayerCallsTheOS: a non-test file that imports syscall,
// x/sys/unix or x/sys/windows lives in a platform room and is built for
// some of the targets only (a _GOOS file name or a //go:build line), so
// everything above it is the same code on every system, and a file that
// reaches for one system's calls cannot slip into the portable part.
func TestOnlyThePlatformLayerCallsTheOS(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*.go").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	checked := 0
	for _, file := range strings.Fields(string(out)) {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "../../"+file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		calls := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); slices.Contains(osPackages, p) {
				calls = p
			}
		}
		if calls == "" {
			continue
		}
		checked++
		if !slices.Contains(platformRooms, path.Dir(file)) {
			t.Errorf("%s imports %s: only the platform layer (%s) may; add a primitive there", file, calls, strings.Join(platformRooms, ", "))
			continue
		}
		everywhere := true
		for _, tg := range targets {
			if !builtFor(t, file, tg.goos, tg.goarch) {
				everywhere = false
			}
		}
		if everywhere {
			t.Errorf("%s imports %s but is built for every system; name it for its system (_linux.go, _windows.go, …) or give it a //go:build line", file, calls)
		}
	}
	if checked == 0 {
		t.Fatal("no file imports the OS packages: the layer's files were not found")
	}
}

// builtFor reports whether go builds file (relative to the module's top)
// for goos/goarch without extra tags, by go/build's own rules (the file
// name's _GOOS/_GOARCH, its //go:build line, "unix").
func builtFor(t *testing.T, file, goos, goarch string) bool {
	t.Helper()
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.BuildTags, ctx.CgoEnabled = goos, goarch, nil, false
	ok, err := ctx.MatchFile("../../"+path.Dir(file), path.Base(file))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}
