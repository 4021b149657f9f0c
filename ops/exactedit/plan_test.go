package exactedit

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func TestPlanEdit(t *testing.T) {
	tests := []struct {
		name, content, old, new string
		all                     bool
		want                    string
		replacements, line      int
		noEdits                 bool
		notes                   []string
	}{
		{name: "CRLF file, LF old_string and new_string", content: "one\r\ntwo\r\nthree\r\n", old: "one\ntwo\n", new: "uno\ndos\ntres\n",
			want: "uno\r\ndos\r\ntres\r\nthree\r\n", replacements: 1, line: 1},
		{name: "CRLF file, single-line old_string, LF new_string", content: "one\r\ntwo\r\n", old: "two", new: "2\n2b",
			want: "one\r\n2\r\n2b\r\n", replacements: 1, line: 2},
		{name: "CRLF file, CRLF old_string as is", content: "one\r\ntwo\r\n", old: "one\r\n", new: "1\r\n", want: "1\r\ntwo\r\n", replacements: 1, line: 1},
		{name: "CRLF file, leading LF does not split a CRLF", content: "foo\r\nbar\r\n", old: "\nbar", new: "\nbaz",
			want: "foo\r\nbaz\r\n", replacements: 1, line: 1},
		{name: "CRLF file, replace_all with LF old_string", content: "a\r\nb\r\na\r\nb\r\n", old: "a\nb", new: "c\nd", all: true,
			want: "c\r\nd\r\nc\r\nd\r\n", replacements: 2, line: 1},
		{name: "CRLF file, old_string differs only in line endings: no change", content: "a\r\nb\r\n", old: "a\r\nb", new: "a\nb",
			want: "a\r\nb\r\n", replacements: 1, line: 1, noEdits: true},
		{name: "BOM kept, first line", content: text.BOM + "first\nsecond\n", old: "first", new: "1st", want: text.BOM + "1st\nsecond\n", replacements: 1, line: 1},
		{name: "no final newline stays missing", content: "a\nlast", old: "last", new: "final", want: "a\nfinal", replacements: 1, line: 2},
		{name: "no final newline, lines added at the end", content: "a\nlast", old: "last", new: "last\nmore", want: "a\nlast\nmore", replacements: 1, line: 2},
		{name: "tabs kept", content: "func f() {\n\treturn 1\n}\n", old: "\treturn 1", new: "\treturn 2", want: "func f() {\n\treturn 2\n}\n", replacements: 1, line: 2},
		{name: "case-sensitive", content: "Foo\nfoo\n", old: "foo", new: "bar", want: "Foo\nbar\n", replacements: 1, line: 2},
		{name: "non-ASCII", content: "naïve café\n日本語\n", old: "日本", new: "中国", want: "naïve café\n中国語\n", replacements: 1, line: 2},
		{name: "delete whole line", content: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n", replacements: 1, line: 2},
		{name: "replace_all with one occurrence", content: "x = 1\n", old: "x", new: "y", all: true, want: "y = 1\n", replacements: 1, line: 1},
		{name: "replace_all, overlapping occurrences: non-overlapping from the left", content: "aaaa\naaa\n", old: "aa", new: "b", all: true,
			want: "bb\nba\n", replacements: 3, line: 1},
		// "aba" occurs at 0, 2 and 4; left to right, non-overlapping keeps 0 and 4.
		{name: "replace_all, overlapping, period > 1", content: "abababa", old: "aba", new: "X", all: true, want: "XbX", replacements: 2, line: 1},
		{name: "prefixes with CRLF file", content: "x\r\nold\r\ny\r\n", old: "     2\told\n     3\ty", new: "     2\tnew\n     3\ty",
			want: "x\r\nnew\r\ny\r\n", replacements: 1, line: 2,
			notes: []string{`old_string had Read line-number prefixes (e.g. "     2\t"); they were removed before matching`, "new_string had line-number prefixes too; they were removed from it as well"}},
		{name: "prefixes, new_string with only some prefixes is written as given", content: "a\nb\n", old: "     1\ta\n     2\tb", new: "     1\ta\nc",
			want: "     1\ta\nc\n", replacements: 1, line: 1,
			notes: []string{`old_string had Read line-number prefixes (e.g. "     1\t"); they were removed before matching`, "new_string was written as given, line-number prefixes included: only some of its lines had one"}},
		{name: "prefixes, new_string without prefixes", content: "a\nb\n", old: "1\ta\n2\tb\n", new: "x\n", want: "x\n", replacements: 1, line: 1,
			notes: []string{`old_string had Read line-number prefixes (e.g. "1\t"); they were removed before matching`}},
		{name: "prefix-like text that is in the file is matched as is", content: "1\tone\n2\ttwo\n", old: "1\tone", new: "1\tuno", want: "1\tuno\n2\ttwo\n", replacements: 1, line: 1},
		{name: "prefixes removed, text equals new_string: no change", content: "a\n", old: "     1\ta", new: "a", want: "a\n", replacements: 1, line: 1, noEdits: true,
			notes: []string{`old_string had Read line-number prefixes (e.g. "     1\t"); they were removed before matching`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := PlanEdit(content, tt.old, tt.new, tt.all)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if p.Replacements != tt.replacements || p.Line != tt.line || (len(p.Edits) == 0) != tt.noEdits || !slices.Equal(p.Notes, tt.notes) {
				t.Errorf("planned %+v; want replacements %d, line %d, no edits %v, notes %q", p, tt.replacements, tt.line, tt.noEdits, tt.notes)
			}
		})
	}
}

// TestPlanEditFailures pins each refusal's exact {"error", "details"}.
func TestPlanEditFailures(t *testing.T) {
	const notFound = "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation"
	tests := []struct {
		name, content, old, new string
		all                     bool
		msg, details            string
		is                      error
	}{
		{name: "empty old_string", content: "a\n", old: "", new: "x", msg: "old_string is empty",
			details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string",
			is:      ErrEmptyOldString},
		{name: "identical strings", content: "a\n", old: "a", new: "a", msg: "old_string and new_string are identical", details: "No changes would be made", is: ErrIdentical},
		{name: "identical strings, even when absent", content: "", old: "zz", new: "zz", msg: "old_string and new_string are identical", details: "No changes would be made", is: ErrIdentical},
		{name: "not found", content: "hello\n", old: "world", new: "x", msg: "String not found in file", details: notFound, is: ErrNotFound},
		{name: "not found in an empty file", content: "", old: "x", new: "y", msg: "String not found in file", details: notFound, is: ErrNotFound},
		{name: "whitespace and a letter differ: no stage of the ladder matches", content: "\tindented\n", old: "    indentd", new: "x", msg: "String not found in file", details: "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation", is: ErrNotFound},
		{name: "case differs", content: "Hello\n", old: "hello", new: "x", msg: "String not found in file", details: notFound, is: ErrNotFound},
		{name: "CRLF old_string with a different line: no stage matches", content: "a\nb\n", old: "a\r\nc", new: "x", msg: "String not found in file", details: "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation\nDid you mean lines 1-2? The file has:\n     1\ta\n     2\tb\nThe first difference is at line 2: the file has \"b\" where old_string line 2 has \"c\".", is: ErrNotFound},
		{name: "prefixed, not found without prefixes either", content: "a\nb\n", old: "    45\tz", new: "x", msg: "String not found in file",
			details: notFound + `. Its lines start with Read line-number prefixes (e.g. "    45\t"), which are not part of the file; it does not match without them either`, is: ErrNotFound},
		{name: "prefixes not consecutive: not stripped", content: "a\nb\n", old: "1\ta\n3\tb", new: "x", msg: "String not found in file",
			details: notFound + `. Its lines start with Read line-number prefixes (e.g. "1\t"), which are not part of the file; it does not match without them either`, is: ErrNotFound},
		{name: "multiple matches", content: "x\nfoo\nx\n\nx\n", old: "x", new: "y", msg: "Multiple matches found",
			details: "Found 3 occurrences, at lines 1, 3 and 5. Use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "multiple matches on one line", content: "a a\nb\na\n", old: "a", new: "c", msg: "Multiple matches found",
			details: "Found 3 occurrences, at lines 1 (2 times) and 3. Use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "overlapping occurrences are multiple", content: "aaa\n", old: "aa", new: "b", msg: "Multiple matches found",
			details: "Found 2 occurrences (some of them overlap), at line 1 (2 times). Use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
		{name: "replace_all does not help a missing string", content: "a\n", old: "b", new: "c", all: true, msg: "String not found in file", details: notFound, is: ErrNotFound},
		{name: "many lines listed up to 20", content: strings.Repeat("x\n", 23), old: "x", new: "y", msg: "Multiple matches found",
			details: "Found 23 occurrences, at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 3 more lines. Use replace_all: true to replace all, or include more surrounding context to make old_string unique", is: ErrAmbiguous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanEdit([]byte(tt.content), tt.old, tt.new, tt.all)
			checkFailure(t, err, tt.msg, tt.details, tt.is)
			if p.Edits != nil || p.Replacements != 0 {
				t.Errorf("planned %+v with an error", p)
			}
		})
	}
}

// checkFailure asserts err is a *Failure with exactly msg and details that
// unwraps to is, and that it marshals to the seed's shape.
func checkFailure(t *testing.T, err error, msg, details string, is error) {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("err = %v (%T), want a *Failure", err, err)
	}
	if f.Message != msg || f.Details != details {
		t.Errorf("failure\n error   %q\n details %q\nwant\n error   %q\n details %q", f.Message, f.Details, msg, details)
	}
	if !errors.Is(err, is) {
		t.Errorf("errors.Is(%v, %v) = false", err, is)
	}
	b, _ := json.Marshal(f)
	want, _ := json.Marshal(struct {
		E string `json:"error"`
		D string `json:"details"`
	}{msg, details})
	if string(b) != string(want) {
		t.Errorf("json = %s, want %s", b, want)
	}
}

