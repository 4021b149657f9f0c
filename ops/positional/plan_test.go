package positional

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// run parses one call and plans and applies it against content, as the
// engine does; path in messages is f.txt.
func run(content, cmd, args string) (string, []text.Edit, any, error) {
	a, err := Parse([]byte(call(cmd, args)))
	if err != nil {
		return "", nil, nil, err
	}
	src := []byte(content)
	pl, err := Plan("f.txt", src, a)
	if err != nil {
		return "", nil, nil, err
	}
	out, err := text.ApplyEdits(src, pl.Edits)
	if err != nil {
		return "", nil, nil, err
	}
	if string(src) != content {
		panic("content modified")
	}
	return string(out), pl.Edits, pl.Response, nil
}

// Argument builders, to keep the tables readable.
func insAt(pos, content string) string {
	c, _ := json.Marshal(content)
	return `{"file_path":"f.txt","content":` + string(c) + `,"position":` + pos + `}`
}

func rng(start, end string) string { return `{"start":` + start + `,"end":` + end + `}` }

func delRange(start, end string) string {
	return `{"file_path":"f.txt","range":` + rng(start, end) + `}`
}

func replRange(start, end, content string) string {
	c, _ := json.Marshal(content)
	return `{"file_path":"f.txt","range":` + rng(start, end) + `,"content":` + string(c) + `}`
}

func lc(line, col int) string {
	b, _ := json.Marshal(map[string]int{"line": line, "column": col})
	return string(b)
}

func off(o int) string {
	b, _ := json.Marshal(map[string]int{"offset": o})
	return string(b)
}

func all3(line, col, o int) string {
	b, _ := json.Marshal(map[string]int{"line": line, "column": col, "offset": o})
	return string(b)
}

const bom = text.BOM

type editCase struct {
	name    string
	content string
	cmd     string
	args    string
	want    string // the content after the edit, when err is ""
	err     string // the exact error
}

