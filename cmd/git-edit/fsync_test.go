package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// syncCall matches one system call in strace's output (-y: the file each
// descriptor names) that makes data durable, or could stand in for one.
var syncCall = regexp.MustCompile(`\b(fsync|fdatasync|sync_file_range|syncfs|sync|msync)\((.*)`)

// TestEditFsyncsAtMostFive counts, with strace, the calls that make data
// durable in one cold `git-edit call` (a process of its own, as an agent
// runs it): at most five fsync or fdatasync, and none of the calls that
// would flush without being counted (syncfs, sync_file_range, sync,
// msync). The five are the pack, its index, the pack directory, the file
// and the ref's lock; see the README's "Power loss and crashes" for why
// the others are not needed. It counts; it never times.
func TestEditFsyncsAtMostFive(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (apt-get install strace): the fsync count needs it")
	}
	bin := filepath.Join(binDir(t), "git-edit")
	big := strings.Repeat("some line of a 50 KB file\n", 2000)
	tests := []struct {
		name  string
		warm  bool // an edit ran in the repository before
		tool  string
		args  string
		limit int
		check func(t *testing.T, dir string)
	}{
		{"str_replace", true, "text_editor", `{"command":"str_replace","path":"a/b/f.txt","old_str":"line 2\n","new_str":"line two\n"}`, 5,
			func(t *testing.T, dir string) {
				if !strings.Contains(gittest.ReadFile(t, dir, "a/b/f.txt"), "line two\n") {
					t.Error("the edit is not on disk")
				}
			}},
		{"create a file", true, "text_editor", `{"command":"create","path":"a/new.txt","file_text":"new\n"}`, 5,
			func(t *testing.T, dir string) {
				if gittest.ReadFile(t, dir, "a/new.txt") != "new\n" {
					t.Error("the new file is not on disk")
				}
			}},
		{"delete a file", true, "apply_patch", `{"input":"*** Begin Patch\n*** Delete File: a/b/f.txt\n*** End Patch"}`, 5,
			func(t *testing.T, dir string) {
				if _, err := os.Lstat(filepath.Join(dir, "a/b/f.txt")); !os.IsNotExist(err) {
					t.Errorf("a/b/f.txt is still there: %v", err)
				}
			}},
		{"50 KB file changed outside first (sync commit + edit, one pack)", true, "text_editor", `{"command":"str_replace","path":"big.txt","old_str":"a person's line","new_str":"a person's line, edited"}`, 5,
			func(t *testing.T, dir string) {
				if n := gittest.Git(t, dir, "rev-list", "--count", "HEAD..refs/edits/default"); strings.TrimSpace(n) != "3" {
					t.Errorf("want the warm-up edit, a sync commit and the edit, got %s commits", n)
				}
			}},
		// The very first edit in a repository writes git-edit's keep
		// template once (see repo.keepTemplate): one fsync more, once.
		{"first edit in a new repository", false, "text_editor", `{"command":"str_replace","path":"a/b/f.txt","old_str":"line 2\n","new_str":"line two\n"}`, 6, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a/b/f.txt": "line 1\nline 2\nline 3\n", "big.txt": big})
			call := func(trace string, tool, args string) {
				t.Helper()
				argv := []string{"call", tool}
				name := bin
				if trace != "" {
					argv = append([]string{"-f", "-qq", "-y", "-o", trace, "-e", "trace=fsync,fdatasync,sync_file_range,syncfs,sync,msync", bin}, argv...)
					name = strace
				}
				cmd := exec.Command(name, argv...)
				cmd.Dir = dir
				cmd.Env = gittest.Env()
				cmd.Stdin = strings.NewReader(args)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s %s: %v\n%s", tool, args, err, out)
				}
			}
			if tc.warm {
				call("", "text_editor", `{"command":"str_replace","path":"a/b/f.txt","old_str":"line 3","new_str":"line three"}`)
			}
			if strings.HasPrefix(tc.name, "50 KB") {
				os.WriteFile(filepath.Join(dir, "big.txt"), []byte("a person's line\n"+big), 0o644)
			}
			trace := filepath.Join(t.TempDir(), "strace.out")
			call(trace, tc.tool, tc.args)
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			var fsyncs, others []string
			for _, line := range strings.Split(string(b), "\n") {
				m := syncCall.FindStringSubmatch(line)
				if m == nil || strings.Contains(line, "resumed>") {
					continue
				}
				if m[1] == "fsync" || m[1] == "fdatasync" {
					fsyncs = append(fsyncs, line)
				} else {
					others = append(others, line)
				}
			}
			if len(fsyncs) > tc.limit || len(fsyncs) == 0 || len(others) > 0 {
				t.Errorf("%d fsync/fdatasync (limit %d), and %d other flushing calls:\n%s", len(fsyncs), tc.limit, len(others), strings.Join(append(fsyncs, others...), "\n"))
			}
			if tc.check != nil {
				tc.check(t, dir)
			}
			if out, err := gittest.GitErr(dir, "fsck", "--strict"); err != nil {
				t.Errorf("git fsck --strict: %v\n%s", err, out)
			}
		})
	}
}
