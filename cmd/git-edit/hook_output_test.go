package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// Issue 23: run as a host's hook, `record --hook-input` printed its report
// ("[codex 1a2b3c4] sed …") on stdout, the channel on which hosts read the
// hook's JSON answer. Codex takes a stdout starting with "[" for JSON,
// fails to parse it, and reports "hook: PostToolUse Failed" after every
// recorded command; Gemini CLI's contract is "JSON or nothing on stdout".
// As a hook, record keeps stdout empty and reports on stderr; the record
// itself is unchanged.
func TestRecordHookInputKeepsStdoutForTheHost(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"b.txt": "x marks the spot\n", "c.txt": "one\ntwo\n"})
	hook := func(event, tool string, input map[string]any, before bool) cliResult {
		t.Helper()
		raw, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": event,
			"tool_name": tool, "tool_input": input, "tool_response": "Process exited with code 0"})
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"record", "--root", dir, "--session", "codex", "--hook-input"}
		if before {
			args = append(args, "--before")
		}
		r := runCLI(t, string(raw), args...)
		if r.code != 0 {
			t.Fatalf("%s hook: exit %d\nstdout %s\nstderr %s", event, r.code, r.stdout, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%s hook of %s wrote %q on stdout, the host's JSON channel; want nothing there", event, tool, r.stdout)
		}
		return r
	}
	sed := map[string]any{"command": "sed -i 's/x/y/' b.txt"}
	gittest.WriteFile(t, dir, "c.txt", "one\ntwo\nmine\n") // the person's change, before the command
	if r := hook("PreToolUse", "Bash", sed, true); !strings.Contains(r.stderr, "[codex ") {
		t.Errorf("the sync of the person's change is not reported on stderr: %q", r.stderr)
	}
	gittest.WriteFile(t, dir, "b.txt", "y marks the spot\n") // what sed did
	r := hook("PostToolUse", "Bash", sed, false)
	if !strings.Contains(r.stderr, "[codex ") || !strings.Contains(r.stderr, "sed -i 's/x/y/' b.txt") || !strings.Contains(r.stderr, "1 file changed") {
		t.Errorf("the record is not reported on stderr: %q", r.stderr)
	}
	if got := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", "refs/edits/codex")); got != "sed -i 's/x/y/' b.txt" {
		t.Errorf("recorded as %q", got)
	}
	if r := hook("PostToolUse", "Bash", sed, false); !strings.Contains(r.stderr, "nothing to record") {
		t.Errorf("nothing to record is not said on stderr: %q", r.stderr)
	}
	// Without --hook-input, record prints on stdout as git commit does.
	gittest.WriteFile(t, dir, "b.txt", "z marks the spot\n")
	if r := runCLI(t, "", "record", "--root", dir, "--session", "codex", "-m", "by hand"); r.code != 0 || !strings.Contains(r.stdout, "[codex ") {
		t.Errorf("record -m: exit %d, stdout %q", r.code, r.stdout)
	}
	gittest.Fsck(t, dir)
}