func runEditCases(t *testing.T, tests []editCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _, err := run(tt.content, tt.cmd, tt.args)
			if tt.err != "" {
				if err == nil {
					t.Fatalf("no error, got %q", got)
				}
				if !errors.Is(err, ErrPosition) {
					t.Errorf("error does not wrap ErrPosition: %v", err)
				}
				if err.Error() != tt.err {
					t.Errorf("error\n got: %s\nwant: %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestInsert(t *testing.T) {
	const crlf = "ab\r\ncd\r\n"
	runEditCases(t, []editCase{
		// Empty file: the only position is line 1, column 1 / offset 0.
		{name: "empty offset 0", content: "", cmd: "insert", args: insAt(off(0), "x"), want: "x"},
		{name: "empty line 1", content: "", cmd: "insert", args: insAt(lc(1, 1), "x\n"), want: "x\n"},
		{name: "empty line 2", content: "", cmd: "insert", args: insAt(lc(2, 1), "x"),
			err: "invalid position: line 2 is past the end of f.txt, which is empty; use line 1, column 1 (or offset 0)"},
		{name: "empty column 2", content: "", cmd: "insert", args: insAt(lc(1, 2), "x"),
			err: "invalid position: column 2 is past the end of line 1, which is empty; use column 1"},
		{name: "empty offset 1", content: "", cmd: "insert", args: insAt(off(1), "x"),
			err: "invalid position: offset 1 is past the end of f.txt, which is empty; use offset 0"},

		// LF file with a final newline.
		{name: "start of line 2", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(2, 1), "X"), want: "ab\nXcd\n"},
		{name: "end of line 1", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(1, 3), "X"), want: "abX\ncd\n"},
		{name: "end of file by line", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(3, 1), "ef\n"), want: "ab\ncd\nef\n"},
		{name: "end of file by offset", content: "ab\ncd\n", cmd: "insert", args: insAt(off(6), "ef"), want: "ab\ncd\nef"},
		{name: "offset at a newline", content: "ab\ncd\n", cmd: "insert", args: insAt(off(2), "X"), want: "abX\ncd\n"},
		{name: "LF content kept in LF file", content: "ab\ncd\n", cmd: "insert", args: insAt(off(3), "1\n2\n"), want: "ab\n1\n2\ncd\n"},
		{name: "agent CRLF kept in LF file", content: "ab\n", cmd: "insert", args: insAt(off(0), "1\r\n"), want: "1\r\nab\n"},
		{name: "line past the end", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(4, 1), "X"),
			err: "invalid position: line 4 is past the end of f.txt, which has 2 lines; use a line from 1 to 2, or line 3, column 1 for the end of the file"},
		{name: "huge line", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(1<<62, 1), "X"),
			err: "invalid position: line 4611686018427387904 is past the end of f.txt, which has 2 lines; use a line from 1 to 2, or line 3, column 1 for the end of the file"},
		{name: "column past the end", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(1, 4), "X"),
			err: "invalid position: column 4 is past the end of line 1, which has 2 characters; use a column from 1 to 3"},
		{name: "huge column", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(2, 1<<62), "X"),
			err: "invalid position: column 4611686018427387904 is past the end of line 2, which has 2 characters; use a column from 1 to 3"},
		{name: "column 2 of the end line", content: "ab\ncd\n", cmd: "insert", args: insAt(lc(3, 2), "X"),
			err: "invalid position: column 2 is past the end of line 3, which is empty; use column 1"},
		{name: "column past an empty line", content: "a\n\nb\n", cmd: "insert", args: insAt(lc(2, 3), "X"),
			err: "invalid position: column 3 is past the end of line 2, which is empty; use column 1"},
		{name: "one character line", content: "a\n", cmd: "insert", args: insAt(lc(1, 9), "X"),
			err: "invalid position: column 9 is past the end of line 1, which has 1 character; use a column from 1 to 2"},
		{name: "offset past the end", content: "ab\ncd\n", cmd: "insert", args: insAt(off(7), "X"),
			err: "invalid position: offset 7 is past the end of f.txt, which has 6 characters; use an offset from 0 to 6"},
		{name: "huge offset", content: "a", cmd: "insert", args: insAt(off(1<<62), "X"),
			err: "invalid position: offset 4611686018427387904 is past the end of f.txt, which has 1 character; use an offset from 0 to 1"},
		{name: "one line", content: "x\n", cmd: "insert", args: insAt(lc(5, 1), "X"),
			err: "invalid position: line 5 is past the end of f.txt, which has 1 line; use a line from 1 to 1, or line 2, column 1 for the end of the file"},
		{name: "empty content changes nothing", content: "ab\n", cmd: "insert", args: insAt(off(1), ""), want: "ab\n"},
		{name: "tab is one column", content: "\tx\n", cmd: "insert", args: insAt(lc(1, 2), "X"), want: "\tXx\n"},

		// No final newline: the end is the last line's end-of-line column.
		{name: "no final newline, end by line", content: "ab\ncd", cmd: "insert", args: insAt(lc(2, 3), "X"), want: "ab\ncdX"},
		{name: "no final newline, end by offset", content: "ab\ncd", cmd: "insert", args: insAt(off(5), "\nX"), want: "ab\ncd\nX"},
		{name: "no final newline, line after", content: "ab\ncd", cmd: "insert", args: insAt(lc(3, 1), "X"),
			err: "invalid position: line 3 is past the end of f.txt, which has 2 lines; use a line from 1 to 2 (the end of the file is line 2, column 3)"},
		{name: "no final newline, last line column", content: "ab\ncd", cmd: "insert", args: insAt(lc(2, 4), "X"),
			err: "invalid position: column 4 is past the end of line 2, which has 2 characters; use a column from 1 to 3"},

		// CRLF: the "\r\n" is no column, offsets never split it, inserted
		// text gets CRLF.
		{name: "CRLF insert with LF content", content: crlf, cmd: "insert", args: insAt(lc(2, 1), "X\nY\n"), want: "ab\r\nX\r\nY\r\ncd\r\n"},
		{name: "CRLF agent CRLF kept", content: crlf, cmd: "insert", args: insAt(lc(2, 1), "X\r\nY\n"), want: "ab\r\nX\r\nY\r\ncd\r\n"},
		{name: "CRLF end of line is before the CR", content: crlf, cmd: "insert", args: insAt(lc(1, 3), "X"), want: "abX\r\ncd\r\n"},
		{name: "CRLF column on the CR refused", content: crlf, cmd: "insert", args: insAt(lc(1, 4), "X"),
			err: "invalid position: column 4 is past the end of line 1, which has 2 characters; use a column from 1 to 3"},
		{name: "CRLF offset at the CR", content: crlf, cmd: "insert", args: insAt(off(2), "X"), want: "abX\r\ncd\r\n"},
		{name: "CRLF offset splitting", content: crlf, cmd: "insert", args: insAt(off(3), "X"),
			err: `invalid position: offset 3 is between the "\r" and "\n" that end line 1, which would split that line ending; use offset 2 (the end of line 1) or 4 (the start of line 2)`},
		{name: "CRLF offset after the LF", content: crlf, cmd: "insert", args: insAt(off(4), "X"), want: "ab\r\nXcd\r\n"},
		{name: "CRLF end of file", content: crlf, cmd: "insert", args: insAt(lc(3, 1), "ef\n"), want: "ab\r\ncd\r\nef\r\n"},
		{name: "CRLF end of file by offset", content: crlf, cmd: "insert", args: insAt(off(8), "ef"), want: "ab\r\ncd\r\nef"},
		{name: "CRLF last line without newline", content: "ab\r\ncd", cmd: "insert", args: insAt(lc(2, 3), "\nef"), want: "ab\r\ncd\r\nef"},
		{name: "mixed file never splits CRLF", content: "a\r\nb\nc\n", cmd: "insert", args: insAt(off(2), "X"),
			err: `invalid position: offset 2 is between the "\r" and "\n" that end line 1, which would split that line ending; use offset 1 (the end of line 1) or 3 (the start of line 2)`},
		{name: "mixed LF-majority file keeps LF content", content: "a\r\nb\nc\n", cmd: "insert", args: insAt(off(3), "X\n"), want: "a\r\nX\nb\nc\n"},
		{name: "lone CR is a column", content: "a\rb\n", cmd: "insert", args: insAt(lc(1, 3), "X"), want: "a\rXb\n"},

		// BOM: not a character, never moved.
		{name: "BOM offset 0", content: bom + "ab\n", cmd: "insert", args: insAt(off(0), "X"), want: bom + "Xab\n"},
		{name: "BOM line 1 column 1", content: bom + "ab\n", cmd: "insert", args: insAt(lc(1, 1), "X"), want: bom + "Xab\n"},
		{name: "BOM end", content: bom + "ab\n", cmd: "insert", args: insAt(off(3), "X"), want: bom + "ab\nX"},
		{name: "BOM offset past the end", content: bom + "ab\n", cmd: "insert", args: insAt(off(4), "X"),
			err: "invalid position: offset 4 is past the end of f.txt, which has 3 characters; use an offset from 0 to 3"},
		{name: "BOM-only file", content: bom, cmd: "insert", args: insAt(lc(1, 1), "X"), want: bom + "X"},
		{name: "BOM-only file offset 1", content: bom, cmd: "insert", args: insAt(off(1), "X"),
			err: "invalid position: offset 1 is past the end of f.txt, which is empty; use offset 0"},

		// Code points, not bytes.
		{name: "column 8 is before ö", content: "héllo wörld\n", cmd: "insert", args: insAt(lc(1, 8), "X"), want: "héllo wXörld\n"},
		{name: "offset 7 is before ö", content: "héllo wörld\n", cmd: "insert", args: insAt(off(7), "X"), want: "héllo wXörld\n"},
		{name: "non-ASCII end of line", content: "héllo wörld\n", cmd: "insert", args: insAt(lc(1, 12), "X"), want: "héllo wörldX\n"},
		{name: "non-ASCII column past the end", content: "héllo wörld\n", cmd: "insert", args: insAt(lc(1, 13), "X"),
			err: "invalid position: column 13 is past the end of line 1, which has 11 characters; use a column from 1 to 12"},
		{name: "non-ASCII offset past the end", content: "héllo wörld\n", cmd: "insert", args: insAt(off(13), "X"),
			err: "invalid position: offset 13 is past the end of f.txt, which has 12 characters; use an offset from 0 to 12"},
		{name: "CJK and emoji", content: "日本語\n🙂x\n", cmd: "insert", args: insAt(lc(2, 2), "X"), want: "日本語\n🙂Xx\n"},
		{name: "CJK by offset", content: "日本語\n🙂x\n", cmd: "insert", args: insAt(off(5), "X"), want: "日本語\n🙂Xx\n"},
		{name: "invalid UTF-8 byte is one character", content: "a\xffb", cmd: "insert", args: insAt(off(2), "X"), want: "a\xffXb"},

		// Both forms.
		{name: "both forms agree", content: "ab\ncd\n", cmd: "insert", args: insAt(all3(2, 2, 4), "X"), want: "ab\ncXd\n"},
		{name: "both forms agree at the end", content: "ab\ncd\n", cmd: "insert", args: insAt(all3(3, 1, 6), "X"), want: "ab\ncd\nX"},
		{name: "both forms agree, non-ASCII", content: "é\nö\n", cmd: "insert", args: insAt(all3(2, 2, 3), "X"), want: "é\nöX\n"},
		{name: "both forms disagree", content: "ab\ncd\n", cmd: "insert", args: insAt(all3(2, 2, 5), "X"),
			err: "invalid position: line 2, column 2 is offset 4, but offset 5 was given; give one form or make them agree"},
		{name: "both forms, offset past the end", content: "ab\ncd\n", cmd: "insert", args: insAt(all3(1, 1, 500), "X"),
			err: "invalid position: line 1, column 1 is offset 0, but offset 500 was given; give one form or make them agree"},
		{name: "both forms, bad line reported first", content: "ab\ncd\n", cmd: "insert", args: insAt(all3(9, 1, 0), "X"),
			err: "invalid position: line 9 is past the end of f.txt, which has 2 lines; use a line from 1 to 2, or line 3, column 1 for the end of the file"},
		{name: "both forms, CRLF counts the CR and LF", content: crlf, cmd: "insert", args: insAt(all3(2, 1, 4), "X"), want: "ab\r\nXcd\r\n"},
	})
}

