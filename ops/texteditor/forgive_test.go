package texteditor

import (
	"errors"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// TestPlanStrReplaceLineHint_RooStartLine: a line hint picks one of several
// occurrences of old_str, as Roo Code's apply_diff `:start_line:` does (and
// the `start_line`/`line` arguments of other editors): the one containing
// the line, else the nearest, within match.HintWindow lines; a tie or a hint far
// from every occurrence is refused with every candidate's line.
func TestPlanStrReplaceLineHint_RooStartLine(t *testing.T) {
	const file = "x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n"
	tests := []struct {
		name      string
		content   string
		old, new  string
		hint      int
		want      string // the file after, or
		wantErr   string // the refusal
		wantLine  int
		wantOccur []int
	}{
		{name: "Roo :start_line: exact line picks the second", content: file, old: "x = 1", new: "x = 2", hint: 3,
			want: "x = 1\ny = 2\nx = 2\nz = 3\nx = 1\n", wantLine: 3, wantOccur: []int{1, 3, 5}},
		{name: "Roo :start_line: off by one picks the nearest", content: file, old: "x = 1", new: "x = 2", hint: 6,
			want: "x = 1\ny = 2\nx = 1\nz = 3\nx = 2\n", wantLine: 5, wantOccur: []int{1, 3, 5}},
		{name: "a hint inside a multi-line occurrence", content: "a\nb\nc\na\nb\nc\n", old: "a\nb\nc", new: "A", hint: 5,
			want: "a\nb\nc\nA\n", wantLine: 4, wantOccur: []int{1, 4}},
		{name: "one occurrence: the hint is not needed", content: file, old: "z = 3", new: "z = 4", hint: 1,
			want: "x = 1\ny = 2\nx = 1\nz = 4\nx = 1\n", wantLine: 4},
		{name: "a tie is refused", content: file, old: "x = 1", new: "x = 2", hint: 2,
			wantErr: `old_str is not unique in f.txt: found 3 occurrences of old_str, at lines 1, 3 and 5; "line" 2 is as near to two of them; give the line where the one to replace starts, or include more surrounding lines in old_str`},
		{name: "a hint far from every occurrence is refused", content: file, old: "x = 1", new: "x = 2", hint: 40,
			wantErr: `old_str is not unique in f.txt: found 3 occurrences of old_str, at lines 1, 3 and 5; "line" 40 is more than 20 lines from every one of them; give the line where the one to replace starts, or include more surrounding lines in old_str`},
		{name: "no hint: the seed's refusal", content: file, old: "x = 1", new: "x = 2",
			wantErr: `old_str is not unique in f.txt: found 3 occurrences of old_str, at lines 1, 3 and 5; include more surrounding lines in old_str to make it unique`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, err := PlanStrReplaceAt("f.txt", []byte(tt.content), tt.old, tt.new, tt.hint)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrAmbiguous) {
					t.Fatalf("error\n got: %v\nwant: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := text.ApplyEdits([]byte(tt.content), pl.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || pl.Line != tt.wantLine || pl.Hinted != (tt.wantOccur != nil) || !slices.Equal(pl.Occurrences, tt.wantOccur) {
				t.Fatalf("got %q line %d hinted %v occurrences %v, want %q line %d occurrences %v", got, pl.Line, pl.Hinted, pl.Occurrences, tt.want, tt.wantLine, tt.wantOccur)
			}
		})
	}
}

