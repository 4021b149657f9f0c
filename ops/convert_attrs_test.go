package ops_test

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// TestAgentEditsAttributes: the agent changes .gitattributes in its
// session, then edits a file the new rule governs: the next edit uses the
// new rule, the session's diff from HEAD is what `git add` of both files
// shows, and undo of the file puts back its exact bytes. (The file is
// first recorded again by a sync commit in the form the new rule stores,
// as `git add --renormalize` would: its recorded blob no longer checks out
// to the bytes on disk.)
func TestAgentEditsAttributes(t *testing.T) {
	gittest.Isolate(t)
	cases := []struct {
		name         string
		config       [][2]string
		attributes   string // committed
		newAttrs     string // the agent's .gitattributes
		file, edited string // a.txt as checked out, and after the agent's edit
		oneCall      bool   // both changes in one apply_patch
	}{
		{
			name:       "a filter added",
			config:     [][2]string{{"filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m"}, {"filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m"}},
			attributes: "*.md text\n",
			newAttrs:   "*.md text\n*.txt filter=rot13\n",
			file:       "one\ntwo\n",
			edited:     "one\nTWO\n",
		},
		{
			name:       "eol=crlf removed",
			attributes: "*.txt text eol=crlf\n",
			newAttrs:   "*.md text\n",
			file:       "one\r\ntwo\r\n",
			edited:     "one\r\nTWO\r\n",
		},
		{
			name:       "a filter added, in the same call",
			config:     [][2]string{{"filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m"}, {"filter.rot13.smudge", "tr A-Za-z N-ZA-Mn-za-m"}},
			attributes: "*.md text\n",
			newAttrs:   "*.md text\n*.txt filter=rot13\n",
			file:       "one\ntwo\n",
			edited:     "one\nTWO\n",
			oneCall:    true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.oneCall {
				// Known, not fixed yet: the objects are stored (git
				// hash-object --path reads the attribute files on disk)
				// before the call writes any file, so a.txt is recorded
				// under the old .gitattributes: the plain blob, which the
				// new filter=rot13 would smudge to other text. See the
				// report of branch r13 for the fix proposed.
				t.Skip("a .gitattributes change and a file it governs in one call: the file is recorded under the old attributes")
			}
			dir := gittest.New(t)
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			gittest.WriteFile(t, dir, ".gitattributes", tc.attributes)
			gittest.WriteFile(t, dir, "a.txt", tc.file)
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "person's commit")
			gittest.Git(t, dir, "rm", "-q", "--cached", "-r", ".")
			gittest.Git(t, dir, "reset", "-q", "--hard")
			if got := gittest.ReadFile(t, dir, "a.txt"); got != tc.file {
				t.Fatalf("checked out %q", got)
			}
			e := openEngine(t, dir)
			attrPatch := "*** Update File: .gitattributes\n@@\n" + patchLines("-", tc.attributes) + patchLines("+", tc.newAttrs)
			filePatch := "*** Update File: a.txt\n@@\n-two\n+TWO\n"
			if tc.oneCall {
				engineCall(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n" + attrPatch + filePatch + "*** End Patch"})
			} else {
				engineCall(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n" + attrPatch + "*** End Patch"})
				engineCall(t, e, "apply_patch", map[string]any{"input": "*** Begin Patch\n" + filePatch + "*** End Patch"})
			}
			if got := gittest.ReadFile(t, dir, "a.txt"); got != tc.edited {
				t.Fatalf("a.txt on disk %q, want %q", got, tc.edited)
			}
			if got, hand := gittest.Git(t, dir, "diff", "HEAD", "refs/edits/s"), gittest.AddedByHand(t, dir, "."); got != hand {
				t.Errorf("git diff HEAD refs/edits/s:\n%s\nwhat git add shows:\n%s", got, hand)
			}
			engineCall(t, e, "text_editor", map[string]any{"command": "undo_edit", "path": "a.txt"})
			if got := gittest.ReadFile(t, dir, "a.txt"); got != tc.file {
				t.Errorf("after undo a.txt holds %q, want %q", got, tc.file)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// patchLines prefixes every line of text with p.
func patchLines(p, text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(p + l)
		}
	}
	return b.String()
}
