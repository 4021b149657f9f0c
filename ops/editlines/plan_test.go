package editlines

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

const bom = "\xef\xbb\xbf"

type planCase struct {
	name, content, ops, want string
	changed, count           int // LinesChanged, NewLineCount
}

func runCases(t *testing.T, tests []planCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, p, err := run(t, tt.content, `{"path":"f","operations":[`+tt.ops+`]}`)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if p.LinesChanged != tt.changed || p.NewLineCount != tt.count {
				t.Errorf("linesChanged %d newLineCount %d, want %d and %d", p.LinesChanged, p.NewLineCount, tt.changed, tt.count)
			}
		})
	}
}

func TestReplace(t *testing.T) {
	runCases(t, []planCase{
		{"middle", "a\nb\nc\n", `{"op":"replace","startLine":2,"endLine":2,"content":["x"]}`, "a\nx\nc\n", 2, 3},
		{"more lines than replaced", "a\nb\nc\n", `{"op":"replace","startLine":2,"endLine":2,"content":["x","y","z"]}`, "a\nx\ny\nz\nc\n", 4, 5},
		{"fewer lines than replaced", "a\nb\nc\nd\n", `{"op":"replace","startLine":1,"endLine":3,"content":["x"]}`, "x\nd\n", 4, 2},
		{"empty content deletes", "a\nb\nc\n", `{"op":"replace","startLine":2,"endLine":3,"content":[]}`, "a\n", 2, 1},
		{"an empty line", "a\nb\nc\n", `{"op":"replace","startLine":2,"endLine":2,"content":[""]}`, "a\n\nc\n", 2, 3},
		{"whole file", "a\nb\n", `{"op":"replace","startLine":1,"endLine":2,"content":["x"]}`, "x\n", 3, 1},
		{"whole file with nothing", "a\nb\n", `{"op":"replace","startLine":1,"endLine":2,"content":[]}`, "", 2, 0},
		{"last line", "a\nb\n", `{"op":"replace","startLine":2,"endLine":2,"content":["c"]}`, "a\nc\n", 2, 2},
		{"tabs and trailing spaces kept", "\tx  \n\ty\n\tz\n", `{"op":"replace","startLine":2,"endLine":2,"content":["\t\tw"]}`, "\tx  \n\t\tw\n\tz\n", 2, 3},
		{"identical text changes nothing but counts", "a\nb\n", `{"op":"replace","startLine":1,"endLine":1,"content":["a"]}`, "a\nb\n", 2, 2},
		{"newline in content makes lines", "a\nb\n", `{"op":"replace","startLine":1,"endLine":1,"content":["x\ny"]}`, "x\ny\nb\n", 3, 3},
		{"trailing newline in content is an empty line", "a\nb\n", `{"op":"replace","startLine":1,"endLine":1,"content":["x\n"]}`, "x\n\nb\n", 3, 3},
		{"non-ASCII", "héllo\nwörld\n", `{"op":"replace","startLine":2,"endLine":2,"content":["☃"]}`, "héllo\n☃\n", 2, 2},

		// No final newline: still none after the edit.
		{"no final newline: last line", "a\nb", `{"op":"replace","startLine":2,"endLine":2,"content":["c","d"]}`, "a\nc\nd", 3, 3},
		{"no final newline: first line", "a\nb", `{"op":"replace","startLine":1,"endLine":1,"content":["x"]}`, "x\nb", 2, 2},
		{"no final newline: whole file", "a\nb", `{"op":"replace","startLine":1,"endLine":2,"content":["x"]}`, "x", 3, 1},
		{"no final newline: whole file with nothing", "a\nb", `{"op":"replace","startLine":1,"endLine":2,"content":[]}`, "", 2, 0},
		{"no final newline: last line with nothing", "a\nb", `{"op":"replace","startLine":2,"endLine":2,"content":[]}`, "a", 1, 1},
		// An empty last line exists only with its terminator.
		{"no final newline: ends with an empty line", "a\nb", `{"op":"replace","startLine":2,"endLine":2,"content":["c",""]}`, "a\nc\n\n", 3, 3},
		{"no final newline: an empty line", "a\nb", `{"op":"replace","startLine":2,"endLine":2,"content":[""]}`, "a\n\n", 2, 2},
		{"no final newline: content ending in newline", "a\nb", `{"op":"replace","startLine":2,"endLine":2,"content":["c\n"]}`, "a\nc\n\n", 3, 3},
		{"no final newline: single line", "a", `{"op":"replace","startLine":1,"endLine":1,"content":["b"]}`, "b", 2, 1},

		// CRLF.
		{"CRLF", "a\r\nb\r\nc\r\n", `{"op":"replace","startLine":2,"endLine":2,"content":["x","y"]}`, "a\r\nx\r\ny\r\nc\r\n", 3, 4},
		{"CRLF, newline in content converted", "a\r\nb\r\n", `{"op":"replace","startLine":1,"endLine":1,"content":["x\ny"]}`, "x\r\ny\r\nb\r\n", 3, 3},
		{"CRLF in content kept", "a\r\nb\r\n", `{"op":"replace","startLine":1,"endLine":1,"content":["x\r\ny"]}`, "x\r\ny\r\nb\r\n", 3, 3},
		{"CRLF, no final newline", "a\r\nb", `{"op":"replace","startLine":2,"endLine":2,"content":["x","y"]}`, "a\r\nx\r\ny", 3, 3},
		{"mixed, mostly CRLF", "a\r\nb\r\nc\n", `{"op":"replace","startLine":3,"endLine":3,"content":["x"]}`, "a\r\nb\r\nx\r\n", 2, 3},
		{"LF in a one-line file", "a", `{"op":"replace","startLine":1,"endLine":1,"content":["x","y"]}`, "x\ny", 3, 2},

		// BOM.
		{"BOM, first line", bom + "a\nb\n", `{"op":"replace","startLine":1,"endLine":1,"content":["x"]}`, bom + "x\nb\n", 2, 2},
		{"BOM, everything with nothing", bom + "a\nb", `{"op":"replace","startLine":1,"endLine":2,"content":[]}`, bom, 2, 0},
	})
}

