package positional

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// fuzzPoint builds a position object from fuzz numbers: forms picks which of
// line+column (bit 0) and offset (bit 1) are given, and values are folded
// near the file's size so that most are valid and some are just past it.
func fuzzPoint(content []byte, forms uint8, line, col, off int) map[string]int {
	fold := func(v, n int) int {
		if v < 0 {
			return v % 3 // a few negative values, refused by Parse
		}
		return v % (n + 2)
	}
	p := map[string]int{}
	if forms&1 != 0 || forms&2 == 0 {
		p["line"] = fold(line, text.LineCount(content)+1)
		p["column"] = fold(col, 20)
	}
	if forms&2 != 0 {
		p["offset"] = fold(off, len(content))
	}
	return p
}

// splitsCRLF reports whether byte offset b is between a "\r" and a "\n".
func splitsCRLF(content []byte, b int) bool {
	return b > 0 && b < len(content) && content[b-1] == '\r' && content[b] == '\n'
}

// FuzzPositional: no input makes parsing, planning or searching panic; every
// refusal wraps a sentinel; a successful plan's edits always apply, never
// touch the BOM, never split a "\r\n" (positional commands), keep a pure
// CRLF file pure CRLF when the agent writes "\n"; search ranges resolve back
// to the bytes they matched.
func FuzzPositional(f *testing.F) {
	f.Add([]byte("ab\r\ncd\r\n"), []byte(`{"command":"insert","arguments":{"file_path":"f","content":"x","position":{"offset":3}}}`), uint8(0), uint8(3), 2, 1, 3, uint8(2), 1, 1, 0, "X\nY\n", `\n`)
	f.Add([]byte(text.BOM+"héllo wörld"), []byte(`{"command":"search","arguments":{"file_path":"f","pattern":"(a)|(b)"}}`), uint8(4), uint8(1), 1, 8, 0, uint8(1), 1, 12, 0, "", `w(\S+)`)
	f.Add([]byte(""), []byte(`{"command":"delete","arguments":{"file_path":"f","range":{"start":{"offset":0},"end":{"offset":0}}}}`), uint8(1), uint8(2), 1, 1, 0, uint8(2), 0, 0, 0, "", `x*`)
	f.Add([]byte("a\nb"), []byte(`{"command":"replaceAll","arguments":{"file_path":"f","pattern":"(?m)$","replacement":"$1x\n"}}`), uint8(3), uint8(3), 2, 2, 3, uint8(1), 3, 1, 0, "$$\n", `(?m)(\r?)$`)
	f.Add([]byte("a\r\nb\nc\xff\r"), []byte(`{}`), uint8(2), uint8(0), 1, 3, 1, uint8(3), 4, 1, 9, "\r\n", `.`)
	f.Fuzz(func(t *testing.T, content, raw []byte, cmd, forms1 uint8, l1, c1, o1 int, forms2 uint8, l2, c2, o2 int, text, pattern string) {
		orig := bytes.Clone(content)

		// Arbitrary input: refused with a sentinel, or planned.
		if a, err := Parse(raw); err != nil {
			if !errors.Is(err, ErrInvalidArgs) {
				t.Fatalf("Parse error does not wrap ErrInvalidArgs: %v", err)
			}
		} else {
			checkPlan(t, content, a)
		}

		// Structured input built from the numbers.
		command := Commands[int(cmd)%len(Commands)]
		args := map[string]any{"file_path": "f.txt"}
		switch command {
		case CmdInsert:
			args["content"], args["position"] = text, fuzzPoint(content, forms1, l1, c1, o1)
		case CmdDelete, CmdReplace:
			args["range"] = map[string]any{"start": fuzzPoint(content, forms1, l1, c1, o1), "end": fuzzPoint(content, forms2, l2, c2, o2)}
			if command == CmdReplace {
				args["content"] = text
			}
		case CmdReplaceAll:
			args["pattern"], args["replacement"] = pattern, text
		case CmdSearch:
			args["pattern"] = pattern
		}
		in, err := json.Marshal(map[string]any{"command": command, "arguments": args})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Parse(in)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgs) {
				t.Fatalf("Parse error does not wrap ErrInvalidArgs: %v", err)
			}
			return
		}
		checkPlan(t, content, a)
		if !bytes.Equal(content, orig) {
			t.Fatalf("content modified")
		}
	})
}

