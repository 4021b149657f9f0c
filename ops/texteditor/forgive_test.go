package texteditor

import (
	"errors"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// TestPlanStrReplaceLineHint_RooStartLine: a line hint picks one of several
// occurrences of old_str, as Roo Code's apply_diff `:start_line:` does (and
// the `start_line`/`line` arguments of other editors): the one containing
// the line, else the nearest, within HintWindow lines; a tie or a hint far
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
			if string(got) != tt.want || pl.Line != tt.wantLine || pl.Hinted != (tt.wantOccur != nil) || !equalInts(pl.Occurrences, tt.wantOccur) {
				t.Fatalf("got %q line %d hinted %v occurrences %v, want %q line %d occurrences %v", got, pl.Line, pl.Hinted, pl.Occurrences, tt.want, tt.wantLine, tt.wantOccur)
			}
		})
	}
}

func equalInts(a, b []int) bool {
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