func TestInsert(t *testing.T) {
	runCases(t, []planCase{
		{"beginning", "a\nb\n", `{"op":"insert","afterLine":0,"content":["x"]}`, "x\na\nb\n", 1, 3},
		{"middle", "a\nb\n", `{"op":"insert","afterLine":1,"content":["x","y"]}`, "a\nx\ny\nb\n", 2, 4},
		{"after the last line", "a\nb\n", `{"op":"insert","afterLine":2,"content":["x"]}`, "a\nb\nx\n", 1, 3},
		{"an empty line", "a\nb\n", `{"op":"insert","afterLine":1,"content":[""]}`, "a\n\nb\n", 1, 3},
		{"nothing", "a\nb\n", `{"op":"insert","afterLine":1,"content":[]}`, "a\nb\n", 0, 2},

		{"empty file", "", `{"op":"insert","afterLine":0,"content":["x"]}`, "x\n", 1, 1},
		{"empty file, lines", "", `{"op":"insert","afterLine":0,"content":["x","y"]}`, "x\ny\n", 2, 2},
		{"empty file, an empty line", "", `{"op":"insert","afterLine":0,"content":[""]}`, "\n", 1, 1},
		{"empty file, nothing", "", `{"op":"insert","afterLine":0,"content":[]}`, "", 0, 0},
		{"BOM-only file", bom, `{"op":"insert","afterLine":0,"content":["x"]}`, bom + "x\n", 1, 1},
		{"BOM, beginning goes after it", bom + "a\n", `{"op":"insert","afterLine":0,"content":["x"]}`, bom + "x\na\n", 1, 2},
		{"BOM, end", bom + "a", `{"op":"insert","afterLine":1,"content":["x"]}`, bom + "a\nx", 1, 2},

		{"no final newline: after the last line", "a\nb", `{"op":"insert","afterLine":2,"content":["c"]}`, "a\nb\nc", 1, 3},
		{"no final newline: lines after the last line", "a\nb", `{"op":"insert","afterLine":2,"content":["c","d"]}`, "a\nb\nc\nd", 2, 4},
		{"no final newline: an empty line after the last", "a\nb", `{"op":"insert","afterLine":2,"content":[""]}`, "a\nb\n\n", 1, 3},
		{"no final newline: ending with an empty line", "a\nb", `{"op":"insert","afterLine":2,"content":["c",""]}`, "a\nb\nc\n\n", 2, 4},
		{"no final newline: nothing after the last line", "a\nb", `{"op":"insert","afterLine":2,"content":[]}`, "a\nb", 0, 2},
		{"no final newline: middle", "a\nb", `{"op":"insert","afterLine":1,"content":["x"]}`, "a\nx\nb", 1, 3},
		{"no final newline: beginning", "a\nb", `{"op":"insert","afterLine":0,"content":["x"]}`, "x\na\nb", 1, 3},

		{"CRLF", "a\r\nb\r\n", `{"op":"insert","afterLine":1,"content":["x","y"]}`, "a\r\nx\r\ny\r\nb\r\n", 2, 4},
		{"CRLF, after the last line", "a\r\nb\r\n", `{"op":"insert","afterLine":2,"content":["x"]}`, "a\r\nb\r\nx\r\n", 1, 3},
		{"CRLF, no final newline", "a\r\nb", `{"op":"insert","afterLine":2,"content":["x"]}`, "a\r\nb\r\nx", 1, 3},
		{"CRLF, newline in content", "a\r\n", `{"op":"insert","afterLine":0,"content":["x\ny"]}`, "x\r\ny\r\na\r\n", 2, 3},

		// Several inserts after the same line: all made, in input order.
		{"two after the same line", "a\nb\n", `{"op":"insert","afterLine":1,"content":["x"]},{"op":"insert","afterLine":1,"content":["y","z"]}`, "a\nx\ny\nz\nb\n", 3, 5},
		{"two at the beginning", "a\n", `{"op":"insert","afterLine":0,"content":["x"]},{"op":"insert","afterLine":0,"content":["y"]}`, "x\ny\na\n", 2, 3},
		{"three, one empty", "a\n", `{"op":"insert","afterLine":1,"content":["x"]},{"op":"insert","afterLine":1,"content":[]},{"op":"insert","afterLine":1,"content":["y"]}`, "a\nx\ny\n", 2, 3},
		{"two into an empty file", "", `{"op":"insert","afterLine":0,"content":["x"]},{"op":"insert","afterLine":0,"content":["y"]}`, "x\ny\n", 2, 2},
		{"two after an unterminated last line", "a\nb", `{"op":"insert","afterLine":2,"content":["x"]},{"op":"insert","afterLine":2,"content":["y"]}`, "a\nb\nx\ny", 2, 4},
		{"two after an unterminated last line, first empty", "a\nb", `{"op":"insert","afterLine":2,"content":[""]},{"op":"insert","afterLine":2,"content":["x"]}`, "a\nb\n\nx", 2, 4},
		{"two after an unterminated last line, last empty", "a\nb", `{"op":"insert","afterLine":2,"content":["x"]},{"op":"insert","afterLine":2,"content":[""]}`, "a\nb\nx\n\n", 2, 4},
		{"two after the same line, CRLF", "a\r\nb\r\n", `{"op":"insert","afterLine":1,"content":["x"]},{"op":"insert","afterLine":1,"content":["y"]}`, "a\r\nx\r\ny\r\nb\r\n", 2, 4},
	})
}