// checkPlan plans a against content and checks the invariants.
func checkPlan(t *testing.T, content []byte, a Args) {
	t.Helper()
	pl, err := Plan("f.txt", content, a)
	if err != nil {
		if !errors.Is(err, ErrPosition) {
			t.Fatalf("%s: error does not wrap ErrPosition: %v", a.Command, err)
		}
		return
	}
	out, err := text.ApplyEdits(content, pl.Edits)
	if err != nil {
		t.Fatalf("%s: planned edits do not apply: %v", a.Command, err)
	}
	bom := text.BOMLen(content)
	if !bytes.HasPrefix(out, content[:bom]) {
		t.Fatalf("%s: BOM lost: %q -> %q", a.Command, content, out)
	}
	for _, e := range pl.Edits {
		if e.Start < bom {
			t.Fatalf("%s: edit %+v touches the BOM", a.Command, e)
		}
		if a.Command != CmdReplaceAll && (splitsCRLF(content, e.Start) || splitsCRLF(content, e.End)) {
			t.Fatalf("%s: edit %+v splits a CRLF in %q", a.Command, e, content)
		}
		if a.Command == CmdInsert && e.Start != e.End {
			t.Fatalf("insert replaces bytes: %+v", e)
		}
	}
	pureCRLF := bytes.Contains(content, []byte("\r\n")) && bytes.Count(content, []byte("\n")) == bytes.Count(content, []byte("\r\n"))
	if pureCRLF && (a.Command == CmdInsert || a.Command == CmdReplace) && !strings.Contains(a.Content, "\r") &&
		bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
		t.Fatalf("%s put a lone LF into a CRLF file: %q -> %q", a.Command, content, out)
	}
	if a.Command == CmdSearch {
		checkSearch(t, content, a.Regexp, pl.Response.(SearchResult))
	}
}

// checkSearch checks the count against FindAllIndex, and resolves every
// reported position back, in both forms.
func checkSearch(t *testing.T, content []byte, re *regexp.Regexp, res SearchResult) {
	t.Helper()
	matches := res.Matches
	l := newLocator("f.txt", content)
	bom := text.BOMLen(content)
	idx := re.FindAllIndex(content[bom:], -1)
	if want := min(len(idx), MaxSearchMatches); len(matches) != want {
		t.Fatalf("%d matches, FindAllIndex has %d (cap %d)", len(matches), len(idx), MaxSearchMatches)
	}
	if truncated := len(idx) > MaxSearchMatches; res.Truncated != truncated || (truncated && res.Total != len(idx)) || (!truncated && res.Total != 0) {
		t.Fatalf("truncated %v, total %d; FindAllIndex has %d matches (cap %d)", res.Truncated, res.Total, len(idx), MaxSearchMatches)
	}
	for i, m := range matches {
		if i == 64 {
			break // each check costs a pass over content: keep the fuzzer fast
		}
		for k, p := range []Position{m.Range.Start, m.Range.End} {
			want := bom + idx[i][k]
			b, err := l.resolve("", Point{Offset: p.Offset, HasOffset: true})
			if splitsCRLF(content, want) {
				if err == nil {
					t.Fatalf("offset %d splits a CRLF but resolves", p.Offset)
				}
				continue
			}
			if err != nil || b != want {
				t.Fatalf("match %d: offset %d resolves to %d (%v), want %d", i, p.Offset, b, err, want)
			}
			b, err = l.resolve("", Point{Line: p.Line, Column: p.Column, Offset: p.Offset, HasOffset: true})
			if err != nil || b != want {
				t.Fatalf("match %d: %+v resolves to %d (%v), want %d", i, p, b, err, want)
			}
		}
		if m.Groups[0] != string(content[bom+idx[i][0]:bom+idx[i][1]]) {
			t.Fatalf("match %d: group 0 %q is not the matched text", i, m.Groups[0])
		}
	}
}

// tenMB is a 10 MB file of mixed ASCII and non-ASCII lines.
func tenMB() []byte {
	line := "\tfunc héllo(wörld int) string { return \"日本語\" } // padding\n"
	return bytes.Repeat([]byte(line), 10<<20/len(line))
}

// BenchmarkResolve10MB converts positions near the end of a 10 MB file, in
// both forms: a LineIndex pass plus a character count of what precedes it.
func BenchmarkResolve10MB(b *testing.B) {
	content := tenMB()
	n := text.LineCount(content)
	total := chars(content)
	lastLine := bytes.LastIndexByte(content[:len(content)-1], '\n') + 1
	b.Run("line+column", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			if _, err := newLocator("f", content).resolve("", Point{Line: n, Column: 20}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("offset", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			if _, err := newLocator("f", content).resolve("", Point{Offset: total - 5, HasOffset: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("both", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		p := Point{Line: n, Column: 1, Offset: chars(content[:lastLine]), HasOffset: true}
		for b.Loop() {
			if _, err := newLocator("f", content).resolve("", p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// chars counts the characters of content after its BOM the slow way.
func chars(content []byte) int { return len([]rune(string(content[text.BOMLen(content):]))) }

// TestLargeFile: positions in a 10 MB file resolve correctly and fast
// enough to run as a unit test.
func TestLargeFile(t *testing.T) {
	content := tenMB()
	n := text.LineCount(content)
	a := Args{Command: CmdInsert, Content: "X", Position: Point{Line: n + 1, Column: 1, Offset: chars(content), HasOffset: true}}
	edits, err := PlanInsert("f", content, a)
	if err != nil || len(edits) != 1 || edits[0].Start != len(content) {
		t.Fatalf("edits %+v, err %v", edits, err)
	}
}