func TestPlanMultiEdit(t *testing.T) {
	tests := []struct {
		name, content string
		edits         []EditArgs
		seq           bool
		want          string
		span          text.Edit
		replacements  int
		line          int
		notes         []string
	}{
		{name: "sequential: edit 2 changes only what edit 1 wrote", content: "a\nfoo()\nb\n", seq: true,
			edits: []EditArgs{{OldString: "foo()", NewString: "bar()\nb2"}, {OldString: "b2", NewString: "baz()"}},
			want:  "a\nbar()\nbaz()\nb\n", span: text.Edit{Start: 2, End: 5, New: "bar()\nbaz"}, replacements: 2, line: 2},
		{name: "edits side by side, touching but not overlapping", content: "foobar\n",
			edits: []EditArgs{{OldString: "foo", NewString: "X"}, {OldString: "bar", NewString: "Y"}},
			want:  "XY\n", span: text.Edit{Start: 0, End: 6, New: "XY"}, replacements: 2, line: 1},
		{name: "an edit after a deletion, not spanning it", content: "a\nb\nc\n",
			edits: []EditArgs{{OldString: "b\n", NewString: ""}, {OldString: "c", NewString: "C"}},
			want:  "a\nC\n", span: text.Edit{Start: 2, End: 5, New: "C"}, replacements: 2, line: 2},
		{name: "two far-apart edits make one window", content: "one\ntwo\nthree\nfour\n",
			edits: []EditArgs{{OldString: "one", NewString: "1"}, {OldString: "four", NewString: "4"}},
			want:  "1\ntwo\nthree\n4\n", span: text.Edit{Start: 0, End: 18, New: "1\ntwo\nthree\n4"}, replacements: 2, line: 1},
		{name: "common prefix and suffix trimmed", content: "let value = 1;\n",
			edits: []EditArgs{{OldString: "value = 1", NewString: "value = 2"}},
			want:  "let value = 2;\n", span: text.Edit{Start: 12, End: 13, New: "2"}, replacements: 1, line: 1},
		{name: "replace_all inside a batch", content: "x y x\nz\n",
			edits: []EditArgs{{OldString: "x", NewString: "w", ReplaceAll: true}, {OldString: "z", NewString: "x"}},
			want:  "w y w\nx\n", span: text.Edit{Start: 0, End: 7, New: "w y w\nx"}, replacements: 3, line: 1},
		{name: "net effect nothing: no edits", content: "a\n", seq: true,
			edits: []EditArgs{{OldString: "a", NewString: "b"}, {OldString: "b", NewString: "a"}},
			want:  "a\n", replacements: 2},
		{name: "CRLF file stays CRLF", content: "a\r\nb\r\nc\r\n",
			edits: []EditArgs{{OldString: "a\nb", NewString: "A\nB"}, {OldString: "c", NewString: "C\nD"}},
			want:  "A\r\nB\r\nC\r\nD\r\n", span: text.Edit{Start: 0, End: 7, New: "A\r\nB\r\nC\r\nD"}, replacements: 2, line: 1},
		{name: "BOM kept, no final newline kept", content: text.BOM + "x\ny",
			edits: []EditArgs{{OldString: "y", NewString: "z"}},
			want:  text.BOM + "x\nz", span: text.Edit{Start: 5, End: 6, New: "z"}, replacements: 1, line: 2},
		{name: "notes named by edit", content: "a\nb\n",
			edits: []EditArgs{{OldString: "b", NewString: "c"}, {OldString: "     1\ta", NewString: "     1\tz"}},
			want:  "z\nc\n", span: text.Edit{Start: 0, End: 3, New: "z\nc"}, replacements: 2, line: 1,
			notes: []string{`edit 2 of 2: old_string had Read line-number prefixes (e.g. "     1\t"); they were removed before matching`, "edit 2 of 2: new_string had line-number prefixes too; they were removed from it as well"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte(tt.content)
			p, err := PlanMultiEdit(content, MultiEditArgs{Edits: tt.edits, Sequential: tt.seq})
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			var wantEdits []text.Edit
			if tt.span != (text.Edit{}) {
				wantEdits = []text.Edit{tt.span}
			}
			if !slices.Equal(p.Edits, wantEdits) || p.Replacements != tt.replacements || p.Line != tt.line || !slices.Equal(p.Notes, tt.notes) {
				t.Errorf("planned %+v; want edits %+v, replacements %d, line %d, notes %q", p, wantEdits, tt.replacements, tt.line, tt.notes)
			}
		})
	}
}