func TestDelete(t *testing.T) {
	runCases(t, []planCase{
		{"middle", "a\nb\nc\n", `{"op":"delete","startLine":2,"endLine":2}`, "a\nc\n", 1, 2},
		{"range", "a\nb\nc\nd\n", `{"op":"delete","startLine":2,"endLine":3}`, "a\nd\n", 2, 2},
		{"first line", "a\nb\n", `{"op":"delete","startLine":1,"endLine":1}`, "b\n", 1, 1},
		{"last line", "a\nb\n", `{"op":"delete","startLine":2,"endLine":2}`, "a\n", 1, 1},
		{"everything", "a\nb\n", `{"op":"delete","startLine":1,"endLine":2}`, "", 2, 0},
		{"an empty line", "a\n\nb\n", `{"op":"delete","startLine":2,"endLine":2}`, "a\nb\n", 1, 2},

		{"no final newline: last line", "a\nb", `{"op":"delete","startLine":2,"endLine":2}`, "a", 1, 1},
		{"no final newline: first line", "a\nb", `{"op":"delete","startLine":1,"endLine":1}`, "b", 1, 1},
		{"no final newline: everything", "a\nb", `{"op":"delete","startLine":1,"endLine":2}`, "", 2, 0},
		{"no final newline: last lines", "a\nb\nc", `{"op":"delete","startLine":2,"endLine":3}`, "a", 2, 1},
		// The new last line is empty: it keeps its terminator, or it would
		// vanish.
		{"no final newline: an empty line becomes last", "a\n\nb", `{"op":"delete","startLine":3,"endLine":3}`, "a\n\n", 1, 2},
		{"no final newline: CRLF", "a\r\nb\r\nc", `{"op":"delete","startLine":3,"endLine":3}`, "a\r\nb", 1, 2},
		{"no final newline: a CRLF-only line becomes last", "a\r\n\r\nc", `{"op":"delete","startLine":3,"endLine":3}`, "a\r\n\r\n", 1, 2},

		{"CRLF", "a\r\nb\r\nc\r\n", `{"op":"delete","startLine":2,"endLine":2}`, "a\r\nc\r\n", 1, 2},
		{"BOM, first line", bom + "a\nb\n", `{"op":"delete","startLine":1,"endLine":1}`, bom + "b\n", 1, 1},
		{"BOM, everything", bom + "a\nb", `{"op":"delete","startLine":1,"endLine":2}`, bom, 2, 0},
		{"one-line file", "a", `{"op":"delete","startLine":1,"endLine":1}`, "", 1, 0},
	})
}

