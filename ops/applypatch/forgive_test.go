package applypatch

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// forgiveCase is one patch that Codex's grammar or ladder refuses, or
// applies wrongly, and that git-edit applies: the files after it, byte for
// byte, the result text after the list of files, and the Edit-Match
// trailer's entries (dialect.Plan.Matched).
type forgiveCase struct {
	name    string
	files   map[string]string
	patch   string
	want    map[string]string // the files after
	result  string            // the whole success text
	matched []string
}

// planned parses and plans patch against files, failing t on a refusal,
// and returns the files after, the success text and the trailer entries.
func planned(t *testing.T, patch string, files map[string]string) (map[string]string, string, []string) {
	t.Helper()
	in := map[string][]byte{}
	for k, v := range files {
		in[k] = []byte(v)
	}
	p, err := Parse(patch)
	if err != nil {
		t.Fatalf("Parse refused: %v", err)
	}
	changes, sum, err := Plan(p, state(p, in))
	if err != nil {
		t.Fatalf("Plan refused: %v", err)
	}
	out := map[string]string{}
	for k, v := range applyChanges(t, in, changes) {
		out[k] = string(v)
	}
	return out, sum.Text(), sum.Matched()
}

func runForgiveCases(t *testing.T, tests []forgiveCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, result, matched := planned(t, tt.patch, tt.files)
			if !maps.Equal(got, tt.want) {
				t.Errorf("files after:\n%q\nwant:\n%q", got, tt.want)
			}
			if result != tt.result {
				t.Errorf("result:\n%s\nwant:\n%s", result, tt.result)
			}
			if !slices.Equal(matched, tt.matched) {
				t.Errorf("Matched = %q\nwant      %q", matched, tt.matched)
			}
		})
	}
}