func TestDelete(t *testing.T) {
	runEditCases(t, []editCase{
		{name: "whole line", content: "ab\ncd\n", cmd: "delete", args: delRange(lc(1, 1), lc(2, 1)), want: "cd\n"},
		{name: "by offsets", content: "ab\ncd\n", cmd: "delete", args: delRange(off(1), off(4)), want: "ad\n"},
		{name: "mixed forms", content: "ab\ncd\n", cmd: "delete", args: delRange(off(1), lc(2, 2)), want: "ad\n"},
		{name: "last line to the end", content: "ab\ncd\n", cmd: "delete", args: delRange(lc(2, 1), lc(3, 1)), want: "ab\n"},
		{name: "final newline", content: "ab\n", cmd: "delete", args: delRange(lc(1, 3), lc(2, 1)), want: "ab"},
		{name: "no final newline stays missing", content: "ab\ncd", cmd: "delete", args: delRange(lc(2, 1), lc(2, 2)), want: "ab\nd"},
		{name: "everything", content: "ab\ncd", cmd: "delete", args: delRange(off(0), off(5)), want: ""},
		{name: "empty range changes nothing", content: "ab\n", cmd: "delete", args: delRange(off(1), lc(1, 2)), want: "ab\n"},
		{name: "empty file empty range", content: "", cmd: "delete", args: delRange(off(0), off(0)), want: ""},
		{name: "CRLF whole line", content: "ab\r\ncd\r\n", cmd: "delete", args: delRange(lc(1, 1), lc(2, 1)), want: "cd\r\n"},
		{name: "CRLF line ending by offsets", content: "ab\r\ncd\r\n", cmd: "delete", args: delRange(off(2), off(4)), want: "abcd\r\n"},
		{name: "CRLF range end splits", content: "ab\r\ncd\r\n", cmd: "delete", args: delRange(off(0), off(3)),
			err: `invalid position: range end: offset 3 is between the "\r" and "\n" that end line 1, which would split that line ending; use offset 2 (the end of line 1) or 4 (the start of line 2)`},
		{name: "BOM kept", content: bom + "ab\n", cmd: "delete", args: delRange(off(0), off(1)), want: bom + "b\n"},
		{name: "non-ASCII", content: "héllo wörld\n", cmd: "delete", args: delRange(lc(1, 8), lc(1, 9)), want: "héllo wrld\n"},
		{name: "start after end", content: "ab\ncd\n", cmd: "delete", args: delRange(off(4), off(1)),
			err: `invalid position: range start (offset 4) is after its end (offset 1); give the earlier position as "start" and the later as "end"`},
		{name: "start after end, line form", content: "ab\ncd\n", cmd: "delete", args: delRange(lc(2, 1), off(1)),
			err: `invalid position: range start (line 2, column 1) is after its end (offset 1); give the earlier position as "start" and the later as "end"`},
		{name: "start past the end", content: "ab\ncd\n", cmd: "delete", args: delRange(lc(7, 1), lc(2, 1)),
			err: "invalid position: range start: line 7 is past the end of f.txt, which has 2 lines; use a line from 1 to 2, or line 3, column 1 for the end of the file"},
		{name: "end past the end", content: "ab\ncd\n", cmd: "delete", args: delRange(off(0), off(9)),
			err: "invalid position: range end: offset 9 is past the end of f.txt, which has 6 characters; use an offset from 0 to 6"},
		{name: "end forms disagree", content: "ab\ncd\n", cmd: "delete", args: delRange(off(0), all3(1, 2, 2)),
			err: "invalid position: range end: line 1, column 2 is offset 1, but offset 2 was given; give one form or make them agree"},
	})
}