// TestCombined: operations that meet at the edges of each other, where the
// spans touch.
func TestCombined(t *testing.T) {
	const abcde = "a\nb\nc\nd\ne\n"
	runCases(t, []planCase{
		{"insert just before a deleted range", abcde, `{"op":"delete","startLine":2,"endLine":4},{"op":"insert","afterLine":1,"content":["x"]}`, "a\nx\ne\n", 4, 3},
		{"insert just before a replaced range goes first", abcde, `{"op":"replace","startLine":2,"endLine":3,"content":["R"]},{"op":"insert","afterLine":1,"content":["I"]}`, "a\nI\nR\nd\ne\n", 4, 5},
		{"insert after the line after a range", abcde, `{"op":"delete","startLine":2,"endLine":3},{"op":"insert","afterLine":4,"content":["x"]}`, "a\nd\nx\ne\n", 3, 4},
		{"adjacent ranges", abcde, `{"op":"replace","startLine":1,"endLine":2,"content":["x"]},{"op":"delete","startLine":3,"endLine":4}`, "x\ne\n", 5, 2},
		{"adjacent ranges, listed backwards", abcde, `{"op":"delete","startLine":3,"endLine":4},{"op":"replace","startLine":1,"endLine":2,"content":["x"]}`, "x\ne\n", 5, 2},
		{"every kind", abcde, `{"op":"insert","afterLine":0,"content":["0"]},{"op":"replace","startLine":2,"endLine":2,"content":["B"]},{"op":"delete","startLine":4,"endLine":4},{"op":"insert","afterLine":5,"content":["f"]}`, "0\na\nB\nc\ne\nf\n", 5, 6},

		// No final newline: the result's last line loses the terminator
		// that the compiled edits would give it, wherever it comes from.
		{"no final newline: insert before deleted tail", "a\nb\nc", `{"op":"delete","startLine":2,"endLine":3},{"op":"insert","afterLine":1,"content":["x"]}`, "a\nx", 3, 2},
		{"no final newline: replace before deleted tail", "a\nb\nc", `{"op":"replace","startLine":1,"endLine":1,"content":["x"]},{"op":"delete","startLine":2,"endLine":3}`, "x", 4, 1},
		{"no final newline: replace with an empty line before deleted tail", "a\nb\nc", `{"op":"replace","startLine":1,"endLine":1,"content":["x",""]},{"op":"delete","startLine":2,"endLine":3}`, "x\n\n", 5, 2},
		{"no final newline: two deleted ranges at the tail", "a\nb\nc", `{"op":"delete","startLine":3,"endLine":3},{"op":"delete","startLine":2,"endLine":2}`, "a", 2, 1},
		{"no final newline: empty replace then delete at the tail", "a\nb\nc\nd", `{"op":"replace","startLine":2,"endLine":2,"content":[]},{"op":"delete","startLine":3,"endLine":4},{"op":"insert","afterLine":0,"content":["z"]}`, "z\na", 4, 2},
		{"no final newline: everything deleted in pieces, insert at 0", "a\nb", `{"op":"delete","startLine":1,"endLine":1},{"op":"delete","startLine":2,"endLine":2},{"op":"insert","afterLine":0,"content":["x"]}`, "x", 3, 1},
		{"no final newline: empty insert before deleted tail", "a\nb\nc", `{"op":"delete","startLine":2,"endLine":3},{"op":"insert","afterLine":1,"content":[]}`, "a", 2, 1},
		{"no final newline: tail replaced, insert before", "a\nb", `{"op":"insert","afterLine":1,"content":["x"]},{"op":"replace","startLine":2,"endLine":2,"content":["y"]}`, "a\nx\ny", 3, 3},
		{"no final newline: CRLF everything", "a\r\nb\r\nc", `{"op":"insert","afterLine":0,"content":["0"]},{"op":"replace","startLine":1,"endLine":1,"content":["A"]},{"op":"delete","startLine":2,"endLine":3}`, "0\r\nA", 5, 2},
		{"BOM: everything deleted, insert at 0", bom + "a\nb\n", `{"op":"delete","startLine":1,"endLine":2},{"op":"insert","afterLine":0,"content":["x"]}`, bom + "x\n", 3, 1},
	})
}

