package editlines

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// seedText matches every text a Plan refusal may have: the seed's own.
var seedText = regexp.MustCompile(`^(no operations provided|unknown operation: .*|invalid line number: -?\d+ \(must be >= [01]\)|invalid range: startLine -?\d+ > endLine -?\d+|line \d+ out of range \(file has \d+ lines\)|operations overlap at line \d+)$`)

// refLine is one line of the reference model: its text and its ending.
type refLine struct{ text, term string }

// reference applies valid operations the slow, obvious way: split the file
// into lines, walk the original lines once emitting inserts, replacements
// and survivors, then settle the line endings: every line but the last is
// terminated, and the last one is unterminated exactly when the original
// file (non-empty) was and the line is not empty.
func reference(content []byte, list []Operation) []byte {
	b := text.BOMLen(content)
	body := string(content[b:])
	var orig []refLine
	for body != "" {
		i := strings.IndexByte(body, '\n')
		if i < 0 {
			orig = append(orig, refLine{body, ""})
			break
		}
		text, _ := text.TrimEOL(body[:i+1])
		orig = append(orig, refLine{text, body[len(text) : i+1]})
		body = body[i+1:]
	}
	eol := text.DetectEOL(content)
	newLines := func(c []string) []refLine {
		if len(c) == 0 {
			return nil
		}
		parts := strings.Split(text.ToEOL(strings.Join(c, "\n"), eol), "\n")
		out := make([]refLine, len(parts))
		for i, p := range parts {
			out[i] = refLine{p, "\n"}
		}
		out[len(out)-1].term = eol
		return out
	}
	inserts := map[int][]refLine{}
	ranges := map[int]Operation{}
	for _, o := range list {
		if o.Op == OpInsert {
			inserts[o.AfterLine] = append(inserts[o.AfterLine], newLines(o.Content)...)
		} else {
			ranges[o.StartLine] = o
		}
	}
	out := append([]refLine(nil), inserts[0]...)
	for k := 1; k <= len(orig); {
		if r, ok := ranges[k]; ok {
			if r.Op == OpReplace {
				out = append(out, newLines(r.Content)...)
			}
			k = r.EndLine + 1
		} else {
			out = append(out, orig[k-1])
			k++
		}
		out = append(out, inserts[k-1]...)
	}
	for i := range out {
		if i < len(out)-1 && out[i].term == "" {
			out[i].term = eol
		}
	}
	if n := len(out); n > 0 && len(orig) > 0 && !text.EndsWithNewline(content) && out[n-1].text != "" {
		out[n-1].term = ""
	}
	res := append([]byte(nil), content[:b]...)
	for _, l := range out {
		res = append(res, l.text+l.term...)
	}
	return res
}

// decodeOps turns fuzz bytes into operations, 4 bytes each: the kind, two
// line numbers near the file's range (some out of it), and the content.
func decodeOps(total int, enc []byte) []Operation {
	palette := []string{"", "x", "y\n", "z\r\n", "\t", "w\r", "\n"}
	var list []Operation
	for i := 0; i+4 <= len(enc) && len(list) < 12; i += 4 {
		a := int(enc[i+1])%(total+3) - 1
		e := a + int(enc[i+2])%5 - 1
		var c []string
		for j := 0; j < int(enc[i+3]%4); j++ {
			c = append(c, palette[(int(enc[i+3])/4+j)%len(palette)])
		}
		switch enc[i] % 8 {
		case 0, 3:
			list = append(list, Operation{Op: OpReplace, StartLine: a, EndLine: e, Content: c})
		case 1, 4, 6:
			list = append(list, Operation{Op: OpInsert, AfterLine: a, Content: c})
		case 2, 5:
			list = append(list, Operation{Op: OpDelete, StartLine: a, EndLine: e})
		default:
			list = append(list, Operation{Op: "move", StartLine: a})
		}
	}
	return list
}