func TestReplace(t *testing.T) {
	runEditCases(t, []editCase{
		{name: "word", content: "hello world", cmd: "replace", args: replRange(off(6), off(11), "there"), want: "hello there"},
		{name: "across lines", content: "ab\ncd\nef\n", cmd: "replace", args: replRange(lc(1, 2), lc(3, 2), "X"), want: "aXf\n"},
		{name: "empty range is an insertion", content: "ab\n", cmd: "replace", args: replRange(off(1), off(1), "X"), want: "aXb\n"},
		{name: "empty file", content: "", cmd: "replace", args: replRange(off(0), lc(1, 1), "x\n"), want: "x\n"},
		{name: "with empty text deletes", content: "abc", cmd: "replace", args: replRange(off(1), off(2), ""), want: "ac"},
		{name: "same text changes nothing", content: "abc", cmd: "replace", args: replRange(off(1), off(2), "b"), want: "abc"},
		{name: "CRLF content converted", content: "ab\r\ncd\r\n", cmd: "replace", args: replRange(lc(1, 1), lc(1, 3), "1\n2"), want: "1\r\n2\r\ncd\r\n"},
		{name: "CRLF whole line", content: "ab\r\ncd\r\n", cmd: "replace", args: replRange(lc(2, 1), lc(3, 1), "x\n"), want: "ab\r\nx\r\n"},
		{name: "no final newline kept", content: "ab\ncd", cmd: "replace", args: replRange(lc(2, 1), lc(2, 3), "xyz"), want: "ab\nxyz"},
		{name: "BOM kept", content: bom + "ab", cmd: "replace", args: replRange(off(0), off(2), "X"), want: bom + "X"},
		{name: "non-ASCII", content: "héllo wörld\n", cmd: "replace", args: replRange(lc(1, 2), lc(1, 3), "e"), want: "hello wörld\n"},
		{name: "start after end", content: "abc", cmd: "replace", args: replRange(lc(1, 3), lc(1, 2), "X"),
			err: `invalid position: range start (line 1, column 3) is after its end (line 1, column 2); give the earlier position as "start" and the later as "end"`},
	})
}