func TestOverlap(t *testing.T) {
	ten := numbered("l", 1, 10)
	tests := []struct{ name, ops, want string }{
		{"same range twice", `{"op":"delete","startLine":2,"endLine":2},{"op":"delete","startLine":2,"endLine":2}`, "operations overlap at line 2"},
		{"contained", `{"op":"delete","startLine":1,"endLine":10},{"op":"replace","startLine":5,"endLine":6,"content":[]}`, "operations overlap at line 5"},
		{"sharing the last line", `{"op":"delete","startLine":1,"endLine":4},{"op":"delete","startLine":4,"endLine":8}`, "operations overlap at line 4"},
		{"listed backwards", `{"op":"delete","startLine":4,"endLine":8},{"op":"delete","startLine":1,"endLine":4}`, "operations overlap at line 4"},
		{"insert inside a deleted range", `{"op":"delete","startLine":2,"endLine":4},{"op":"insert","afterLine":3,"content":["x"]}`, "operations overlap at line 3"},
		{"insert after a deleted range's first line", `{"op":"delete","startLine":2,"endLine":4},{"op":"insert","afterLine":2,"content":["x"]}`, "operations overlap at line 2"},
		{"insert after a deleted range's last line", `{"op":"delete","startLine":2,"endLine":4},{"op":"insert","afterLine":4,"content":["x"]}`, "operations overlap at line 4"},
		{"insert after a replaced line", `{"op":"insert","afterLine":5,"content":["x"]},{"op":"replace","startLine":5,"endLine":5,"content":["y"]}`, "operations overlap at line 5"},
		{"empty insert still anchors on its line", `{"op":"delete","startLine":10,"endLine":10},{"op":"insert","afterLine":10,"content":[]}`, "operations overlap at line 10"},
		// The lowest conflicting line is reported, whatever the order.
		{"lowest of several", `{"op":"delete","startLine":7,"endLine":9},{"op":"delete","startLine":8,"endLine":8},{"op":"replace","startLine":3,"endLine":5,"content":[]},{"op":"delete","startLine":4,"endLine":4}`, "operations overlap at line 4"},
		{"insert conflict lower than a range conflict", `{"op":"delete","startLine":5,"endLine":6},{"op":"delete","startLine":6,"endLine":7},{"op":"replace","startLine":2,"endLine":3,"content":[]},{"op":"insert","afterLine":3,"content":["x"]}`, "operations overlap at line 3"},
		{"range conflict lower than an insert conflict", `{"op":"insert","afterLine":6,"content":["x"]},{"op":"delete","startLine":5,"endLine":6},{"op":"delete","startLine":2,"endLine":3},{"op":"delete","startLine":3,"endLine":3}`, "operations overlap at line 3"},
		{"a range conflict inside a wide range", `{"op":"delete","startLine":1,"endLine":9},{"op":"delete","startLine":3,"endLine":3},{"op":"delete","startLine":2,"endLine":2}`, "operations overlap at line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, ten, `{"path":"f","operations":[`+tt.ops+`]}`)
			if err == nil || seedPart(err) != tt.want || !errors.Is(err, ErrOverlap) {
				t.Errorf("err = %v, want %s", err, tt.want)
			}
		})
	}
}

