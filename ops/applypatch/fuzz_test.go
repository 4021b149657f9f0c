package applypatch

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// FuzzParse: no input makes Parse panic; a refusal is a *Failure wrapping
// ErrInvalidPatch or ErrSamePath; a parsed patch has operations with
// non-empty, distinct paths, and its String parses back to the same patch.
func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch")
	f.Add("*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@ c\n@@ d\n x\n-y\n+z\n\n*** End of File\n*** Delete File: e\n*** End Patch\n")
	f.Add("<<'EOF'\n*** Begin Patch\n*** Update File: a\n x\n+y\n*** End Patch\nEOF\n")
	f.Fuzz(func(t *testing.T, input string) {
		p, err := Parse(input)
		if err != nil {
			var fl *Failure
			if !errors.As(err, &fl) || (!errors.Is(err, ErrInvalidPatch) && !errors.Is(err, ErrSamePath)) || fl.Message == "" {
				t.Fatalf("refusal %T %v is not a *Failure with a sentinel", err, err)
			}
			return
		}
		if len(p.Files) == 0 {
			t.Fatal("parsed a patch without operations")
		}
		if err := p.Distinct(func(s string) string { return s }); err != nil {
			t.Fatalf("parsed patch names one path twice: %v", err)
		}
		for _, op := range p.Files {
			if op.Path == "" || op.Path != strings.TrimSpace(op.Path) {
				t.Fatalf("bad path %q", op.Path)
			}
			for _, h := range op.Hunks {
				if len(h.Lines) == 0 {
					t.Fatal("hunk without lines")
				}
			}
		}
		again, err := Parse(p.String())
		if err != nil {
			t.Fatalf("String does not parse: %v\n%s", err, p.String())
		}
		for i := range again.Files {
			again.Files[i].Line = p.Files[i].Line
		}
		// String spells the patch canonically: how loosely it was read
		// (Lenient, context lines without their space) is not kept.
		p.Lenient = nil
		for i := range p.Files {
			for j := range p.Files[i].Hunks {
				p.Files[i].Hunks[j].Bare = 0
			}
		}
		if !reflect.DeepEqual(again, p) {
			t.Fatalf("String round trip differs:\n%+v\n%+v", p, again)
		}
	})
}

// FuzzPlan: planning a patch against one file never panics, refuses only
// with a *Failure and then returns nothing, and is deterministic. On
// success every added line is in the new content, a BOM and a CRLF file's
// line endings are kept, and a missing final newline stays missing.
func FuzzPlan(f *testing.F) {
	f.Add("@@\n a\n-b\n+c\n", []byte("a\nb\n"))
	f.Add("@@ x\n+y\n", []byte(text.BOM+"x\r\nz\r\n"))
	f.Add("@@\n-b\n*** End of File\n", []byte("a\nb"))
	f.Add("@@\n+\n", []byte("a"))
	f.Add("@@\n one\n-two\n", []byte("one\ntwo"))
	f.Fuzz(func(t *testing.T, hunks string, content []byte) {
		p, err := Parse("*** Begin Patch\n*** Update File: f\n" + hunks + "\n*** End Patch")
		if err != nil {
			return
		}
		files := map[string]File{"f": {Content: bytes.Clone(content), Exists: true}}
		for _, path := range p.Paths() {
			if path != "f" {
				files[path] = File{}
			}
		}
		changes, sum, err := Plan(p, files)
		changes2, sum2, err2 := Plan(p, files)
		if !reflect.DeepEqual(changes, changes2) || !reflect.DeepEqual(sum, sum2) || (err == nil) != (err2 == nil) {
			t.Fatal("Plan is not deterministic")
		}
		if !bytes.Equal(files["f"].Content, content) {
			t.Fatal("Plan modified its input")
		}
		if err != nil {
			var fl *Failure
			if !errors.As(err, &fl) || changes != nil {
				t.Fatalf("refusal %T %v is not a *Failure, or came with changes", err, err)
			}
			return
		}
		var got []byte
		for _, c := range changes {
			if !c.Delete {
				got = c.Content
			}
		}
		if len(p.Files) != 1 || got == nil && len(p.Files[0].Hunks) > 0 {
			return // other operations' own checks are the scenarios'
		}
		// An added line is in the result as sent, or, when its hunk matched
		// with indentation forgiven, re-indented; at the Unicode and
		// escapes stages its characters may be the file's.
		loose := strings.Join(sum.Matched(), "\n")
		for _, h := range p.Files[0].Hunks {
			for _, l := range h.Lines {
				want := l.Text
				if strings.Contains(loose, "indentation: ") {
					want = strings.TrimLeft(want, " \t")
				}
				if l.Op == '+' && !strings.Contains(loose, "unicode: ") && !strings.Contains(loose, "escapes: ") && !bytes.Contains(got, []byte(want)) {
					t.Fatalf("added line %q missing from %q", l.Text, got)
				}
			}
		}
		if text.HasBOM(got) != text.HasBOM(content) {
			t.Fatalf("BOM not kept: %q -> %q", content, got)
		}
		crlfOnly := bytes.Contains(content, []byte("\r\n")) && bytes.Count(content, []byte("\n")) == bytes.Count(content, []byte("\r\n"))
		if crlfOnly && !strings.Contains(hunks, "\r") && bytes.Count(got, []byte("\n")) != bytes.Count(got, []byte("\r\n")) {
			t.Fatalf("lone LF in a CRLF file: %q -> %q", content, got)
		}
		if text.LineCount(content) > 0 && !text.EndsWithNewline(content) && text.EndsWithNewline(got) && !lastLineEmpty(got) {
			t.Fatalf("final newline added: %q -> %q", content, got)
		}
	})
}

