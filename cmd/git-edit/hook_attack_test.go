package main

import (
	"encoding/json"
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