// TestValidationOrder: the batch is validated as a whole, each stage over
// every operation before the next stage: operations on their own, then
// bounds, then overlaps. Nothing is planned when any fails.
func TestValidationOrder(t *testing.T) {
	five := numbered("l", 1, 5)
	tests := []struct {
		name string
		list []Operation
		want string
	}{
		{"nil batch", nil, "no operations provided"},
		{"check before bounds", []Operation{{Op: OpDelete, StartLine: 1, EndLine: 9}, {Op: OpDelete, StartLine: 3, EndLine: 2}}, "invalid range: startLine 3 > endLine 2"},
		{"unknown before bounds", []Operation{{Op: OpInsert, AfterLine: 9}, {Op: "copy"}}, "unknown operation: copy"},
		{"bounds before overlap", []Operation{{Op: OpDelete, StartLine: 1, EndLine: 3}, {Op: OpDelete, StartLine: 2, EndLine: 9}}, "line 9 out of range (file has 5 lines)"},
		{"bounds in input order", []Operation{{Op: OpInsert, AfterLine: 7}, {Op: OpDelete, StartLine: 6, EndLine: 6}}, "line 7 out of range (file has 5 lines)"},
		{"startLine reported before endLine", []Operation{{Op: OpReplace, StartLine: 8, EndLine: 9}}, "line 8 out of range (file has 5 lines)"},
		{"huge numbers", []Operation{{Op: OpDelete, StartLine: 1, EndLine: math.MaxInt}}, "line 9223372036854775807 out of range (file has 5 lines)"},
		{"huge afterLine", []Operation{{Op: OpInsert, AfterLine: math.MaxInt, Content: []string{"x"}}}, "line 9223372036854775807 out of range (file has 5 lines)"},
		{"most negative", []Operation{{Op: OpReplace, StartLine: math.MinInt, EndLine: 1}}, "invalid line number: -9223372036854775808 (must be >= 1)"},
		{"most negative afterLine", []Operation{{Op: OpInsert, AfterLine: math.MinInt}}, "invalid line number: -9223372036854775808 (must be >= 0)"},
		{"endLine most negative", []Operation{{Op: OpDelete, StartLine: 1, EndLine: math.MinInt}}, "invalid range: startLine 1 > endLine -9223372036854775808"},
		{"afterLine equal to the count is fine, past it is not", []Operation{{Op: OpInsert, AfterLine: 5}, {Op: OpInsert, AfterLine: 6}}, "line 6 out of range (file has 5 lines)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Plan("f", []byte(five), tt.list)
			if err == nil || seedPart(err) != tt.want {
				t.Errorf("err = %v, want %s", err, tt.want)
			}
			if p.Edits != nil || p.LinesChanged != 0 || p.NewLineCount != 0 {
				t.Errorf("a refusal returned a plan: %+v", p)
			}
		})
	}
}

// TestPlanIgnoresOtherKindsFields: Plan, called without Parse, uses only
// the fields of each operation's kind.
func TestPlanIgnoresOtherKindsFields(t *testing.T) {
	list := []Operation{
		{Op: OpDelete, StartLine: 2, EndLine: 2, AfterLine: -7, Content: []string{"ignored"}},
		{Op: OpInsert, AfterLine: 0, StartLine: -1, EndLine: -9, Content: []string{"x"}},
	}
	p, err := Plan("f", []byte("a\nb\n"), list)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := text.ApplyEdits([]byte("a\nb\n"), p.Edits)
	if string(got) != "x\na\n" {
		t.Errorf("got %q", got)
	}
}