func TestPlanMultiEditFailures(t *testing.T) {
	const notFound = "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation"
	content := "alpha\nbeta\ngamma\n"
	tests := []struct {
		name         string
		edits        []EditArgs
		msg, details string
		is           error
	}{
		{name: "third of three fails", edits: []EditArgs{{OldString: "alpha", NewString: "a"}, {OldString: "beta", NewString: "b"}, {OldString: "delta", NewString: "d"}},
			msg:     "Edit 3 of 3 failed: String not found in file",
			details: notFound + ". Edit 3 is matched against the file as edits 1 and 2 leave it. None of the 3 edits was applied; send them all again with edit 3 fixed",
			is:      ErrNotFound},
		{name: "second matches what the first replaced", edits: []EditArgs{{OldString: "alpha", NewString: "a"}, {OldString: "alpha", NewString: "b"}},
			msg:     "Edit 2 of 2 failed: String not found in file",
			details: notFound + ". Edit 2 is matched against the file as edit 1 leaves it. None of the 2 edits was applied; send them all again with edit 2 fixed",
			is:      ErrNotFound},
		{name: "fourth is ambiguous after the first three", edits: []EditArgs{{OldString: "alpha", NewString: "x"}, {OldString: "beta", NewString: "x"}, {OldString: "gamma", NewString: "y"}, {OldString: "x", NewString: "z"}},
			msg:     "Edit 4 of 4 failed: Multiple matches found",
			details: "Found 2 occurrences, at lines 1 and 2. Use replace_all: true to replace all, or include more surrounding context to make old_string unique. Edit 4 is matched against the file as edits 1 to 3 leave it. None of the 4 edits was applied; send them all again with edit 4 fixed",
			is:      ErrAmbiguous},
		{name: "identical strings named", edits: []EditArgs{{OldString: "alpha", NewString: "a"}, {OldString: "b", NewString: "b"}},
			msg: "Edit 2 of 2 failed: old_string and new_string are identical", details: "No changes would be made. None of the 2 edits was applied; send them all again with edit 2 fixed", is: ErrIdentical},
		{name: "the closest lines stay last", edits: []EditArgs{{OldString: "alpha", NewString: "a"}, {OldString: "  betta", NewString: "b"}},
			msg:     "Edit 2 of 2 failed: String not found in file",
			details: "The specified old_string does not exist in the file. Read the file again and copy the exact text, including whitespace and indentation. Edit 2 is matched against the file as edit 1 leaves it. None of the 2 edits was applied; send them all again with edit 2 fixed",
			is:      ErrNotFound},
		{name: "single edit fails", edits: []EditArgs{{OldString: "", NewString: "a"}},
			msg:     "Edit 1 of 1 failed: old_string is empty",
			details: "Empty text cannot be located. Set old_string to the exact text to replace, copied from the file; to add text, put a neighbouring line in old_string and that line plus the addition in new_string",
			is:      ErrEmptyOldString},
		{name: "no edits", edits: nil, msg: "Invalid arguments", details: `"edits" is empty; give at least one {"old_string", "new_string"} object`, is: ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanMultiEdit([]byte(content), MultiEditArgs{Edits: tt.edits})
			checkFailure(t, err, tt.msg, tt.details, tt.is)
			if p.Edits != nil || p.Replacements != 0 || p.Notes != nil {
				t.Errorf("planned %+v with an error", p)
			}
		})
	}
}