// lastLineEmpty reports whether b's last line (BOM ignored) has no text:
// the one case in which a file without a final newline gets one.
func lastLineEmpty(b []byte) bool {
	body := string(b[text.BOMLen(b):])
	rest, ok := text.TrimEOL(body)
	return ok && (rest == "" || strings.HasSuffix(rest, "\n"))
}

// FuzzForgivenHunkStaysInItsRegion (issue 25): a hunk whose lines were
// copied imperfectly (indentation shifted, trailing spaces dropped, a
// context line's space lost, straight quotes for curly ones, tabs escaped)
// either is refused with nothing changed, or changes only as many of the
// file's lines as the hunk's context and removed lines span: every byte
// before and after that region is the file's.
func FuzzForgivenHunkStaysInItsRegion(f *testing.F) {
	f.Add("a:\n  b: 1\n  c: 2\n", uint(1), uint8(1), "  c: 3")
	f.Add("def f():\n\tif x:\n\t\treturn “y”\n\treturn 0\n", uint(1), uint8(6), "\t\treturn z")
	f.Add("x\ny  \nz", uint(1), uint8(2), "w")
	f.Fuzz(func(t *testing.T, content string, pick uint, mangle uint8, added string) {
		if strings.ContainsAny(added, "\r\n") || strings.Contains(content, "\r") || text.NotText([]byte(content)) != nil {
			return
		}
		lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
		if content == "" || len(lines) < 2 {
			return
		}
		at := int(pick % uint(len(lines)-1))
		region := lines[at : at+2]
		var sb strings.Builder
		sb.WriteString("*** Begin Patch\n*** Update File: f\n@@\n")
		for i, l := range region {
			switch mangle % 6 {
			case 0:
				l = "  " + l
			case 1:
				l = strings.TrimLeft(l, " \t")
			case 2:
				l = strings.TrimRight(l, " \t")
			case 3:
				l = strings.NewReplacer("“", `"`, "”", `"`, "’", "'").Replace(l)
			case 4:
				l = strings.ReplaceAll(l, "\t", `\t`)
			}
			if strings.HasPrefix(l, "***") || strings.HasPrefix(l, "@@") {
				return
			}
			switch {
			case i == 0 && mangle%6 == 5 && l != "" && !strings.ContainsAny(l[:1], " +-"):
				sb.WriteString(l + "\n") // its space lost
			case i == 0:
				sb.WriteString(" " + l + "\n")
			default:
				sb.WriteString("-" + l + "\n")
			}
		}
		sb.WriteString("+" + added + "\n*** End Patch")
		p, err := Parse(sb.String())
		if err != nil {
			return
		}
		changes, _, err := Plan(p, map[string]File{"f": {Content: []byte(content), Exists: true}})
		if err != nil {
			if changes != nil {
				t.Fatal("a refusal came with changes")
			}
			return
		}
		got := string(changes[0].Content)
		old := strings.SplitAfter(content, "\n")
		neu := strings.SplitAfter(got, "\n")
		pre := 0
		for pre < len(old) && pre < len(neu) && old[pre] == neu[pre] {
			pre++
		}
		suf := 0
		for suf < len(old)-pre && suf < len(neu)-pre && old[len(old)-1-suf] == neu[len(neu)-1-suf] {
			suf++
		}
		allowed := 2 // the hunk's context and removed lines
		if !strings.HasSuffix(content, "\n") {
			allowed++ // removing the last line takes the line ending before it
		}
		if changed := len(old) - pre - suf; changed > allowed {
			t.Fatalf("%d lines changed outside a 2-line hunk's region:\n%q\n->\n%q\npatch:\n%s", changed, content, got, sb.String())
		}
	})
}