func TestPlanNoEdits(t *testing.T) {
	for _, tt := range []struct{ name, content, cmd, args string }{
		{"empty insert", "ab", "insert", insAt(off(1), "")},
		{"empty delete", "ab", "delete", delRange(off(1), off(1))},
		{"identical replace", "ab", "replace", replRange(off(0), off(1), "a")},
		{"identical CRLF replace", "a\r\nb", "replace", replRange(off(0), off(4), "a\nb")},
		{"no match", "ab", "replaceAll", `{"file_path":"f","pattern":"z","replacement":"y"}`},
		{"identical replacement", "ab", "replaceAll", `{"file_path":"f","pattern":"(a)","replacement":"$1"}`},
	} {
		if _, edits, _, err := run(tt.content, tt.cmd, tt.args); err != nil || edits != nil {
			t.Errorf("%s: edits %v, err %v; want none", tt.name, edits, err)
		}
	}
}

func TestReplaceAll(t *testing.T) {
	tests := []struct {
		name, content, pattern, replacement string
		want                                string
		n                                   int
	}{
		{"group", "foo fooo\n", `f(o+)`, `b$1`, "boo booo\n", 2},
		{"braced group", "foo\n", `f(o+)`, `${1}x`, "oox\n", 1},
		{"named group", "a@b c@d", `(?P<user>\w)@(?P<host>\w)`, `${user} at ${host}`, "a at b c at d", 2},
		{"$name unbraced", "a@b", `(?P<user>\w)@`, `$user:`, "a:b", 1},
		{"dollar dollar", "cost 5, 10", `(\d+)`, `$$$1`, "cost $5, $10", 2},
		{"$1x pitfall reads group 1x", "abc", `(a)`, `$1x`, "bc", 1},
		{"${1}x is the fix", "abc", `(a)`, `${1}x`, "axbc", 1},
		{"missing group is empty", "abc", `(b)`, `[$2]`, "a[]c", 1},
		{"non-participating group is empty", "ab", `(a)|(b)`, `<$1|$2>`, "<a|><|b>", 2},
		{"empty matches like Go", "abc", `x*`, `-`, "-a-b-c-", 4},
		{"empty match after a match skipped", "abc", `b*`, `-`, "-a-c-", 3},
		{"zero matches", "abc", `z`, `y`, "abc", 0},
		{"empty file", "", `x*`, `y`, "y", 1},
		{"whole-file anchors without (?m)", "a\nb\n", `^|$`, `|`, "|a\nb\n|", 2},
		{"per-line anchors with (?m)", "a\nb", `(?m)^`, `> `, "> a\n> b", 2},
		{"(?m)^ also matches after a final newline", "a\nb\n", `(?m)^`, `> `, "> a\n> b\n> ", 3},
		{"(?m)^. skips that empty end", "a\nb\n", `(?m)^(.)`, `>$1`, ">a\n>b\n", 2},
		{"non-ASCII", "héllo wörld", `ö`, `oe`, "héllo woerld", 1},
		{"deletion", "a1b22c", `\d+`, ``, "abc", 2},
		{"across lines", "a\nb\nc", `a\nb`, `x`, "x\nc", 1},
		{"identical replacements still count", "aaa", `a`, `a`, "aaa", 3},

		// CRLF files: "\r" is text; lone "\n" in replacements become "\r\n".
		{"CRLF replacement newline converted", "a;b\r\n", `;`, ";\n", "a;\r\nb\r\n", 1},
		{"CRLF match of LF alone keeps one CRLF", "a\r\nb\r\n", `\n`, "\n\n", "a\r\n\r\nb\r\n\r\n", 2},
		{"CRLF whole line ending", "a\r\nb\r\n", `\r\n`, "\n\n", "a\r\n\r\nb\r\n\r\n", 2},
		{"CRLF dot matches CR", "ab\r\n", `b.`, `B`, "aB\n", 1},
		{"CRLF (?m)$ is before the LF", "a\r\nb\r\n", `(?m)$`, `;`, "a\r;\nb\r;\n;", 3},
		{"CRLF (?m)(\\r?)$ appends before the CR", "a\r\nb\r\n", `(?m)(\r?)$`, `;$1`, "a;\r\nb;\r\n;", 3},
		{"LF file keeps LF", "a;b\n", `;`, ";\n", "a;\nb\n", 1},

		// BOM: never matched, never replaced.
		{"BOM not matched by ^", bom + "ab", `^.`, `X`, bom + "Xb", 1},
		{"BOM not matched by its code point", bom + "ab", `\x{FEFF}`, `X`, bom + "ab", 0},
		{"BOM with empty matches", bom + "ab", `x*`, `-`, bom + "-a-b-", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := json.Marshal(map[string]string{"file_path": "f", "pattern": tt.pattern, "replacement": tt.replacement})
			got, _, res, err := run(tt.content, "replaceAll", string(a))
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if want := ReplacedAll(tt.n); res != want {
				t.Errorf("result %+v, want %+v", res, want)
			}
		})
	}
}