// TestPlanStrReplaceOmission_ClineDetectCodeOmission: a new_str that puts a
// placeholder where old_str's code was is refused, naming the line (Cline
// and Roo Code's detectCodeOmission; Aider's lazy-comment prompts); a
// placeholder the file already has, or one that deletes nothing, is fine.
func TestPlanStrReplaceOmission_ClineDetectCodeOmission(t *testing.T) {
	const file = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
	tests := []struct {
		name, content, old, new string
		want, wantErr           string
	}{
		{name: "Cline detectCodeOmission: # ... rest of the function ...", content: file,
			old: "def f():\n    a = 1\n    b = 2\n    return a + b\n", new: "def f():\n    a = 10\n    # ... rest of the function ...\n",
			wantErr: `replacement omits code with a placeholder: line 3 of new_str, "# ... rest of the function ...", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in new_str, every line that should remain written out; nothing was changed`},
		{name: "CRLF file: the placeholder is named without its line ending", content: "a\r\nb\r\nc\r\n",
			old: "a\nb\nc\n", new: "a\n// (rest unchanged)\n",
			wantErr: `replacement omits code with a placeholder: line 2 of new_str, "// (rest unchanged)", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in new_str, every line that should remain written out; nothing was changed`},
		{name: "a placeholder the file already has is moved", content: "x\n// ... existing code ...\ny\n",
			old: "x\n// ... existing code ...\n", new: "// ... existing code ...\nx2\n", want: "// ... existing code ...\nx2\ny\n"},
		{name: "a placeholder that deletes nothing is kept", content: file,
			old: "    a = 1\n", new: "    # ... rest of the function ...\n    a = 1\n", want: "def f():\n    # ... rest of the function ...\n    a = 1\n    b = 2\n    return a + b\n"},
		{name: "Python ... body is code", content: "def g():\n    pass\n", old: "    pass\n", new: "    ...\n", want: "def g():\n    ...\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, err := PlanStrReplace("f.py", []byte(tt.content), tt.old, tt.new)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, match.ErrOmission) {
					t.Fatalf("error\n got: %v\nwant: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := text.ApplyEdits([]byte(tt.content), pl.Edits)
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

// TestPlanStrReplaceLadder: when old_str is not in the file exactly,
// str_replace climbs the ladder's safe stages (Stages) and adapts new_str
// the way old_str was matched; the plan says which stage and what it
// forgave (the Edit-Match trailer, dialect.Plan.Matched), and several
// places at the winning stage are refused with every candidate's line, or
// picked by the line hint. Similarity is not a text_editor stage: a typo
// stays "not found".
func TestPlanStrReplaceLadder(t *testing.T) {
	tests := []struct {
		name, content, old, new string
		hint                    int
		want                    string   // the file after
		wantMatched             []string // Planned.Matched()
		wantErr                 string
	}{
		{name: "aider#2241-style: old_str without the file's trailing spaces", content: "a = 1   \nb = 2\n", old: "a = 1\nb = 2\n", new: "a = 10\nb = 2\n",
			want: "a = 10\nb = 2\n", wantMatched: []string{"trailing whitespace: trailing whitespace on 1 line"}},
		{name: "Cline/Roo: a CRLF old_str against an LF file", content: "a\nb\n", old: "a\r\nb", new: "x\r\ny",
			want: "x\ny\n", wantMatched: []string{"trailing whitespace: CRLF line endings read as the file's LF"}},
		{name: "CRLF file, old_str with a lone LF and a CRLF", content: "a\r\nb\nc\r\n", old: "a\nb\r\nc", new: "new",
			want: "new\r\n", wantMatched: []string{"trailing whitespace: mixed line endings: CRLF read as the file's LF on line 2"}},
		{name: "OpenHands: a final line break the file lacks", content: "a\nb", old: "a\nb\n", new: "c\nd\n",
			want: "c\nd", wantMatched: []string{"trailing whitespace: a final line break the file lacks"}},
		{name: "aider: indentation off by 4 spaces, new_str re-indented", content: "def f():\n    if x:\n        return 1\n    return 2\n",
			old: "if x:\n    return 1", new: "if y:\n    return 3",
			want: "def f():\n    if y:\n        return 3\n    return 2\n", wantMatched: []string{"indentation: indentation off by 4 spaces on 2 lines"}},
		{name: "a tab-indented file, old_str with 4 spaces", content: "\tindented\n", old: "    indented", new: "    new",
			want: "\tnew\n", wantMatched: []string{"indentation: a 4-space indent read as the file's tabs"}},
		{name: "Roo/Continue: curly quotes in the file, straight in old_str", content: "s := \"it’s\"\n", old: `s := "it's"`, new: `s := "it is"`,
			want: "s := \"it is\"\n", wantMatched: []string{"unicode: curly quotes on line 1"}},
		{name: "Copilot: runs of spaces inside a line", content: "x  =  1\n", old: "x = 1", new: "x = 2",
			want: "x = 2\n", wantMatched: []string{"inner whitespace: runs of spaces inside 1 line"}},
		{name: "Gemini CLI editCorrector: over-escaped quotes and newline", content: "p(\"a\")\nq()\n", old: `p(\"a\")\nq()`, new: `p(\"b\")\nq()`,
			want: "p(\"b\")\nq()\n", wantMatched: []string{"escapes: over-escaped text read unescaped (`\\\"` as a double quote, `\\n` as a newline)"}},
		{name: "several places at a tolerant stage are refused with every line", content: "x = 1  \ny\nx = 1\t\n", old: "x = 1\n", new: "z\n",
			wantErr: "old_str is not unique in f.txt: found 2 occurrences of old_str (matched ignoring trailing whitespace), at lines 1 and 3; include more surrounding lines in old_str to make it unique"},
		{name: "Roo :start_line: picks one of them", content: "x = 1  \ny\nx = 1\t\n", old: "x = 1\n", new: "z\n", hint: 3,
			want: "x = 1  \ny\nz\n", wantMatched: []string{"trailing whitespace: trailing whitespace on 1 line"}},
		{name: "a typo is not forgiven (no similarity stage)", content: "func f() {\n\treturn x\n}\n", old: "\treturn y\n", new: "\treturn z\n",
			wantErr: "old_str not found in f.txt; view the file and copy the exact text to replace, including whitespace, indentation and line breaks\nDid you mean line 2? The file has:\n     2\t\treturn x\nThe first difference is at line 2: the file has \"\\treturn x\" where old_str line 1 has \"\\treturn y\"."},
		{name: "exact first: a file with both forms takes the exact one", content: "a = 1  \na = 1\n", old: "a = 1\n", new: "b\n",
			want: "a = 1  \nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, err := PlanStrReplaceAt("f.txt", []byte(tt.content), tt.old, tt.new, tt.hint)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error\n got: %v\nwant: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := text.ApplyEdits([]byte(tt.content), pl.Edits)
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q (%v), want %q", got, err, tt.want)
			}
			if m := pl.Matched(); !equalStrings(m, tt.wantMatched) {
				t.Fatalf("Matched = %q, want %q", m, tt.wantMatched)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
