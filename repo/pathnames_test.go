package repo

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

var updateNames = flag.Bool("update-names", false, "rewrite testdata/pathnames.golden")

// nameCase is a worktree-relative path and whether git's name rules refuse
// it on every OS (all) and on Windows (win).
type nameCase struct {
	path     string
	all, win bool
}

// nameCases are the names of issue 24: other spellings of .git on NTFS and
// HFS+, Windows' reserved device names, trailing dots and spaces, streams
// and forbidden characters, with look-alikes that are fine.
var nameCases = []nameCase{
	// Other names of .git (refused everywhere).
	{".git.", true, true},
	{".git./config", true, true},
	{".git /config", true, true},
	{".GiT . ./hooks/pre-commit", true, true},
	{".git:stream", true, true},
	{".git::$INDEX_ALLOCATION/config", true, true},
	{"git~1/config", true, true},
	{"GIT~1/hooks/pre-commit", true, true},
	{"Git~1. /x", true, true},
	{"sub/GIT~1:x/y", true, true},
	{`sub\.git\config`, true, true},
	{`sub\git~1`, true, true},
	{".g\u200cit/config", true, true},
	{".\u200dgit/x", true, true},
	{".git\u200e/x", true, true},
	{"\ufeff.GIT/x", true, true},
	{".g\u202ai\u206ft/x", true, true},
	{"sub/.gi\u200ft", true, true},
	// Look-alikes git accepts everywhere.
	{".gitignore", false, false},
	{".github/workflows/ci.yml", false, false},
	{".gitx/y", false, false},
	{"git~2/x", false, false},
	{"git~1x", false, false},
	{"xgit~1", false, false},
	{".g\u00e9t/x", false, false},
	{".g\u200bit/x", false, false}, // U+200B is not one HFS+ ignores
	{"a/b/c.txt", false, false},
	{"sp ace/in side.txt", false, false},
	// Windows' rules (refused only there).
	{"CON", false, true},
	{"con", false, true},
	{"dir/nul.txt", false, true},
	{"AUX.tar.gz", false, true},
	{"prn  .md", false, true},
	{"COM1", false, true},
	{"com9.log", false, true},
	{"LPT0", false, true},
	{"lpt5:x", false, true},
	{"CONIN$", false, true},
	{"conout$.txt", false, true},
	{"NUL/x.txt", false, true},
	{"file.", false, true},
	{"file ", false, true},
	{"dir./x", false, true},
	{"dir /x", false, true},
	{"a...", false, true},
	{"a:b", false, true},
	{"file.txt:Zone.Identifier", false, true},
	{"a<b", false, true},
	{"a>b", false, true},
	{`say"hi"`, false, true},
	{"a|b", false, true},
	{"what?", false, true},
	{"star*", false, true},
	{"ctl\x01", false, true},
	{"tab\tname", false, true},
	// Look-alikes Windows accepts.
	{"CONSOLE.txt", false, false},
	{"NULL", false, false},
	{"COM0", false, false},
	{"COM10", false, false},
	{"LPT", false, false},
	{"aux_file.c", false, false},
	{"xcon", false, false},
	{"CONIN", false, false},
	{"a.b.c", false, false},
	{".hidden", false, false},
	{"dir/.x/y", false, false},
}