// TestPlanEdits: the spans themselves. They are sorted, touch only the
// bytes that change, and spans that change nothing are left out.
func TestPlanEdits(t *testing.T) {
	content := []byte("a\nb\nc")
	p, err := Plan("f", content, []Operation{
		{Op: OpReplace, StartLine: 1, EndLine: 1, Content: []string{"a"}}, // no change
		{Op: OpDelete, StartLine: 3, EndLine: 3},
		{Op: OpInsert, AfterLine: 0, Content: []string{"z"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []text.Edit{{Start: 0, End: 0, New: "z\n"}, {Start: 3, End: 4, New: ""}, {Start: 4, End: 5, New: ""}}
	if len(p.Edits) != len(want) {
		t.Fatalf("edits %+v, want %+v", p.Edits, want)
	}
	for i := range want {
		if p.Edits[i] != want[i] {
			t.Errorf("edits %+v, want %+v", p.Edits, want)
		}
	}
	if p.LinesChanged != 4 || p.NewLineCount != 3 {
		t.Errorf("linesChanged %d newLineCount %d", p.LinesChanged, p.NewLineCount)
	}

	// A batch that changes nothing has no edits.
	p, err = Plan("f", content, []Operation{{Op: OpReplace, StartLine: 3, EndLine: 3, Content: []string{"c"}}, {Op: OpInsert, AfterLine: 1}})
	if err != nil || len(p.Edits) != 0 || p.LinesChanged != 2 || p.NewLineCount != 3 {
		t.Errorf("no-op batch: %+v, %v", p, err)
	}
}

// TestPlanDoesNotModifyInputs: content and the operations are left alone.
func TestPlanDoesNotModifyInputs(t *testing.T) {
	content := []byte("a\r\nb\r\nc")
	orig := bytes.Clone(content)
	list := []Operation{{Op: OpDelete, StartLine: 3, EndLine: 3}, {Op: OpInsert, AfterLine: 1, Content: []string{"x\ny"}}}
	if _, err := Plan("f", content, list); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(content, orig) || list[0].Op != OpDelete || list[1].Content[0] != "x\ny" {
		t.Errorf("inputs modified")
	}
}

func TestLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200_000; i++ {
		b.WriteString("some text on a line\n")
	}
	content := []byte(b.String())
	var list []Operation
	for i := 1; i <= 200_000; i += 100 {
		list = append(list, Operation{Op: OpReplace, StartLine: i, EndLine: i + 1, Content: []string{"x"}})
		list = append(list, Operation{Op: OpInsert, AfterLine: i + 49, Content: []string{"y"}})
	}
	p, err := Plan("f", content, list)
	if err != nil {
		t.Fatal(err)
	}
	got, err := text.ApplyEdits(content, p.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if n := text.LineCount(got); n != p.NewLineCount || n != 200_000-2*2000+2000+2000 {
		t.Errorf("line count %d, planned %d", n, p.NewLineCount)
	}
}

// TestManyInsertsAfterOneLine: they are joined once, not concatenated one
// by one, and keep their order.
func TestManyInsertsAfterOneLine(t *testing.T) {
	const n = 100_000
	list := make([]Operation, n)
	for i := range list {
		list[i] = Operation{Op: OpInsert, AfterLine: 1, Content: []string{strings.Repeat("x", 100)}}
	}
	list[n-1].Content = []string{"last"}
	p, err := Plan("f", []byte("a\nb"), list)
	if err != nil {
		t.Fatal(err)
	}
	got, err := text.ApplyEdits([]byte("a\nb"), p.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(got, []byte("\nlast\nb")) || p.NewLineCount != n+2 || p.LinesChanged != n {
		t.Errorf("tail %q, newLineCount %d, linesChanged %d", got[len(got)-20:], p.NewLineCount, p.LinesChanged)
	}
}
