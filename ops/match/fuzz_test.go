package match

import (
	"errors"
	"slices"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// FuzzFind checks, for any content, needle and replacement, at every
// stage: Find never panics; every place lies in the content with Line and
// EndLine as text.LineIndex numbers them, in file order; an Exact match
// is text.FindExact's; and at every tolerant stage but Similar, the
// needle adapted to its place as a replacement is the place's own bytes
// (replacing what was quoted by itself changes nothing), so the ladder
// never rewrites a byte the agent did not change. Bytes outside
// [Start, End) are never touched by construction: a caller splices the
// adapted replacement there.
func FuzzFind(f *testing.F) {
	f.Add([]byte("a\nb\n"), "a\nb\n", "c\n", uint(All))
	f.Add([]byte("  a  \r\n  b\r\n"), "a\nb", "x\ny", uint(All))
	f.Add([]byte("x \u201cq\u201d\n"), `"q"`, "r", uint(All))
	f.Add([]byte("\xef\xbb\xbfa\tb\n"), `a\tb`, `c\td`, uint(Of(Escapes)))
	f.Add([]byte("def f():\n    a = 1\n    b = 2\n    return a\n"), "def f():\n    a = 2\n    b = 2\n    return a\n", "z\n", uint(All))
	f.Add([]byte("caf\u0065\u0301  x\n"), "caf\u00e9 x", "y", uint(All))
	f.Fuzz(func(t *testing.T, content []byte, needle, repl string, stages uint) {
		if len(content) > 1<<14 || len(needle) > 1<<10 {
			return
		}
		m, err := Find(content, needle, Stages(stages)&All)
		if err != nil {
			if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrEmpty) {
				t.Fatalf("unexpected error %v", err)
			}
			if errors.Is(err, ErrNotFound) {
				if offs, _, _ := text.FindExact(content, needle); offs != nil {
					t.Fatalf("not found, but FindExact finds %v", offs)
				}
			}
			return
		}
		if m.Count < len(m.Places) || len(m.Places) == 0 || len(m.Places) > MaxPlaces {
			t.Fatalf("count %d with %d places", m.Count, len(m.Places))
		}
		idx := text.NewLineIndex(content)
		for i, p := range m.Places {
			if p.Start < 0 || p.Start > p.End || p.End > len(content) {
				t.Fatalf("place %d [%d,%d) outside content of %d bytes", i, p.Start, p.End, len(content))
			}
			if i > 0 && p.Start < m.Places[i-1].Start {
				t.Fatalf("places out of order: %+v", m.Places)
			}
			if want := idx.LineAt(p.Start); p.Line != want {
				t.Fatalf("place %d Line %d, LineAt(Start) %d", i, p.Line, want)
			}
			if want := idx.LineAt(max(p.Start, p.End-1)); p.EndLine != want {
				t.Fatalf("place %d EndLine %d, want %d", i, p.EndLine, want)
			}
			got := string(content[:p.Start]) + m.Replacement(i, repl) + string(content[p.End:])
			if got[:p.Start] != string(content[:p.Start]) || got[len(got)-(len(content)-p.End):] != string(content[p.End:]) {
				t.Fatalf("replacement changed bytes outside the place")
			}
			if m.Stage != Exact && m.Stage != Similar && !(m.Stage == Escapes && exactEscapes(content, needle)) {
				if r := m.Replacement(i, needle); r != string(content[p.Start:p.End]) {
					t.Fatalf("stage %v: the needle adapted to place %d is %q, the place is %q", m.Stage, i, r, content[p.Start:p.End])
				}
			}
		}
		if m.Stage == Exact {
			offs, _, _ := text.FindExact(content, needle)
			var got []int
			for _, p := range m.Places {
				got = append(got, p.Start)
			}
			if !slices.Equal(got, offs[:min(len(offs), MaxPlaces)]) || m.Count != len(offs) {
				t.Fatalf("Exact places %v (count %d), FindExact %v", got, m.Count, offs)
			}
		}
	})
}

// exactEscapes reports whether the needle, unescaped, matches exactly
// (Escapes' exact try, whose replacement follows the Exact stage's line
// ending rule rather than the place's bytes).
func exactEscapes(content []byte, needle string) bool {
	u, esc := unescapeNeedle(needle)
	if esc == nil {
		return false
	}
	offs, _, _ := text.FindExact(content, u)
	return offs != nil
}