// TestPathNamesAsGitRefusesThem checks checkPathNames case by case, both
// rule sets, against the table, against the real git for the rules git
// applies on this system (git update-index refuses what verify_path
// refuses, with core.protectHFS on as on macOS), and the wording against
// testdata/pathnames.golden (rewrite with -update-names).
func TestPathNamesAsGitRefusesThem(t *testing.T) {
	dir := gittest.New(t)
	blob := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", "--stdin"))
	var golden strings.Builder
	for _, tc := range nameCases {
		for _, windows := range []bool{false, true} {
			err := checkPathNames(tc.path, tc.path, windows)
			want := tc.all || windows && tc.win
			if (err != nil) != want {
				t.Errorf("checkPathNames(%q, windows %v) = %v; want refused %v", tc.path, windows, err, want)
			}
			if err != nil && !errors.Is(err, ErrPathRefused) {
				t.Errorf("checkPathNames(%q) = %v, not an ErrPathRefused", tc.path, err)
			}
			if windows && tc.all {
				continue // the same message twice
			}
			verdict := "ok"
			if err != nil {
				verdict = err.Error()
			}
			fmt.Fprintf(&golden, "%s %q\n\t%s\n", map[bool]string{false: "all    ", true: "windows"}[windows], tc.path, verdict)
		}
		cmd := exec.Command("git", "-c", "core.protectHFS=true", "-c", "core.protectNTFS=true", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+tc.path)
		cmd.Dir = dir
		cmd.Env = gittest.Env()
		out, gitErr := cmd.CombinedOutput()
		if (gitErr != nil) != tc.all {
			t.Errorf("git update-index --add %q: %v %s; the table says refused everywhere: %v", tc.path, gitErr, out, tc.all)
		}
	}
	path := filepath.Join("testdata", "pathnames.golden")
	if *updateNames {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if golden.String() != string(want) {
		t.Errorf("the refusals differ from %s (rerun with -update-names and review the diff):\n%s", path, golden.String())
	}
}

// TestPathArgFormsOnWindows refuses, under Windows' rules only, a path
// relative to another drive's current directory and one rooted at the
// current drive, and passes full and relative paths.
func TestPathArgFormsOnWindows(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		says string
	}{
		{"C:file.txt", "current directory of drive C:"},
		{"d:", "current directory of drive d:"},
		{`\dir\file.txt`, "root of the current drive"},
		{"/dir/file.txt", "root of the current drive"},
		{`\`, "root of the current drive"},
	} {
		if err := checkArgForm(tc.arg, "windows"); !errors.Is(err, ErrPathRefused) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("checkArgForm(%q, windows) = %v; want a refusal saying %q", tc.arg, err, tc.says)
		}
		if err := checkArgForm(tc.arg, "linux"); err != nil {
			t.Errorf("checkArgForm(%q, linux) = %v; want no refusal", tc.arg, err)
		}
	}
	for _, arg := range []string{`C:\repo\file.txt`, "C:/repo/file.txt", `\\server\share\file.txt`, "//server/share/f", "dir/file.txt", "1:x"} {
		if err := checkArgForm(arg, "windows"); err != nil {
			t.Errorf("checkArgForm(%q, windows) = %v; want no refusal", arg, err)
		}
	}
}

// TestProtectNTFSConfigTurnsOffOnlyWindowsRules reads core.protectNTFS as
// git for Windows does: false drops the Windows rules; the other names of
// .git stay refused.
func TestProtectNTFSConfigTurnsOffOnlyWindowsRules(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "f\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer SetPathRulesOS("windows")()
	if _, err := r.Resolve(dir, "CON.txt"); !errors.Is(err, ErrPathRefused) {
		t.Fatalf("Resolve(CON.txt) under Windows' rules = %v; want refused", err)
	}
	gittest.Git(t, dir, "config", "core.protectNTFS", "false")
	if _, err := r.Resolve(dir, "CON.txt"); err != nil {
		t.Fatalf("Resolve(CON.txt) with core.protectNTFS=false = %v; want accepted, as git for Windows accepts it", err)
	}
	if _, err := r.Resolve(dir, "GIT~1/config"); !errors.Is(err, ErrPathRefused) {
		t.Fatalf("Resolve(GIT~1/config) with core.protectNTFS=false = %v; want still refused (git fsck: hasDotgit)", err)
	}
	gittest.Git(t, dir, "config", "core.protectNTFS", "maybe")
	if _, err := r.Resolve(dir, "f.txt"); !errors.Is(err, ErrBadConfig) {
		t.Fatalf("Resolve with core.protectNTFS=maybe = %v; want ErrBadConfig, as git refuses the value", err)
	}
}