// TestForgiveReindent_CopilotIssue267547: a hunk that matches only with
// its leading whitespace ignored has its added lines re-indented the way
// the match was (Codex writes them as sent: VS Code Copilot Chat's
// microsoft/vscode#267547, a 6-space YAML list given 4-space items), and
// its context lines keep the file's bytes.
func TestForgiveReindent_CopilotIssue267547(t *testing.T) {
	const reindented = "; its added lines were re-indented as the file indents the lines they follow."
	runForgiveCases(t, []forgiveCase{
		{
			name:  "copilot#267547 6-space YAML list, hunk sent 2 spaces short",
			files: map[string]string{"ci.yaml": "services:\n  web:\n    environment:\n      - A=1\n      - B=2\n"},
			patch: "*** Begin Patch\n*** Update File: ci.yaml\n@@\n   environment:\n     - A=1\n-    - B=2\n+    - B=3\n+    - C=4\n*** End Patch",
			want:  map[string]string{"ci.yaml": "services:\n  web:\n    environment:\n      - A=1\n      - B=3\n      - C=4\n"},
			result: "Success. Updated the following files:\nM ci.yaml\n" +
				"Hunk 1 of ci.yaml matched at line 3 ignoring leading whitespace on 3 lines" + reindented + "\n",
			matched: []string{"indentation: hunk 1 of ci.yaml at line 3, leading whitespace on 3 lines"},
		},
		{
			name:  "copilot#267547 hunk sent over-indented: YAML mapping under a list item, offset removed",
			files: map[string]string{"k.yaml": "spec:\n  containers:\n  - name: app\n    image: app:1\n"},
			patch: "*** Begin Patch\n*** Update File: k.yaml\n@@\n     - name: app\n-      image: app:1\n+      image: app:2\n+      ports:\n+        - 80\n*** End Patch",
			want:  map[string]string{"k.yaml": "spec:\n  containers:\n  - name: app\n    image: app:2\n    ports:\n      - 80\n"},
			result: "Success. Updated the following files:\nM k.yaml\n" +
				"Hunk 1 of k.yaml matched at line 3 ignoring leading whitespace on 2 lines" + reindented + "\n",
			matched: []string{"indentation: hunk 1 of k.yaml at line 3, leading whitespace on 2 lines"},
		},
		{
			name:  "aider 2-space hunk in a 4-space Python file, scaled",
			files: map[string]string{"a.py": "class A:\n    def f(self):\n        return 1\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@\n class A:\n   def f(self):\n-    return 1\n+    x = 1\n+    if x:\n+      return x\n*** End Patch",
			want:  map[string]string{"a.py": "class A:\n    def f(self):\n        x = 1\n        if x:\n            return x\n"},
			result: "Success. Updated the following files:\nM a.py\n" +
				"Hunk 1 of a.py matched at line 1 ignoring leading whitespace on 2 lines" + reindented + "\n",
			matched: []string{"indentation: hunk 1 of a.py at line 1, leading whitespace on 2 lines"},
		},
		{
			name:  "OpenHands tab-indented Go file, hunk sent with 4 spaces",
			files: map[string]string{"f.go": "func f() int {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"},
			patch: "*** Begin Patch\n*** Update File: f.go\n@@\n     if x {\n-        return 1\n+        y := 2\n+        return y\n*** End Patch",
			want:  map[string]string{"f.go": "func f() int {\n\tif x {\n\t\ty := 2\n\t\treturn y\n\t}\n\treturn 0\n}\n"},
			result: "Success. Updated the following files:\nM f.go\n" +
				"Hunk 1 of f.go matched at line 2 ignoring leading whitespace on 2 lines" + reindented + "\n",
			matched: []string{"indentation: hunk 1 of f.go at line 2, leading whitespace on 2 lines"},
		},
		{
			name:  "aider per-line offsets: the replacement stands where the removed line stood",
			files: map[string]string{"t.py": "def f(x):\n    if x:\n        return 1\n    return 0\n"},
			patch: "*** Begin Patch\n*** Update File: t.py\n@@\n if x:\n-return 1\n+    y = x * 2\n+    return y\n*** End Patch",
			want:  map[string]string{"t.py": "def f(x):\n    if x:\n        y = x * 2\n        return y\n    return 0\n"},
			result: "Success. Updated the following files:\nM t.py\n" +
				"Hunk 1 of t.py matched at line 2 ignoring leading whitespace on 2 lines" + reindented + "\n",
			matched: []string{"indentation: hunk 1 of t.py at line 2, leading whitespace on 2 lines"},
		},
		{
			name:  "codex str::trim: no-break-space indentation ops/match cannot re-indent: added lines as sent, and said so",
			files: map[string]string{"n.txt": "\u00a0\u00a0x = 1\ny\n"},
			patch: "*** Begin Patch\n*** Update File: n.txt\n@@\n-x = 1\n+x = 2\n y\n*** End Patch",
			want:  map[string]string{"n.txt": "x = 2\ny\n"},
			result: "Success. Updated the following files:\nM n.txt\n" +
				"Hunk 1 of n.txt matched at line 1 ignoring leading whitespace on 1 line; its added lines were written as sent (their indentation could not be adapted to the file's: check them).\n",
			matched: []string{"indentation: hunk 1 of n.txt at line 1, leading whitespace on 1 line"},
		},
		{
			name:   "codex exact match: added lines written as sent, nothing said",
			files:  map[string]string{"e.py": "if x:\n    a = 1\n"},
			patch:  "*** Begin Patch\n*** Update File: e.py\n@@\n if x:\n-    a = 1\n+  a = 2\n*** End Patch",
			want:   map[string]string{"e.py": "if x:\n  a = 2\n"},
			result: "Success. Updated the following files:\nM e.py\n",
		},
		{
			name:  "codex punctuation rung: an added line repeating a removed one keeps the file's curly quotes",
			files: map[string]string{"q.md": "  say “hi”\n  end\n"},
			patch: "*** Begin Patch\n*** Update File: q.md\n@@\n-say \"hi\"\n+say \"hi\"\n+say \"bye\"\n end\n*** End Patch",
			want:  map[string]string{"q.md": "  say “hi”\n  say \"bye\"\n  end\n"},
			result: "Success. Updated the following files:\nM q.md\n" +
				"Hunk 1 of q.md matched at line 1 ignoring leading whitespace on 1 line and typographic punctuation (curly quotes, dashes, Unicode spaces) on 1 line" + reindented + "\n",
			matched: []string{"unicode: hunk 1 of q.md at line 1, leading whitespace on 1 line and typographic punctuation (curly quotes, dashes, Unicode spaces) on 1 line"},
		},
	})
}

// TestForgiveLooserPatches: patches Codex's grammar refuses, read the way
// other tools read them (each case names the peer), with the result and
// the trailer saying what was read loosely.
func TestForgiveLooserPatches(t *testing.T) {
	const ok = "Success. Updated the following files:\n"
	runForgiveCases(t, []forgiveCase{
		{
			name:    "OpenHands/aider context lines without their leading space",
			files:   map[string]string{"m.py": "import os\nimport sys\n\ndef main():\n    pass\n"},
			patch:   "*** Begin Patch\n*** Update File: m.py\n@@\nimport os\nimport sys\n\ndef main():\n-    pass\n+    print(os.getcwd())\n*** End Patch",
			want:    map[string]string{"m.py": "import os\nimport sys\n\ndef main():\n    print(os.getcwd())\n"},
			result:  ok + "M m.py\nHunk 1 of m.py matched at line 1 ignoring a missing leading space on 3 context lines.\n",
			matched: []string{"patch: hunk 1 of m.py at line 1, a missing leading space on 3 context lines"},
		},
		{
			name:    "aider hunks out of file order",
			files:   map[string]string{"o.txt": "a\nb\nc\nd\n"},
			patch:   "*** Begin Patch\n*** Update File: o.txt\n@@\n c\n-d\n+D\n@@\n-a\n+A\n b\n*** End Patch",
			want:    map[string]string{"o.txt": "A\nb\nc\nD\n"},
			result:  ok + "M o.txt\nHunk 2 of o.txt matched at line 1. It was found before the lines of the hunk before it (the hunks were out of file order).\n",
			matched: []string{"patch: hunk 2 of o.txt at line 1, the hunks out of file order"},
		},
		{
			name:    "Roo/Cline '@@' without a following space",
			files:   map[string]string{"g.py": "def f():\n    x = 1\ndef g():\n    x = 1\n"},
			patch:   "*** Begin Patch\n*** Update File: g.py\n@@def g():\n-    x = 1\n+    x = 2\n*** End Patch",
			want:    map[string]string{"g.py": "def f():\n    x = 1\ndef g():\n    x = 2\n"},
			result:  ok + "M g.py\nRead leniently: '@@' without a space before its header on 1 line was read as '@@ header'.\n",
			matched: []string{"patch: '@@' without a space before its header on 1 line was read as '@@ header'"},
		},
		{
			name:    "codex shell call: bash -lc, then apply_patch <<'PATCH' ... PATCH",
			files:   map[string]string{"h.txt": "a\n"},
			patch:   "bash -lc\napply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: h.txt\n@@\n-a\n+b\n*** End Patch\nPATCH\n",
			want:    map[string]string{"h.txt": "b\n"},
			result:  ok + "M h.txt\nRead leniently: the patch was unwrapped from its shell command and heredoc.\n",
			matched: []string{"patch: the patch was unwrapped from its shell command and heredoc"},
		},
		{
			name:    "codex#cat heredoc inside bash -lc quotes: cat <<\"EOF\" ... EOF'",
			files:   map[string]string{"h.txt": "a\n"},
			patch:   "bash -lc 'cat <<\"EOF\"\n*** Begin Patch\n*** Update File: h.txt\n@@\n-a\n+b\n*** End Patch\nEOF'",
			want:    map[string]string{"h.txt": "b\n"},
			result:  ok + "M h.txt\nRead leniently: the patch was unwrapped from its shell command and heredoc.\n",
			matched: []string{"patch: the patch was unwrapped from its shell command and heredoc"},
		},
		{
			name:    "aider unified diff: ---/+++/@@ -a,b +c,d @@, line numbers ignored",
			files:   map[string]string{"src/u.c": "int a;\nint b;\nint c;\n"},
			patch:   "--- a/src/u.c\n+++ b/src/u.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+long b;\n int c;\n",
			want:    map[string]string{"src/u.c": "int a;\nlong b;\nint c;\n"},
			result:  ok + "M src/u.c\nRead leniently: the patch was read as a unified diff (---/+++/@@ -a,b +c,d @@) and its '@@' line numbers ignored, each hunk searched for after the previous one as in an apply_patch patch.\n",
			matched: []string{"patch: the patch was read as a unified diff (---/+++/@@ -a,b +c,d @@) and its '@@' line numbers ignored, each hunk searched for after the previous one as in an apply_patch patch"},
		},
		{
			name:  "git diff --git: a new file, a change, a deletion, \\ No newline at end of file",
			files: map[string]string{"keep.txt": "one\ntwo", "old.txt": "gone\n"},
			patch: "diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\n" +
				"diff --git a/keep.txt b/keep.txt\nindex 2222222..3333333 100644\n--- a/keep.txt\n+++ b/keep.txt\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+TWO\n\\ No newline at end of file\n" +
				"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex 4444444..0000000\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n",
			want:    map[string]string{"new.txt": "x\ny\n", "keep.txt": "one\nTWO"},
			result:  ok + "A new.txt\nM keep.txt\nD old.txt\nRead leniently: the patch was read as a unified diff (---/+++/@@ -a,b +c,d @@) and its '@@' line numbers ignored, each hunk searched for after the previous one as in an apply_patch patch.\n",
			matched: []string{"patch: the patch was read as a unified diff (---/+++/@@ -a,b +c,d @@) and its '@@' line numbers ignored, each hunk searched for after the previous one as in an apply_patch patch"},
		},
		{
			name:    "unified file headers and '@@ -a,b +c,d @@' inside an apply_patch envelope",
			files:   map[string]string{"e.txt": "p\nq\n"},
			patch:   "*** Begin Patch\n--- a/e.txt\n+++ b/e.txt\n@@ -1,2 +1,2 @@\n p\n-q\n+Q\n*** End Patch",
			want:    map[string]string{"e.txt": "p\nQ\n"},
			result:  ok + "M e.txt\nRead leniently: its unified diff file headers ('--- a/x', '+++ b/x') were read as '*** Update File' (or Add, Delete) sections.\n",
			matched: []string{"patch: its unified diff file headers ('--- a/x', '+++ b/x') were read as '*** Update File' (or Add, Delete) sections"},
		},
		{
			name:    "codex-style patch with a unified '@@ -a,b +c,d @@' hunk header",
			files:   map[string]string{"n.txt": "p\nq\n"},
			patch:   "*** Begin Patch\n*** Update File: n.txt\n@@ -1,2 +1,2 @@\n p\n-q\n+Q\n*** End Patch",
			want:    map[string]string{"n.txt": "p\nQ\n"},
			result:  ok + "M n.txt\nRead leniently: the unified diff line numbers of 1 '@@' line ('@@ -a,b +c,d @@') were ignored, each hunk searched for after the previous one.\n",
			matched: []string{"patch: the unified diff line numbers of 1 '@@' line ('@@ -a,b +c,d @@') were ignored, each hunk searched for after the previous one"},
		},
		{
			name:    "Gemini CLI editCorrector literal \\t in patch lines where the file has tabs",
			files:   map[string]string{"t.go": "func f() {\n\tx := 1\n\ty := 2\n}\n"},
			patch:   "*** Begin Patch\n*** Update File: t.go\n@@\n-\\tx := 1\n+\\tx := 3\n \\ty := 2\n*** End Patch",
			want:    map[string]string{"t.go": "func f() {\n\tx := 3\n\ty := 2\n}\n"},
			result:  ok + "M t.go\nHunk 1 of t.go matched at line 2 ignoring a literal \\t written for a tab on 2 lines; the literal \\t in its added lines were written as tabs.\n",
			matched: []string{"escapes: hunk 1 of t.go at line 2, a literal \\t written for a tab on 2 lines"},
		},
		{
			name:    "Gemini CLI editCorrector over-escaped newlines: a block sent on one patch line with literal \\n",
			files:   map[string]string{"e.py": "if x:\n    y = 1\n    z = 2\n"},
			patch:   "*** Begin Patch\n*** Update File: e.py\n@@\n-    y = 1\\n    z = 2\n+    y = 3\\n    z = 4\n*** End Patch",
			want:    map[string]string{"e.py": "if x:\n    y = 3\n    z = 4\n"},
			result:  ok + "M e.py\nHunk 1 of e.py matched at line 2 ignoring a literal \\n written for a line break on 2 patch lines.\n",
			matched: []string{"escapes: hunk 1 of e.py at line 2, a literal \\n written for a line break on 2 patch lines"},
		},
		{
			name:   "codex: a literal \\n the file has is matched as written, never split",
			files:  map[string]string{"c.c": "printf(\"a\\n\");\n"},
			patch:  "*** Begin Patch\n*** Update File: c.c\n@@\n-printf(\"a\\n\");\n+printf(\"b\\n\");\n*** End Patch",
			want:   map[string]string{"c.c": "printf(\"b\\n\");\n"},
			result: ok + "M c.c\n",
		},
		{
			name:    "Codex NFC/NFD: a decomposed é in the patch, composed in the file",
			files:   map[string]string{"c.txt": "caf\u00e9 au lait\nfin\n"},
			patch:   "*** Begin Patch\n*** Update File: c.txt\n@@\n-cafe\u0301 au lait\n+the\u0301\n fin\n*** End Patch",
			want:    map[string]string{"c.txt": "the\u0301\nfin\n"},
			result:  ok + "M c.txt\nHunk 1 of c.txt matched at line 1 ignoring Unicode normalization (composed or decomposed accents) on 1 line.\n",
			matched: []string{"unicode: hunk 1 of c.txt at line 1, Unicode normalization (composed or decomposed accents) on 1 line"},
		},
		{
			name:   "codex first place after the previous hunk: an ambiguous hunk says so, forgives nothing",
			files:  map[string]string{"a.txt": "x = 1\ny\nx = 1\nz\nx = 1\n"},
			patch:  "*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n*** End Patch",
			want:   map[string]string{"a.txt": "x = 2\ny\nx = 1\nz\nx = 1\n"},
			result: ok + "M a.txt\nHunk 1 of a.txt matched at line 1. Its lines also occur at lines 3, 5; as Codex does, the first place after the previous hunk was changed. If you meant another, undo this edit and send the hunk with an '@@' header naming a line just before that place.\n",
		},
		{
			name:   "codex two hunks on two equal places: no ambiguity said",
			files:  map[string]string{"a.txt": "x = 1\ny\nx = 1\n"},
			patch:  "*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n@@\n-x = 1\n+x = 3\n*** End Patch",
			want:   map[string]string{"a.txt": "x = 2\ny\nx = 3\n"},
			result: ok + "M a.txt\n",
		},
	})
}

// TestForgiveRefusals: what stays refused, with its exact text, and no
// change: out-of-order hunks that overlap, and a patch that is neither
// apply_patch nor a unified diff.
func TestForgiveRefusals(t *testing.T) {
	tests := []struct {
		name, patch string
		files       map[string]string
		sentinel    error
		want        string
	}{
		{"aider out of order hunks overlapping", "*** Begin Patch\n*** Update File: o.txt\n@@\n b\n-c\n+C\n@@\n-a\n+A\n b\n*** End Patch",
			map[string]string{"o.txt": "a\nb\nc\n"}, ErrOverlap,
			"Failed to apply hunk 2 of o.txt: its lines are not after those of hunk 1, and the only place they match, lines 1-2, overlaps hunk 1's lines 2-3. Nothing was changed: the whole patch was refused. Merge the two hunks into one, or re-read o.txt and send the patch again with each hunk's lines as they are now."},
		{"heredoc whose closing delimiter differs", "cat <<'EOF'\n*** Begin Patch\n*** Delete File: o.txt\n*** End Patch\nEND",
			map[string]string{"o.txt": "a\n"}, ErrInvalidPatch,
			"Invalid patch: The first line of the patch must be '*** Begin Patch'. Send the whole patch in \"input\": a '*** Begin Patch' line, the file operations, then a '*** End Patch' line; nothing was changed."},
		{"a heredoc that writes the patch to a file applies nothing", "cat > p.diff <<'EOF'\n*** Begin Patch\n*** Delete File: o.txt\n*** End Patch\nEOF",
			map[string]string{"o.txt": "a\n"}, ErrInvalidPatch,
			"Invalid patch: The first line of the patch must be '*** Begin Patch'. Send the whole patch in \"input\": a '*** Begin Patch' line, the file operations, then a '*** End Patch' line; nothing was changed."},
		{"unified diff of a new file with a context line", "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n y\n",
			map[string]string{}, ErrInvalidPatch,
			"Invalid patch hunk on line 1: the diff of new file 'n.txt' (from /dev/null) has a context or removed line, ' y'. Every line of a new file's hunk starts with '+'. Nothing was changed; fix the patch and send it again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := map[string][]byte{}
			for k, v := range tt.files {
				in[k] = []byte(v)
			}
			got, msg := runPatch(t, tt.patch, in)
			if msg != tt.want {
				t.Errorf("refusal:\n%s\nwant:\n%s", msg, tt.want)
			}
			if !maps.EqualFunc(got, in, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Errorf("files changed by a refusal: %q", got)
			}
			p, err := Parse(tt.patch)
			if err == nil {
				_, _, err = Plan(p, state(p, in))
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tt.sentinel)
			}
			if strings.Contains(msg, "Success") {
				t.Errorf("a refusal reads as a success: %s", msg)
			}
		})
	}
}
