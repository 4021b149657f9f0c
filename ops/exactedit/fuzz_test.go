package exactedit

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// hasLoneLF reports whether b has a "\n" not preceded by "\r".
func hasLoneLF(b []byte) bool {
	return bytes.Count(b, []byte("\n")) != bytes.Count(b, []byte("\r\n"))
}

// FuzzPlans: no input makes the planners or Read panic; every refusal is a
// *Failure; successful plans apply; in an LF file without prefix handling
// Edit is strings.Replace; a pure-CRLF file stays pure CRLF when the agent
// writes "\n"; MultiEdit equals its edits applied one by one; Read shows one
// numbered line per file line.
func FuzzPlans(f *testing.F) {
	f.Add([]byte("foo\r\nbar\r\n"), "\nbar", "\nbaz", false, "bar", "x", 1, 2)
	f.Add([]byte(text.BOM+"a\nb"), "b", "c\n", true, "c", "", 2, 1)
	f.Add([]byte(""), "x", "", false, "", "y", 1, 2000)
	f.Add([]byte("aaaa"), "aa", "a", true, "a", "aa", 1, 1)
	f.Add([]byte("x\n"+strings.Repeat("y", 2100)+"\n"), "     1\tx", "     1\tz", false, "z", "w", 2, 5)
	f.Fuzz(func(t *testing.T, content []byte, old, new string, all bool, old2, new2 string, offset, limit int) {
		orig := bytes.Clone(content)
		pureCRLF := bytes.Contains(content, []byte("\r\n")) && !hasLoneLF(content)
		agentLF := !strings.Contains(old+new+old2+new2, "\r")

		p, err := PlanEdit(content, old, new, all)
		first := content
		if err != nil {
			var fail *Failure
			if !errors.As(err, &fail) || fail.Message == "" || fail.Details == "" || fail.Err == nil {
				t.Fatalf("PlanEdit error is not a complete *Failure: %#v", err)
			}
		} else {
			got, aerr := text.ApplyEdits(content, p.Edits)
			if aerr != nil {
				t.Fatalf("Edit spans do not apply: %v", aerr)
			}
			first = got
			if p.Replacements < 1 || p.Line < 1 {
				t.Fatalf("planned %+v", p)
			}
			if text.DetectEOL(content) == text.LF && p.Notes == nil && p.Forgiven == "" {
				want := strings.Replace(string(content), old, new, -1)
				if !all {
					want = strings.Replace(string(content), old, new, 1)
				}
				if string(got) != want {
					t.Fatalf("Edit(%q -> %q, all %v) on %q = %q, want %q", old, new, all, content, got, want)
				}
			}
			if pureCRLF && agentLF && hasLoneLF(got) {
				t.Fatalf("Edit put a lone LF into a CRLF file: %q -> %q", content, got)
			}
			if text.HasBOM(content) && !text.HasBOM(got) && p.Edits[0].Start >= len(text.BOM) {
				t.Fatalf("Edit lost the BOM: %q -> %q", content, got)
			}
		}

		edits := []EditArgs{{OldString: old, NewString: new, ReplaceAll: all}, {OldString: old2, NewString: new2}}
		m, merr := PlanMultiEdit(content, MultiEditArgs{Edits: edits})
		// Edit 2 may overlap what edit 1 wrote: that refusal is the one
		// failure the edits one by one do not have.
		if merr != nil && err == nil && !errors.Is(merr, ErrOverlap) {
			if _, err2 := PlanEdit(first, old2, new2, false); err2 == nil {
				t.Fatalf("MultiEdit failed where its edits succeed one by one: %v", merr)
			}
		}
		if merr != nil {
			var fail *Failure
			if !errors.As(merr, &fail) || !strings.HasPrefix(fail.Message, "Edit ") {
				t.Fatalf("MultiEdit error not a named *Failure: %#v", merr)
			}
		} else {
			if len(m.Edits) > 1 {
				t.Fatalf("MultiEdit planned %d spans", len(m.Edits))
			}
			got, aerr := text.ApplyEdits(content, m.Edits)
			if aerr != nil {
				t.Fatalf("MultiEdit span does not apply: %v", aerr)
			}
			p2, err2 := PlanEdit(first, old2, new2, false)
			if err != nil || err2 != nil {
				t.Fatalf("MultiEdit succeeded where its edits fail one by one: %v, %v", err, err2)
			}
			want, _ := text.ApplyEdits(first, p2.Edits)
			if !bytes.Equal(got, want) {
				t.Fatalf("MultiEdit = %q, edits one by one = %q", got, want)
			}
		}

		view, rerr := RenderRead(content, offset, limit)
		if rerr == nil && text.LineCount(content) > 0 {
			shown := min(text.LineCount(content)-offset+1, limit)
			if n := strings.Count(view, "\n") + 1; n != shown && n != shown+1 {
				t.Fatalf("Read(%d, %d) of %d lines shows %d lines: %q", offset, limit, text.LineCount(content), n, view)
			}
		} else if rerr != nil {
			var fail *Failure
			if !errors.As(rerr, &fail) {
				t.Fatalf("Read error is not a *Failure: %#v", rerr)
			}
		}

		if !bytes.Equal(content, orig) {
			t.Fatalf("content was modified")
		}
	})
}
