package exactedit

import (
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// mathJS is the file of VS Code's #277154 (math.js), trimmed.
const mathJS = "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\nexport function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}\n\nexport function mul(a, b) {\n\treturn a * b;\n}\n"

const divDoc = "/**\n * Divides the first number by the second number.\n */\n"

// TestPlanMultiEditOverlap: a MultiEdit edit whose place overlaps text an
// earlier edit of the same call wrote is refused, naming both edits and
// their lines, and the file is left as it was; edits of disjoint text, and
// with "sequential" an edit wholly inside an earlier edit's text, apply.
func TestPlanMultiEditOverlap(t *testing.T) {
	tests := []struct {
		name, content string
		edits         []EditArgs
		seq           bool
		want          string // the file after, when it applies
		msg, details  string // the refusal otherwise
	}{
		{name: "Copilot#277154 overlapping MultiEdit: edit 2 matches the block edit 1 rewrote", content: mathJS,
			edits: []EditArgs{
				{OldString: "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\nexport function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}",
					NewString: "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\n" + divDoc + "export function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}"},
				{OldString: "export function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}", NewString: divDoc + "export function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}"},
			},
			msg:     "Edit 2 of 2 failed: Edits overlap",
			details: "Edit 2's old_string matches lines 8-11 of the file as the edits before it leave it, and edit 1 wrote lines 1-11 there, in place of lines 1-8 of the file as read. Applying edit 2 there would change what edit 1 just wrote, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read), or, if edit 2 is meant to change the text edit 1 writes, set \"sequential\": true on the MultiEdit call. None of the 2 edits was applied; send them all again with edit 2 fixed"},
		{name: "Copilot#277154 edits of disjoint text apply as before", content: mathJS,
			edits: []EditArgs{
				{OldString: "export function div(a, b) {", NewString: divDoc + "export function div(a, b) {"},
				{OldString: "export function mul(a, b) {", NewString: "/** Multiplies. */\nexport function mul(a, b) {"},
			},
			want: "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\n" + divDoc + "export function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}\n\n/** Multiplies. */\nexport function mul(a, b) {\n\treturn a * b;\n}\n"},
		{name: "Copilot#277154 sequential: edit 2 wholly inside what edit 1 wrote", content: mathJS, seq: true,
			edits: []EditArgs{
				{OldString: "export function div(a, b) {", NewString: divDoc + "export function div(a, b) {"},
				{OldString: "Divides the first number by the second number.", NewString: "Divides a by b."},
			},
			want: "export function sumArray(a) {\n\treturn a.reduce((sum, num) => sum + num, 0);\n}\n\n/**\n * Divides a by b.\n */\nexport function div(a, b) {\n\t// console.log fff fff\n\treturn a / b;\n}\n\nexport function mul(a, b) {\n\treturn a * b;\n}\n"},
		{name: "Copilot#277154 without sequential, wholly inside is refused too", content: mathJS,
			edits: []EditArgs{
				{OldString: "export function div(a, b) {", NewString: divDoc + "export function div(a, b) {"},
				{OldString: "Divides the first number by the second number.", NewString: "Divides a by b."},
			},
			msg: "Edit 2 of 2 failed: Edits overlap", details: "Edit 2's old_string matches line 6 of the file as the edits before it leave it, and edit 1 wrote lines 5-8 there, in place of line 5 of the file as read. Applying edit 2 there would change what edit 1 just wrote, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read), or, if edit 2 is meant to change the text edit 1 writes, set \"sequential\": true on the MultiEdit call. None of the 2 edits was applied; send them all again with edit 2 fixed"},
		{name: "Copilot#277154 sequential does not cover a place reaching beyond edit 1's text", content: "a\nfoo()\nb\n", seq: true,
			edits: []EditArgs{{OldString: "foo()", NewString: "bar()"}, {OldString: "bar()\nb", NewString: "bar()\nbaz()"}},
			msg:   "Edit 2 of 2 failed: Edits overlap", details: "Edit 2's old_string matches lines 2-3 of the file as the edits before it leave it, and edit 1 wrote line 2 there, in place of line 2 of the file as read. Applying edit 2 there would change what edit 1 just wrote, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read); \"sequential\": true lets an edit change only text wholly inside what an earlier edit wrote, and edit 2's place reaches beyond it. None of the 2 edits was applied; send them all again with edit 2 fixed"},
		{name: "Copilot#277154 an edit spanning text edit 1 deleted", content: "one\ntwo\nthree\n",
			edits: []EditArgs{{OldString: "two\n", NewString: ""}, {OldString: "one\nthree", NewString: "1\n3"}},
			msg:   "Edit 2 of 2 failed: Edits overlap", details: "Edit 2's old_string matches lines 1-2 of the file as the edits before it leave it, and edit 1 deleted line 2 of the file as read, and edit 2's place spans that deletion. Applying edit 2 there would change the text on both sides of what edit 1 just deleted, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read). None of the 2 edits was applied; send them all again with edit 2 fixed"},
		{name: "Copilot#277154 third edit overlaps the first, named", content: "alpha\nbeta\ngamma\ndelta\n",
			edits: []EditArgs{{OldString: "alpha", NewString: "alpha\nALPHA"}, {OldString: "delta", NewString: "DELTA"}, {OldString: "ALPHA\nbeta", NewString: "b"}},
			msg:   "Edit 3 of 3 failed: Edits overlap", details: "Edit 3's old_string matches lines 2-3 of the file as the edits before it leave it, and edit 1 wrote lines 1-2 there, in place of line 1 of the file as read. Applying edit 3 there would change what edit 1 just wrote, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read). None of the 3 edits was applied; send them all again with edit 3 fixed"},
		{name: "Copilot#277154 a deletion far into the file is still a boundary after another edit", content: "head\n" + strings.Repeat("x", 200) + "DEL" + "yz\n" + strings.Repeat("w", 100) + "\n",
			edits: []EditArgs{{OldString: "DEL", NewString: ""}, {OldString: "head", NewString: "HEAD"}, {OldString: "xyz", NewString: "q"}},
			msg:   "Edit 3 of 3 failed: Edits overlap", details: "Edit 3's old_string matches line 2 of the file as the edits before it leave it, and edit 1 deleted line 2 of the file as read, and edit 3's place spans that deletion. Applying edit 3 there would change the text on both sides of what edit 1 just deleted, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read). None of the 3 edits was applied; send them all again with edit 3 fixed"},
		{name: "Copilot#277154 replace_all places checked one by one", content: "x;\ny;\nx;\n",
			edits: []EditArgs{{OldString: "x", NewString: "xx", ReplaceAll: true}, {OldString: "y", NewString: "z"}, {OldString: "x;\nz", NewString: "w"}},
			msg:   "Edit 3 of 3 failed: Edits overlap", details: "Edit 3's old_string matches lines 1-2 of the file as the edits before it leave it, and edit 1 wrote line 1 there, in place of line 1 of the file as read. Applying edit 3 there would change what edit 1 just wrote, which is how a MultiEdit duplicates or garbles a block. Merge the two edits into one (one old_string covering both places, copied from the file as read). None of the 3 edits was applied; send them all again with edit 3 fixed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := PlanMultiEdit(content, MultiEditArgs{Edits: tt.edits, Sequential: tt.seq})
			if tt.msg != "" {
				checkFailure(t, err, tt.msg, tt.details, ErrOverlap)
				if p.Edits != nil || p.Replacements != 0 {
					t.Errorf("planned %+v with an error", p)
				}
				if string(content) != tt.content {
					t.Errorf("content modified")
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil || string(got) != tt.want {
				t.Errorf("got  %q (%v)\nwant %q", got, err, tt.want)
			}
		})
	}
}

// TestPlanEditForgives: an old_string the exact search (and the Read
// line-prefix retry) misses is found by the ladder; new_string is adapted
// to each place, and Matched and Forgiven say what was forgiven. Each case
// is named after the peer behaviour it ports.
func TestPlanEditForgives(t *testing.T) {
	tests := []struct {
		name, content string
		a             EditArgs
		want          string
		matched       []string
		forgiven      string
	}{
		{name: "aider replace_part_with_missing_leading_whitespace: indentation off by 4", content: "def f():\n    if x:\n        return 1\n    return 2\n",
			a:    EditArgs{OldString: "if x:\n    return 1", NewString: "if y:\n    return 3"},
			want: "def f():\n    if y:\n        return 3\n    return 2\n", matched: []string{"indentation: indentation off by 4 spaces on 2 lines"}, forgiven: "old_string was not found exactly; it matched at the ladder's indentation stage, forgiving indentation off by 4 spaces on 2 lines."},
		{name: "opencode LineTrimmedReplacer: trailing whitespace the agent dropped", content: "a = 1   \nb = 2\t\n",
			a:    EditArgs{OldString: "a = 1\nb = 2", NewString: "a = 10\nb = 20"},
			want: "a = 10\nb = 20\n", matched: []string{"trailing whitespace: trailing whitespace on 2 lines"}, forgiven: "old_string was not found exactly; it matched at the ladder's trailing whitespace stage, forgiving trailing whitespace on 2 lines."},
		{name: "opencode WhitespaceNormalizedReplacer: runs of spaces inside a line", content: "x  =  1\n",
			a:    EditArgs{OldString: "x = 1", NewString: "x = 2"},
			want: "x = 2\n", matched: []string{"inner whitespace: runs of spaces inside 1 line"}, forgiven: "old_string was not found exactly; it matched at the ladder's inner whitespace stage, forgiving runs of spaces inside 1 line."},
		{name: "Claude Code Edit: straight quotes for the file's curly ones", content: "say(\u201chi\u201d)\n",
			a:    EditArgs{OldString: "say(\"hi\")", NewString: "say(\"bye\")"},
			want: "say(\"bye\")\n", matched: []string{"unicode: curly quotes on line 1"}, forgiven: "old_string was not found exactly; it matched at the ladder's unicode stage, forgiving curly quotes on line 1."},
		{name: "Continue/Copilot: CRLF old_string against an LF file", content: "a\nb\n",
			a:    EditArgs{OldString: "a\r\nb", NewString: "x"},
			want: "x\n", matched: []string{"trailing whitespace: CRLF line endings read as the file's LF"}, forgiven: "old_string was not found exactly; it matched at the ladder's trailing whitespace stage, forgiving CRLF line endings read as the file's LF."},
		{name: "opencode IndentationFlexibleReplacer: a tab-indented file, old_string with spaces", content: "\tindented\n",
			a:    EditArgs{OldString: "    indented", NewString: "    changed"},
			want: "\tchanged\n", matched: []string{"indentation: a 4-space indent read as the file's tabs"}, forgiven: "old_string was not found exactly; it matched at the ladder's indentation stage, forgiving a 4-space indent read as the file's tabs."},
		{name: "opencode MultiOccurrenceReplacer: whitespace-tolerant replace_all, each place re-indented", content: "  foo()\n  bar()\n\n    foo()\n    bar()\n",
			a:    EditArgs{OldString: "foo()\nbar()", NewString: "baz()\nqux()", ReplaceAll: true},
			want: "  baz()\n  qux()\n\n    baz()\n    qux()\n", matched: []string{"indentation: indentation off by 2 spaces on 2 lines", "indentation: indentation off by 4 spaces on 2 lines"}, forgiven: "old_string was not found exactly; it matched at the ladder's indentation stage, forgiving indentation off by 2 spaces on 2 lines; indentation off by 4 spaces on 2 lines."},
		{name: "opencode MultiOccurrenceReplacer: replace_all ignoring trailing whitespace", content: "x = 1  \ny = 2\nx = 1\t\ny = 2\n",
			a:    EditArgs{OldString: "x = 1\ny = 2", NewString: "x = 3\ny = 2", ReplaceAll: true},
			want: "x = 3\ny = 2\nx = 3\ny = 2\n", matched: []string{"trailing whitespace: trailing whitespace on 1 line", "trailing whitespace: trailing whitespace on 1 line"}, forgiven: "old_string was not found exactly; it matched at the ladder's trailing whitespace stage, forgiving trailing whitespace on 1 line."},
		{name: "gemini-cli replace expected_replacements counts places at the winning stage", content: "  foo()\n  bar()\n\n    foo()\n    bar()\n",
			a:    EditArgs{OldString: "foo()\nbar()", NewString: "baz()", ExpectedReplacements: 2},
			want: "  baz()\n\n    baz()\n", matched: []string{"indentation: indentation off by 2 spaces on 2 lines", "indentation: indentation off by 4 spaces on 2 lines"}, forgiven: "old_string was not found exactly; it matched at the ladder's indentation stage, forgiving indentation off by 2 spaces on 2 lines; indentation off by 4 spaces on 2 lines."},
		{name: "roo-code start_line picks among near matches", content: "  foo()\n  bar()\n\n    foo()\n    bar()\n",
			a:    EditArgs{OldString: "foo()\nbar()", NewString: "baz()", Line: 4},
			want: "  foo()\n  bar()\n\n    baz()\n", matched: []string{"indentation: indentation off by 4 spaces on 2 lines"}, forgiven: "old_string was not found exactly; it matched at the ladder's indentation stage, forgiving indentation off by 4 spaces on 2 lines."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := Plan(content, tt.a)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil || string(got) != tt.want {
				t.Errorf("got  %q (%v)\nwant %q", got, err, tt.want)
			}
			if !slices.Equal(p.Matched, tt.matched) || p.Forgiven != tt.forgiven {
				t.Errorf("matched %q\nforgiven %q\nwant %q\n%q", p.Matched, p.Forgiven, tt.matched, tt.forgiven)
			}
			if string(content) != tt.content {
				t.Errorf("content modified")
			}
		})
	}
}

// TestPlanEditCountsAndHints: expected_replacements (Gemini CLI's and Qwen
// Code's replace tool), a line hint (Roo Code's :start_line:, a "line"
// argument) and an empty old_string on a file without text (Claude Code's
// Edit), with exact bytes.
func TestPlanEditCountsAndHints(t *testing.T) {
	const three = "a()\nb\na()\nc\na()\n"
	far := "x\n" + strings.Repeat("-\n", 38) + "x\n" + strings.Repeat("-\n", 59) + "x\n" // x at lines 1, 40 and 100
	tests := []struct {
		name, content string
		a             EditArgs
		want          string
		line, n       int
	}{
		{name: "gemini-cli replace expected_replacements 2 replaces both", content: "a\nb\na\n", a: EditArgs{OldString: "a", NewString: "z", ExpectedReplacements: 2},
			want: "z\nb\nz\n", line: 1, n: 2},
		{name: "qwen-code replace expected_replacements 1 on a unique string", content: "a\nb\n", a: EditArgs{OldString: "b", NewString: "z", ExpectedReplacements: 1},
			want: "a\nz\n", line: 2, n: 1},
		{name: "gemini-cli expected_replacements with replace_all: the count still checked", content: three, a: EditArgs{OldString: "a()", NewString: "z()", ExpectedReplacements: 3, ReplaceAll: true},
			want: "z()\nb\nz()\nc\nz()\n", line: 1, n: 3},
		{name: "roo-code :start_line: picks the place on that line", content: three, a: EditArgs{OldString: "a()", NewString: "z()", Line: 3},
			want: "a()\nb\nz()\nc\na()\n", line: 3, n: 1},
		{name: "roo-code start_line a little off picks the nearest", content: far, a: EditArgs{OldString: "x", NewString: "y", Line: 52},
			want: strings.Replace(far, "-\nx\n", "-\ny\n", 1), line: 40, n: 1},
		{name: "line hint on a unique place is not needed", content: "a\nb\n", a: EditArgs{OldString: "b", NewString: "z", Line: 40},
			want: "a\nz\n", line: 2, n: 1},
		{name: "replace_all with a line hint replaces all", content: three, a: EditArgs{OldString: "a()", NewString: "z()", Line: 3, ReplaceAll: true},
			want: "z()\nb\nz()\nc\nz()\n", line: 1, n: 3},
		{name: "Claude Code Edit: empty old_string fills an empty file", content: "", a: EditArgs{OldString: "", NewString: "package main\n"},
			want: "package main\n", line: 1, n: 1},
		{name: "Claude Code Edit: empty old_string fills a file holding only a BOM, the BOM kept", content: text.BOM, a: EditArgs{OldString: "", NewString: "hi\n"},
			want: text.BOM + "hi\n", line: 1, n: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := Plan(content, tt.a)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil || string(got) != tt.want || p.Line != tt.line || p.Replacements != tt.n {
				t.Errorf("got %q (%v), line %d, %d replacements\nwant %q, line %d, %d", got, err, p.Line, p.Replacements, tt.want, tt.line, tt.n)
			}
		})
	}
}

