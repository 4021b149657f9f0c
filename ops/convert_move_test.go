package ops_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// moveByHand is what a person sees after the same move made by hand in a
// copy of the repository at dir (taken before the session): `git mv from
// to`, the new bytes written to to, `git add to`, `git diff --cached
// HEAD`.
func moveByHand(t *testing.T, copyDir, from, to string, content []byte) string {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(filepath.Join(copyDir, to)), 0o755))
	gittest.Git(t, copyDir, "mv", from, to)
	fi, err := os.Lstat(filepath.Join(copyDir, to))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, to), content, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, copyDir, "add", "--", to)
	return gittest.Git(t, copyDir, "diff", "--cached", "HEAD")
}

// copyRepo copies the repository at dir, worktree and .git, keeping modes.
func copyRepo(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	return dst
}

// TestMoveRecordsWhatGitMvRecords: apply_patch's "*** Move to:" of a
// converted file, an executable file, a file whose mode git ignores
// (core.fileMode false) and a link kept as a plain file (core.symlinks
// false): the moved file on disk holds the bytes the patch gives, in the
// worktree's convention, with the mode git mv keeps; the session records
// what `git mv` + `git add` records; undo of both paths puts the exact
// bytes back.
func TestMoveRecordsWhatGitMvRecords(t *testing.T) {
	gittest.Isolate(t)
	cases := []struct {
		name       string
		config     [][2]string
		attributes string
		setup      func(t *testing.T, dir string) // makes src, before the commit
		src, dst   string
		hunk       string // "" moves the file unchanged
		want       string // dst on disk afterwards
		wantMode   string // dst's mode in the session's tree
	}{
		{
			name:   "core.autocrlf=true",
			config: [][2]string{{"core.autocrlf", "true"}},
			setup:  func(t *testing.T, dir string) { gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n") },
			src:    "a.txt", dst: "b.txt",
			hunk:     "@@\n-two\n+TWO\n+new\n",
			want:     "one\r\nTWO\r\nnew\r\n",
			wantMode: "100644",
		},
		{
			name:       "eol=crlf to a path without it",
			attributes: "*.txt text eol=crlf\n",
			setup:      func(t *testing.T, dir string) { gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n") },
			src:        "a.txt", dst: "a.md",
			hunk:     "@@\n-two\n+TWO\n",
			want:     "one\r\nTWO\r\n",
			wantMode: "100644",
		},
		{
			name:       "clean/smudge filter",
			config:     [][2]string{{"filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m"}, {"filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m"}},
			attributes: "*.txt filter=rot13\n",
			setup:      func(t *testing.T, dir string) { gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n") },
			src:        "a.txt", dst: "sub/b.txt",
			hunk:     "@@\n-two\n+TWO\n",
			want:     "one\nTWO\n",
			wantMode: "100644",
		},
		{
			name: "an executable file",
			setup: func(t *testing.T, dir string) {
				gittest.WriteFile(t, dir, "run.sh", "#!/bin/sh\necho hi\n")
				must(t, os.Chmod(filepath.Join(dir, "run.sh"), 0o755))
			},
			src: "run.sh", dst: "bin/run.sh",
			hunk:     "@@\n-echo hi\n+echo hello\n",
			want:     "#!/bin/sh\necho hello\n",
			wantMode: "100755",
		},
		{
			name:   "core.fileMode=false, recorded executable",
			config: [][2]string{{"core.fileMode", "false"}},
			setup: func(t *testing.T, dir string) {
				gittest.WriteFile(t, dir, "run.sh", "#!/bin/sh\necho hi\n")
				gittest.Git(t, dir, "add", "run.sh")
				gittest.Git(t, dir, "update-index", "--chmod=+x", "run.sh")
			},
			src: "run.sh", dst: "run2.sh",
			want:     "#!/bin/sh\necho hi\n",
			wantMode: "100755",
		},
		{
			name:   "core.symlinks=false, a link kept as a plain file",
			config: [][2]string{{"core.symlinks", "false"}},
			setup: func(t *testing.T, dir string) {
				gittest.WriteFile(t, dir, "target.txt", "x\n")
				// What a checkout without symlinks leaves: a plain file
				// holding the target, recorded as a link.
				gittest.WriteFile(t, dir, "link", "target.txt")
				blob := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", "link"))
				gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "120000,"+blob+",link")
			},
			src: "link", dst: "link2",
			want:     "target.txt",
			wantMode: "120000",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t)
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			if tc.attributes != "" {
				gittest.WriteFile(t, dir, ".gitattributes", tc.attributes)
			}
			tc.setup(t, dir)
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
			if tc.name != "core.symlinks=false, a link kept as a plain file" {
				must(t, os.Remove(filepath.Join(dir, tc.src)))
				gittest.Git(t, dir, "checkout", "--", tc.src)
			}
			if st := gittest.Status(t, dir); st != "" {
				t.Fatalf("git status before the session:\n%s", st)
			}
			original := gittest.ReadFile(t, dir, tc.src)
			fi, err := os.Stat(filepath.Join(dir, tc.src))
			must(t, err)
			copyDir := copyRepo(t, dir)

			e := openEngine(t, dir)
			engineCall(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: " + tc.src + "\n*** Move to: " + tc.dst + "\n" + tc.hunk + "*** End Patch"})
			if got := gittest.ReadFile(t, dir, tc.dst); got != tc.want {
				t.Fatalf("%s on disk %q, want %q", tc.dst, got, tc.want)
			}
			moved, err := os.Stat(filepath.Join(dir, tc.dst))
			must(t, err)
			if moved.Mode().Perm()&0o111 != fi.Mode().Perm()&0o111 {
				t.Errorf("%s has mode %v on disk; %s had %v, which git mv keeps", tc.dst, moved.Mode(), tc.src, fi.Mode())
			}
			if ls := gittest.Git(t, dir, "ls-tree", "refs/edits/s", "--", tc.dst); !strings.HasPrefix(ls, tc.wantMode+" ") {
				t.Errorf("the session records %q, want mode %s", ls, tc.wantMode)
			}
			if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), moveByHand(t, copyDir, tc.src, tc.dst, []byte(tc.want)); got != hand {
				t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git mv + git add show for the same move:\n%s", got, hand)
			}
			if log := gittest.Git(t, dir, "log", "--format=%B", "HEAD..refs/edits/s"); strings.Contains(log, "Edit-Op: sync") || strings.Contains(log, "Edit-Raw") {
				t.Errorf("the session's history:\n%s", log)
			}
			engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": tc.dst})
			engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": tc.src})
			if got := gittest.ReadFile(t, dir, tc.src); got != original {
				t.Errorf("after undo %s holds %q, want %q", tc.src, got, original)
			}
			if st := gittest.Status(t, dir); st != "" {
				t.Errorf("git status after undo:\n%s", st)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestMoveOfLinkFileKeepsItsTarget: a link kept as a plain file (core.symlinks
// false) may be moved, not retargeted: a move that also changes its text is
// refused as an edit of it is, and nothing changes.
func TestMoveOfLinkFileKeepsItsTarget(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "core.symlinks", "false")
	gittest.WriteFile(t, dir, "target.txt", "x\n")
	gittest.WriteFile(t, dir, "link", "target.txt")
	blob := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", "link"))
	gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "120000,"+blob+",link")
	gittest.Git(t, dir, "add", "target.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	e := openEngine(t, dir)
	before := observe(t, dir)
	callRefused(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: link\n*** Move to: link2\n@@\n-target.txt\n+elsewhere.txt\n*** End Patch"},
		`link is a symbolic link to "target.txt"`)
	if after := observe(t, dir); after != before {
		t.Errorf("the refusal changed something:\n%s\nwas:\n%s", after, before)
	}
}

// TestMoveOfRawFile: a file whose bytes git's conversion does not give
// back (mixed line endings under core.autocrlf), moved with a change: the
// new path holds the exact bytes the patch gives and is recorded
// unconverted (Edit-Raw); undo of both paths puts the person's exact
// bytes back.
func TestMoveOfRawFile(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	gittest.WriteFile(t, dir, "a.txt", "one\ntwo\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
	const person = "one\r\ntwo\r\nthree\nfour\r\n"
	gittest.WriteFile(t, dir, "a.txt", person)
	e := openEngine(t, dir)
	engineCall(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-two\n+TWO\n*** End Patch"})
	const want = "one\r\nTWO\r\nthree\nfour\r\n"
	if got := gittest.ReadFile(t, dir, "b.txt"); got != want {
		t.Fatalf("b.txt on disk %q, want %q", got, want)
	}
	if got := gittest.Git(t, dir, "cat-file", "blob", "refs/edits/s:b.txt"); got != want {
		t.Errorf("the session records %q for b.txt, want the bytes unconverted", got)
	}
	if raw := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Raw,valueonly)", "refs/edits/s"); strings.TrimSpace(raw) != "b.txt" {
		t.Errorf("Edit-Raw of the move: %q, want b.txt", raw)
	}
	engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": "b.txt"})
	engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": "a.txt"})
	if got := gittest.ReadFile(t, dir, "a.txt"); got != person {
		t.Errorf("after undo a.txt holds %q, want the person's bytes %q", got, person)
	}
	if got := gittest.ReadFile(t, dir, "b.txt"); got != gittest.Missing {
		t.Errorf("after undo b.txt holds %q", got)
	}
	gittest.Fsck(t, dir)
}
