package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// startFreeOf are the modules the git-edit binary must not link: each
// lives in a companion program (git-edit-mcp, git-edit-secrets), because
// loading and initializing it cost every command's start (issue 28).
var startFreeOf = []string{"github.com/modelcontextprotocol/", "github.com/zricethezav/gitleaks/"}

// maxInitBytes bounds what the package initialization of `git-edit tools`
// allocates, as GODEBUG=inittrace=1 reports it: about 0.5 MB after issue
// 28 (2.3 MB before it: the matching ladder's regexes alone were 0.8 MB,
// gitleaks' dependencies and the MCP SDK most of the rest). Allocation,
// not time, so the test needs no clock; twice the measure, so a Go release
// does not break it, while any of those coming back does.
const maxInitBytes = 1 << 20

// TestStartDependencies pins what issue 28 took out of git-edit's start:
// its dependency graph has neither the MCP SDK nor gitleaks nor cgo (so
// the binary is static where Go makes it so), and its package
// initialization allocates less than maxInitBytes.
func TestStartDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "runtime/cgo" {
			t.Errorf("git-edit links runtime/cgo (os/user or net with cgo?): the C library's dynamic loading would cost every command's start; ask git, or use a pure Go way")
		}
		for _, mod := range startFreeOf {
			if strings.HasPrefix(pkg, mod) {
				t.Errorf("git-edit links %s: it belongs in a companion program (cmd/git-edit-mcp, cmd/git-edit-secrets), not in the binary every command starts", pkg)
			}
		}
	}

	bin := binDir(t)
	cmd := exec.Command(filepath.Join(bin, "git-edit"), "tools")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git-edit tools: %v\n%s", err, stderr.String())
	}
	type pkgInit struct {
		name  string
		bytes int
	}
	var inits []pkgInit
	total := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, N allocs
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		var n int
		if _, err := fmt.Sscan(f[7], &n); err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		inits = append(inits, pkgInit{f[1], n})
		total += n
	}
	if len(inits) < 50 {
		t.Fatalf("inittrace reported %d packages; the format changed?\n%s", len(inits), stderr.String())
	}
	if total > maxInitBytes {
		slices.SortFunc(inits, func(a, b pkgInit) int { return b.bytes - a.bytes })
		var top []string
		for _, p := range inits[:min(10, len(inits))] {
			top = append(top, fmt.Sprintf("%s %d", p.name, p.bytes))
		}
		t.Errorf("git-edit's package initialization allocates %d bytes, over %d; the most:\n%s\nmake a package-level value lazy (sync.OnceValue) or move what needs it into a companion", total, maxInitBytes, strings.Join(top, "\n"))
	}
	t.Logf("package initialization: %d packages, %d bytes", len(inits), total)
}
