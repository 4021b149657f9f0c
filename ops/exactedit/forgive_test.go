package exactedit

import (
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