// checkPlan plans list against content and checks the result against the
// reference model and the fidelity rules.
func checkPlan(t *testing.T, content []byte, list []Operation) {
	orig := bytes.Clone(content)
	p, err := Plan("f", content, list)
	if !bytes.Equal(content, orig) {
		t.Fatalf("content modified")
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, e.Kind) || !seedText.MatchString(e.Text) || !strings.HasPrefix(err.Error(), e.Text) {
			t.Fatalf("refusal is not a seed error: %#v", err)
		}
		return
	}
	got, err := text.ApplyEdits(content, p.Edits)
	if err != nil {
		t.Fatalf("edits do not apply: %v\ncontent %q\nops %+v\nedits %+v", err, content, list, p.Edits)
	}
	if n := text.LineCount(got); n != p.NewLineCount {
		t.Fatalf("NewLineCount %d, result has %d lines\ncontent %q\nops %+v\ngot %q", p.NewLineCount, n, content, list, got)
	}
	if want := reference(content, list); !bytes.Equal(got, want) {
		t.Fatalf("content %q\nops %+v\ngot  %q\nwant %q", content, list, got, want)
	}
	if !bytes.HasPrefix(got, content[:text.BOMLen(content)]) {
		t.Fatalf("BOM lost: %q", got)
	}
	// Without a final newline before, the result has one only when its last
	// line is empty.
	rest, _ := text.TrimEOL(string(got[text.BOMLen(got):]))
	lastEmpty := rest == "" || strings.HasSuffix(rest, "\n")
	if text.LineCount(content) > 0 && !text.EndsWithNewline(content) && text.EndsWithNewline(got) && !lastEmpty {
		t.Fatalf("gained a final newline: %q -> %q", content, got)
	}
	if text.EndsWithNewline(content) && text.LineCount(got) > 0 && !text.EndsWithNewline(got) {
		t.Fatalf("lost the final newline: %q -> %q", content, got)
	}
	for _, e := range p.Edits {
		if string(content[e.Start:e.End]) == e.New {
			t.Fatalf("no-op edit %+v", e)
		}
	}
}

// FuzzEditLines: no input makes Parse or Plan panic; every plan applies,
// its NewLineCount is the result's line count, and the result is the
// reference model's. The seeds run as a normal test.
func FuzzEditLines(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), `{"path":"f","operations":[{"op":"replace","startLine":2,"endLine":3,"content":["x"]}]}`, []byte{0, 2, 2, 1})
	f.Add([]byte("a\nb"), `{"path":"f","operations":[{"op":"insert","afterLine":2,"content":["c",""]}]}`, []byte{1, 3, 0, 5, 2, 2, 1, 0})
	f.Add([]byte("a\r\nb\r\nc"), `{"path":"f","operations":[{"op":"delete","startLine":3,"endLine":3},{"op":"insert","afterLine":1,"content":["x"]}]}`, []byte{2, 3, 1, 0, 1, 1, 0, 6})
	f.Add([]byte(text.BOM), `{"path":"f","operations":[{"op":"insert","afterLine":0,"content":["x"]}]}`, []byte{1, 1, 0, 1})
	f.Add([]byte(""), `{"path":"f","operations":[]}`, []byte{})
	f.Add([]byte(text.BOM+"a\n\nb"), `{"path":"f","operations":[{"op":"delete","startLine":3,"endLine":3}]}`, []byte{2, 4, 1, 0, 0, 1, 2, 9})
	f.Add([]byte("a\nb\nc\nd\n"), `{"path":"f","operations":[{"op":"replace","startLine":1,"endLine":2,"content":[]},{"op":"delete","startLine":2,"endLine":3}]}`, []byte{0, 1, 3, 0, 2, 2, 3, 0})
	f.Add([]byte("x"), `{"path":"f","operations":[{"op":"insert","afterLine":1e30,"content":[1]}]}`, []byte{1, 2, 0, 3, 1, 2, 0, 7, 3, 0, 0, 0})
	f.Add([]byte("a\r\n\r\nb"), `{"path":"f","operations":[{"op":"delete","startLine":2,"endLine":3}]}`, []byte{2, 3, 2, 0, 0, 1, 1, 30})
	f.Fuzz(func(t *testing.T, content []byte, args string, enc []byte) {
		if a, err := Parse([]byte(args)); err == nil {
			if a.Path == "" || len(a.Operations) == 0 {
				t.Fatalf("accepted %+v", a)
			}
			checkPlan(t, content, a.Operations)
		} else if !errors.Is(err, ErrInvalidArgs) {
			t.Fatalf("parse error does not wrap ErrInvalidArgs: %v", err)
		}
		checkPlan(t, content, decodeOps(text.LineCount(content), enc))
	})
}
