package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// Issue 22 item 19b: record --hook-input took the whole shell command as
// the commit message, so a 5 MB heredoc made a 5 MB commit, reflog entry
// and log line. The subject and body are bounded and say how much was cut;
// the change itself is recorded whole.
func TestAttackRecordHookInputHugeCommand(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	gittest.WriteFile(t, dir, "a.txt", "a\nb\n")
	huge := "cat > a.txt <<'EOF'\n" + strings.Repeat("line of a heredoc that goes on\n", 5<<20/31) + "EOF"
	in, err := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": huge}})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, string(in), "record", "--session", "s", "--hook-input")
	tip := tipOf(t, dir)
	size, err := strconv.Atoi(strings.TrimSpace(gittest.Git(t, dir, "cat-file", "-s", tip)))
	if err != nil {
		t.Fatal(err)
	}
	if size > session.MaxSubject+session.MaxBody+4096 {
		t.Fatalf("the record's commit is %d bytes for a %d-byte command", size, len(huge))
	}
	subject := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", tip))
	if !strings.HasPrefix(subject, "cat > a.txt <<'EOF'") || len(subject) > session.MaxSubject {
		t.Fatalf("subject %.80q… (%d bytes)", subject, len(subject))
	}
	body := gittest.Git(t, dir, "log", "-1", "--format=%b", tip)
	if !strings.Contains(body, "bytes cut]") || !strings.Contains(body, "Edit-Op: record") {
		t.Fatalf("body does not say it was cut, or lost its trailers:\n%.300s", body)
	}
	if reflog := gittest.Git(t, dir, "reflog", "-1", "--format=%gs", "refs/edits/s"); len(reflog) > session.MaxSubject+1 {
		t.Fatalf("reflog entry of %d bytes", len(reflog))
	}
	if got := gittest.Git(t, dir, "show", tip+":a.txt"); got != "a\nb\n" {
		t.Fatalf("recorded a.txt = %q", got)
	}
	// One line of 2 MB: the subject is cut.
	gittest.WriteFile(t, dir, "a.txt", "c\n")
	long := "echo " + strings.Repeat("x", 2<<20) + " > a.txt"
	in, err = json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": long}})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, string(in), "record", "--session", "s", "--hook-input")
	subject = strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/s"))
	if !strings.HasPrefix(subject, "echo xxx") || !strings.HasSuffix(subject, "bytes cut]") || len(subject) > session.MaxSubject {
		t.Fatalf("subject %.80q… (%d bytes)", subject, len(subject))
	}
	gittest.Fsck(t, dir)
}

// Issue 23: Codex's PostToolUse hook after its own apply_patch sends the
// patch as the command, and the record's subject was its first line,
// "*** Begin Patch". The subject says what the patch did, in patch order,
// in every shape the patch comes in; the change is recorded whole.
func TestRecordHookInputApplyPatchSubject(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.go\n@@\n-package a\n+package a // edited\n*** Add File: b.go\n+package b\n*** Delete File: c.go\n*** Update File: d.go\n*** Move to: e.go\n*** End Patch\n"
	want := "apply_patch: update a.go, add b.go, delete c.go, move d.go to e.go"
	shapes := map[string]map[string]any{
		"command string": {"command": patch},
		"argv":           {"command": []string{"apply_patch", patch}},
		"shell heredoc":  {"command": []string{"bash", "-lc", "apply_patch <<'EOF'\n" + patch + "EOF\n"}},
		"freeform input": {"input": patch},
	}
	for name, toolInput := range shapes {
		t.Run(name, func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"a.go": "package a\n", "c.go": "package c\n", "d.go": "package d\n"})
			// What Codex's apply_patch did on disk, before its hook ran.
			gittest.WriteFile(t, dir, "a.go", "package a // edited\n")
			gittest.WriteFile(t, dir, "b.go", "package b\n")
			gittest.WriteFile(t, dir, "e.go", "package d\n")
			for _, f := range []string{"c.go", "d.go"} {
				if err := os.Remove(filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
			in, err := json.Marshal(map[string]any{
				"session_id": "019a", "transcript_path": "/tmp/rollout.jsonl", "cwd": dir,
				"hook_event_name": "PostToolUse", "model": "gpt-5-codex",
				"tool_name": "apply_patch", "tool_input": toolInput,
				"tool_response": "Success. Updated the following files:\nM a.go\nA b.go\nD c.go\nM e.go\n",
			})
			if err != nil {
				t.Fatal(err)
			}
			// As a hook, record reports on stderr (stdout is the host's).
			r := runCLI(t, string(in), "record", "--root", dir, "--session", "s", "--hook-input")
			if r.code != 0 || r.stdout != "" {
				t.Fatalf("record --hook-input: %+v", r)
			}
			out := r.stderr
			tip := tipOf(t, dir)
			if subject := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", tip)); subject != want {
				t.Fatalf("subject %q, want %q; record printed:\n%s", subject, want, out)
			}
			if !strings.Contains(out, "] "+want+"\n") {
				t.Fatalf("record printed:\n%s", out)
			}
			if got := gittest.Git(t, dir, "diff", "--no-renames", "--name-status", "HEAD", tip); got != "M\ta.go\nA\tb.go\nD\tc.go\nD\td.go\nA\te.go\n" {
				t.Fatalf("recorded:\n%s", got)
			}
			gittest.Fsck(t, dir)
		})
	}
	// Text that only looks like a patch's start keeps its own first line.
	got, err := hookCommand(strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"echo '*** Begin Patch' > notes.txt"}}`))
	if err != nil || got != "echo '*** Begin Patch' > notes.txt" {
		t.Fatalf("hookCommand = %q, %v", got, err)
	}
}