func TestPlanReplaceAllNilRegexp(t *testing.T) {
	_, _, err := PlanReplaceAll("f.txt", []byte("a"), nil, "")
	if !errors.Is(err, ErrInvalidArgs) {
		t.Errorf("err = %v", err)
	}
}

func pos(line, col, o int) Position { return Position{Line: line, Column: col, Offset: o} }

func TestSearch(t *testing.T) {
	tests := []struct {
		name, content, pattern string
		want                   []Match
	}{
		{"two lines", "foo bar\nbaz foo\n", `fo(o)`, []Match{
			{Range{pos(1, 1, 0), pos(1, 4, 3)}, []string{"foo", "o"}},
			{Range{pos(2, 5, 12), pos(2, 8, 15)}, []string{"foo", "o"}},
		}},
		{"non-participating group", "b", `(a)|(b)`, []Match{
			{Range{pos(1, 1, 0), pos(1, 2, 1)}, []string{"b", "", "b"}},
		}},
		{"named groups", "k=v", `(?P<key>\w)=(?P<val>\w)`, []Match{
			{Range{pos(1, 1, 0), pos(1, 4, 3)}, []string{"k=v", "k", "v"}},
		}},
		{"no match", "abc", `z`, []Match{}},
		{"empty file", "", `a`, []Match{}},
		{"code points", "héllo wörld\n", `w\S+`, []Match{
			{Range{pos(1, 7, 6), pos(1, 12, 11)}, []string{"wörld"}},
		}},
		{"emoji", "🙂🙂x", `x`, []Match{{Range{pos(1, 3, 2), pos(1, 4, 3)}, []string{"x"}}}},
		{"BOM not counted", bom + "ab", `b`, []Match{{Range{pos(1, 2, 1), pos(1, 3, 2)}, []string{"b"}}}},
		{"match ending at a newline ends at the next line", "ab\ncd", `b\n`, []Match{
			{Range{pos(1, 2, 1), pos(2, 1, 3)}, []string{"b\n"}},
		}},
		{"CRLF positions", "ab\r\ncd", `c`, []Match{{Range{pos(2, 1, 4), pos(2, 2, 5)}, []string{"c"}}}},
		{"CRLF LF alone is between CR and LF", "ab\r\ncd", `\n`, []Match{{Range{pos(1, 4, 3), pos(2, 1, 4)}, []string{"\n"}}}},
		{"empty matches", "ab", `x*`, []Match{
			{Range{pos(1, 1, 0), pos(1, 1, 0)}, []string{""}},
			{Range{pos(1, 2, 1), pos(1, 2, 1)}, []string{""}},
			{Range{pos(1, 3, 2), pos(1, 3, 2)}, []string{""}},
		}},
		{"multiline", "a1\nb2\nc3\n", `(?m)^(\w)\d$`, []Match{
			{Range{pos(1, 1, 0), pos(1, 3, 2)}, []string{"a1", "a"}},
			{Range{pos(2, 1, 3), pos(2, 3, 5)}, []string{"b2", "b"}},
			{Range{pos(3, 1, 6), pos(3, 3, 8)}, []string{"c3", "c"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := json.Marshal(map[string]string{"file_path": "f", "pattern": tt.pattern})
			_, edits, res, err := run(tt.content, "search", string(a))
			if err != nil || edits != nil {
				t.Fatalf("edits %v, err %v", edits, err)
			}
			if got := res.(SearchResult).Matches; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestSearchRangesFeedBack: a match's range, given back to replace in
// either form, replaces exactly the matched text.
func TestSearchRangesFeedBack(t *testing.T) {
	content := []byte(bom + "héllo wörld\r\n\tsecond wörld\r\nthird")
	re := regexp.MustCompile(`w\S+|d$`)
	for _, m := range Search(content, re).Matches {
		for _, s := range []Span{
			{Point{Line: m.Range.Start.Line, Column: m.Range.Start.Column}, Point{Line: m.Range.End.Line, Column: m.Range.End.Column}},
			{Point{Offset: m.Range.Start.Offset, HasOffset: true}, Point{Offset: m.Range.End.Offset, HasOffset: true}},
		} {
			edits, err := PlanReplace("f", content, Args{Range: s, Content: "<>"})
			if err != nil {
				t.Fatalf("%+v: %v", m, err)
			}
			if len(edits) != 1 || string(content[edits[0].Start:edits[0].End]) != m.Groups[0] {
				t.Errorf("%+v: edits %+v", m, edits)
			}
		}
	}
}

func TestResultJSON(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{Inserted(), `{"status":"success","message":"Content inserted successfully."}`},
		{Deleted(), `{"status":"success","message":"Text deleted successfully."}`},
		{Replaced(), `{"status":"success","message":"Text replaced successfully."}`},
		{ReplacedAll(3), `{"status":"success","replacements_made":3}`},
		{Found(nil), `{"matches":[]}`},
		{Found([]Match{{Range{pos(1, 2, 1), pos(2, 1, 3)}, []string{"b\n", ""}}}),
			`{"matches":[{"range":{"start":{"line":1,"column":2,"offset":1},"end":{"line":2,"column":1,"offset":3}},"groups":["b\n",""]}]}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("got %s (%v), want %s", b, err, tt.want)
		}
	}
	a, err := Parse([]byte(call("search", `{"file_path":"f","pattern":"z"}`)))
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := Plan("f", []byte("abc"), a)
	if b, _ := json.Marshal(pl.Response); string(b) != `{"matches":[]}` {
		t.Errorf("search without matches: %s", b)
	}
}

func TestPlanUnknownCommand(t *testing.T) {
	_, err := Plan("f", nil, Args{Command: "view"})
	if !errors.Is(err, ErrInvalidArgs) || !strings.Contains(err.Error(), `unknown command "view"`) {
		t.Errorf("err = %v", err)
	}
	if _, err := Plan("f", nil, Args{Command: CmdSearch}); !errors.Is(err, ErrInvalidArgs) {
		t.Errorf("search without Regexp: err = %v", err)
	}
}

// TestInputNotModified: planning never writes into the content.
func TestInputNotModified(t *testing.T) {
	content := []byte("a\r\nb\r\n")
	orig := bytes.Clone(content)
	re := regexp.MustCompile(`\n`)
	PlanReplaceAll("f", content, re, "\n\n")
	Search(content, re)
	PlanReplace("f", content, Args{Range: Span{Point{HasOffset: true}, Point{Offset: 6, HasOffset: true}}, Content: "x\n"})
	if !bytes.Equal(content, orig) {
		t.Errorf("content modified: %q", content)
	}
}

// TestHandBuiltPoints: Points that Parse never returns are refused, not
// resolved to some place.
func TestHandBuiltPoints(t *testing.T) {
	for _, tt := range []struct {
		p    Point
		want string
	}{
		{Point{}, `invalid position: the position gives neither "line" and "column" nor "offset"`},
		{Point{Line: 1}, "invalid position: line 1, column 0 is not a position; lines and columns are numbered from 1"},
		{Point{Column: 2, HasOffset: true}, "invalid position: line 0, column 2 is not a position; lines and columns are numbered from 1"},
		{Point{Line: -1, Column: 1}, "invalid position: line -1, column 1 is not a position; lines and columns are numbered from 1"},
		{Point{Offset: -3, HasOffset: true}, "invalid position: offset -3 is before the start of the file; offsets are numbered from 0"},
	} {
		_, err := PlanInsert("f.txt", []byte("abc\n"), Args{Position: tt.p, Content: "x"})
		if err == nil || !errors.Is(err, ErrPosition) || err.Error() != tt.want {
			t.Errorf("%+v: error\n got: %v\nwant: %s", tt.p, err, tt.want)
		}
	}
}
