package texteditor

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// hasLoneLF reports whether b has a "\n" not preceded by "\r".
func hasLoneLF(b []byte) bool {
	return bytes.Count(b, []byte("\n")) != bytes.Count(b, []byte("\r\n"))
}

// FuzzPlans: no input makes the planners or the view panic, their edits
// always apply, inserts only insert, and a pure-CRLF file stays pure CRLF
// when the agent writes "\n".
func FuzzPlans(f *testing.F) {
	f.Add([]byte("foo\r\nbar\r\n"), "\nbar", "\nbaz", 1, 1, -1)
	f.Add([]byte(text.BOM+"a\nb"), "b", "c\n", 2, 2, 2)
	f.Add([]byte(""), "x", "", 0, 1, 1)
	f.Add([]byte("```\naaa\n"), "aa", "a", 0, 1, -1)
	f.Add([]byte("def f():\n    if x:   \n        return 1\n"), "if x:\n    return 1", "if y:\n    return 2", -1, 1, -1)
	f.Add([]byte("s := \"it’s\"\n"), `s := "it's"`, `s := "it is"`, -2, 1, -1)
	f.Fuzz(func(t *testing.T, content []byte, oldStr, newStr string, line, start, end int) {
		pureCRLF := bytes.Contains(content, []byte("\r\n")) && !hasLoneLF(content)
		agentLF := !strings.Contains(oldStr, "\r") && !strings.Contains(newStr, "\r")

		pl, err := PlanStrReplace("f", content, oldStr, newStr)
		if err == nil {
			got, aerr := text.ApplyEdits(content, pl.Edits)
			if aerr != nil {
				t.Fatalf("str_replace edits do not apply: %v", aerr)
			}
			if pureCRLF && agentLF && hasLoneLF(got) {
				t.Fatalf("str_replace put a lone LF into a CRLF file: %q -> %q", content, got)
			}
			// Whatever the ladder forgave, bytes outside the matched
			// region are the file's.
			end := pl.Offset + len(pl.Old)
			if string(content[pl.Offset:end]) != pl.Old || !bytes.HasPrefix(got, content[:pl.Offset]) || !bytes.HasSuffix(got, content[end:]) || len(got) < len(content)-len(pl.Old) {
				t.Fatalf("str_replace (%s) changed bytes outside the match at %d: %q -> %q", pl.Stage, pl.Offset, content, got)
			}
		} else if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrAmbiguous) && !errors.Is(err, ErrInvalidArgs) && !errors.Is(err, match.ErrOmission) {
			t.Fatalf("unwrapped error: %v", err)
		}

		pl, err = PlanInsert("f", content, line, newStr)
		if err == nil {
			for _, e := range pl.Edits {
				if e.Start != e.End {
					t.Fatalf("insert replaces bytes: %+v", e)
				}
			}
			got, aerr := text.ApplyEdits(content, pl.Edits)
			if aerr != nil {
				t.Fatalf("insert edits do not apply: %v", aerr)
			}
			if text.LineCount(got) <= text.LineCount(content) {
				t.Fatalf("insert added no line: %q -> %q", content, got)
			}
			body, _ := text.TrimEOL(newStr)
			lastEmpty := (body == "" || strings.HasSuffix(body, "\n")) && pl.AfterLine == text.LineCount(content)
			if text.EndsWithNewline(got) != (text.EndsWithNewline(content) || text.LineCount(content) == 0 || lastEmpty) {
				t.Fatalf("insert changed the final newline: %q -> %q", content, got)
			}
			if pureCRLF && agentLF && hasLoneLF(got) {
				t.Fatalf("insert put a lone LF into a CRLF file: %q -> %q", content, got)
			}
		}

		if s, err := RenderView("f.txt", content, []int{start, end}); err == nil && !strings.HasPrefix(s, "```") {
			t.Fatalf("view is not fenced: %q", s)
		}
		if s, err := RenderView("f.txt", content, nil); err == nil && !strings.HasPrefix(s, "```") {
			t.Fatalf("view is not fenced: %q", s)
		}
	})
}