// TestPlanEditCountsAndHintsRefused: what expected_replacements, a line
// hint and an empty old_string refuse, with the exact texts; nothing is
// planned.
func TestPlanEditCountsAndHintsRefused(t *testing.T) {
	const three = "a()\nb\na()\nc\na()\n"
	far := "x\n" + strings.Repeat("-\n", 38) + "x\n" + strings.Repeat("-\n", 59) + "x\n" // x at lines 1, 40 and 100
	tests := []struct {
		name, content string
		a             EditArgs
		msg, details  string
		is            error
	}{
		{name: "gemini-cli replace expected_replacements mismatch: more found", content: three, a: EditArgs{OldString: "a()", NewString: "z()", ExpectedReplacements: 2},
			msg: MsgCountMismatch, details: "Expected 2 occurrences but found 3, at lines 1, 3 and 5. Set expected_replacements to 3 if all of them are meant, or include more surrounding context in old_string to match only the ones you mean", is: ErrCountMismatch},
		{name: "gemini-cli replace expected_replacements mismatch: fewer found", content: three, a: EditArgs{OldString: "b", NewString: "z", ExpectedReplacements: 2},
			msg: MsgCountMismatch, details: "Expected 2 occurrences but found 1, at line 2. Set expected_replacements to 1 if all of them are meant, or include more surrounding context in old_string to match only the ones you mean", is: ErrCountMismatch},
		{name: "qwen-code expected_replacements: overlapping places cannot all be replaced", content: "aaa\n", a: EditArgs{OldString: "aa", NewString: "b", ExpectedReplacements: 2},
			msg: MsgCountMismatch, details: "Expected 2 occurrences and found 2, at line 1 (2 times), but some of them overlap, so they cannot all be replaced. Include more surrounding context in old_string so that each occurrence stands apart", is: ErrCountMismatch},
		{name: "roo-code start_line: two places equally near", content: three, a: EditArgs{OldString: "a()", NewString: "z()", Line: 4},
			msg: MsgMultiple, details: "Found 3 occurrences, at lines 1, 3 and 5; two of them are equally near line 4, the line given. Give the line where the one to replace starts, use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "roo-code start_line: no place within the window", content: far, a: EditArgs{OldString: "x", NewString: "y", Line: 65},
			msg: MsgMultiple, details: "Found 3 occurrences, at lines 1, 40 and 100; none is within 20 lines of line 65, the line given. Give the line where the one to replace starts, use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "two places start on the hinted line", content: "a a\nb\n", a: EditArgs{OldString: "a", NewString: "c", Line: 1},
			msg: MsgMultiple, details: "Found 2 occurrences, at line 1 (2 times); two of them are equally near line 1, the line given. Give the line where the one to replace starts, use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "Claude Code Edit: empty old_string on a file with text is still refused", content: "x\n", a: EditArgs{OldString: "", NewString: "y"},
			msg: MsgEmptyOldString, details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string", is: ErrEmptyOldString},
		{name: "empty old_string and empty new_string on an empty file", content: "", a: EditArgs{OldString: "", NewString: ""},
			msg: MsgEmptyOldString, details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string", is: ErrEmptyOldString},
		{name: "the ladder's several places without a hint: every line named", content: "  foo()\n  bar()\n\n    foo()\n    bar()\n", a: EditArgs{OldString: "foo()\nbar()", NewString: "baz()"},
			msg: MsgMultiple, details: "Found 2 occurrences at the ladder's indentation stage (none matches exactly), at lines 1 and 4. Use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := Plan(content, tt.a)
			checkFailure(t, err, tt.msg, tt.details, tt.is)
			if p.Edits != nil || p.Replacements != 0 || string(content) != tt.content {
				t.Errorf("planned %+v with an error, or content modified", p)
			}
		})
	}
}
