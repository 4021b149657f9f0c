package text

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestBOM(t *testing.T) {
	for _, tt := range []struct {
		in  string
		has bool
	}{
		{"", false}, {"\xef\xbb", false}, {BOM, true}, {BOM + "x", true}, {"x" + BOM, false},
	} {
		if HasBOM([]byte(tt.in)) != tt.has {
			t.Errorf("HasBOM(%q) = %v", tt.in, !tt.has)
		}
		want := 0
		if tt.has {
			want = 3
		}
		if BOMLen([]byte(tt.in)) != want {
			t.Errorf("BOMLen(%q) = %d, want %d", tt.in, BOMLen([]byte(tt.in)), want)
		}
	}
}

func TestLineModel(t *testing.T) {
	tests := []struct {
		in       string
		lines    int
		newlined bool
		eol      string
	}{
		{"", 0, false, LF},
		{BOM, 0, false, LF},
		{"\n", 1, true, LF},
		{"a", 1, false, LF},
		{"a\nb\n", 2, true, LF},
		{"a\nb", 2, false, LF},
		{BOM + "a\nb", 2, false, LF},
		{"a\r\nb\r\n", 2, true, CRLF},
		{"a\r\nb", 2, false, CRLF},
		{"\r\n", 1, true, CRLF},
		{"a\r", 1, false, LF},            // a lone CR is not a line ending
		{"a\r\nb\nc\r\n", 3, true, CRLF}, // 2 CRLF vs 1 LF
		{"a\nb\r\nc\n", 3, true, LF},     // 1 CRLF vs 2 LF
		{"a\r\nb\n", 2, true, CRLF},      // tie: the first line ending decides
		{"a\nb\r\n", 2, true, LF},        // tie: the first line ending decides
		{"\n\n\n", 3, true, LF},
		{"x\ty\n\tz", 2, false, LF},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		if got := LineCount(b); got != tt.lines {
			t.Errorf("LineCount(%q) = %d, want %d", tt.in, got, tt.lines)
		}
		if got := EndsWithNewline(b); got != tt.newlined {
			t.Errorf("EndsWithNewline(%q) = %v, want %v", tt.in, got, tt.newlined)
		}
		if got := DetectEOL(b); got != tt.eol {
			t.Errorf("DetectEOL(%q) = %q, want %q", tt.in, got, tt.eol)
		}
		if got := NewLineIndex(b).Count(); got != tt.lines {
			t.Errorf("NewLineIndex(%q).Count() = %d, want %d", tt.in, got, tt.lines)
		}
	}
}

func TestToEOL(t *testing.T) {
	tests := []struct{ in, eol, want string }{
		{"", CRLF, ""},
		{"a", CRLF, "a"},
		{"a\nb\n", CRLF, "a\r\nb\r\n"},
		{"a\r\nb\n", CRLF, "a\r\nb\r\n"},
		{"\n\n", CRLF, "\r\n\r\n"},
		{"\r\n", CRLF, "\r\n"},
		{"a\r\n\n", CRLF, "a\r\n\r\n"},
		{"\ra\n", CRLF, "\ra\r\n"},
		{"a\nb\r\n", LF, "a\nb\r\n"}, // never rewrites CRLF the agent wrote
		{"a\nb", "", "a\nb"},
		{"é\n", CRLF, "é\r\n"},
	}
	for _, tt := range tests {
		if got := ToEOL(tt.in, tt.eol); got != tt.want {
			t.Errorf("ToEOL(%q, %q) = %q, want %q", tt.in, tt.eol, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { ToEOL("no newline here", CRLF) }); n != 0 {
		t.Errorf("ToEOL allocates %v times with nothing to convert", n)
	}
}

func TestTrimEOL(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		had      bool
	}{
		{"x", "x", false}, {"x\n", "x", true}, {"x\r\n", "x", true}, {"x\n\n", "x\n", true}, {"", "", false}, {"\r", "\r", false},
	} {
		got, had := TrimEOL(tt.in)
		if got != tt.want || had != tt.had {
			t.Errorf("TrimEOL(%q) = %q, %v; want %q, %v", tt.in, got, had, tt.want, tt.had)
		}
	}
}

func TestLineIndex(t *testing.T) {
	b := []byte(BOM + "ab\r\ncd\n\nef")
	x := NewLineIndex(b)
	if x.Count() != 4 {
		t.Fatalf("Count = %d", x.Count())
	}
	starts := []int{3, 7, 10, 11, 13}
	for n, want := range starts {
		got, ok := x.Start(n + 1)
		if !ok || got != want {
			t.Errorf("Start(%d) = %d, %v; want %d", n+1, got, ok, want)
		}
		if got, ok := LineStart(b, n+1); !ok || got != want {
			t.Errorf("LineStart(%d) = %d, %v; want %d", n+1, got, ok, want)
		}
	}
	for _, n := range []int{-1, 0, 6} {
		if _, ok := x.Start(n); ok {
			t.Errorf("Start(%d) ok", n)
		}
		if _, ok := LineStart(b, n); ok {
			t.Errorf("LineStart(%d) ok", n)
		}
	}
	bounds := [][3]int{{3, 5, 7}, {7, 9, 10}, {10, 10, 11}, {11, 13, 13}}
	for i, want := range bounds {
		s, te, e, ok := x.Bounds(i+1, b)
		if !ok || [3]int{s, te, e} != want {
			t.Errorf("Bounds(%d) = %d %d %d %v, want %v", i+1, s, te, e, ok, want)
		}
	}
	if _, _, _, ok := x.Bounds(5, b); ok {
		t.Errorf("Bounds(5) ok")
	}
	if _, _, _, ok := x.Bounds(1, b[:5]); ok {
		t.Errorf("Bounds on other content ok")
	}
	lineAt := map[int]int{-5: 1, 0: 1, 2: 1, 3: 1, 6: 1, 7: 2, 9: 2, 10: 3, 11: 4, 12: 4, 13: 4, 99: 4}
	for off, want := range lineAt {
		if got := x.LineAt(off); got != want {
			t.Errorf("LineAt(%d) = %d, want %d", off, got, want)
		}
	}
	// The end of content ending in "\n" is where line Count()+1 would start.
	if got := NewLineIndex([]byte("a\n")).LineAt(2); got != 2 {
		t.Errorf("LineAt(end) of \"a\\n\" = %d, want 2", got)
	}
	if got := NewLineIndex(nil).LineAt(0); got != 1 {
		t.Errorf("LineAt(0) of empty = %d, want 1", got)
	}
	if got, ok := NewLineIndex([]byte(BOM)).Start(1); !ok || got != 3 {
		t.Errorf("Start(1) of BOM-only = %d, %v; want 3", got, ok)
	}
}

func TestOccurrences(t *testing.T) {
	tests := []struct {
		hay, needle string
		want        []int
	}{
		{"aaa", "aa", []int{0, 1}},
		{"aaaa", "aa", []int{0, 1, 2}},
		{"abcabc", "abc", []int{0, 3}},
		{"abababa", "aba", []int{0, 2, 4}},
		{"ababxaba", "aba", []int{0, 5}},
		{"abc", "", nil},
		{"ab", "abc", nil},
		{"", "a", nil},
		{"x\r\ny\r\n", "\r\n", []int{1, 4}},
		{"héhé", "é", []int{1, 4}},
		{"aabaabaab", "aabaab", []int{0, 3}},
	}
	for _, tt := range tests {
		got := Occurrences([]byte(tt.hay), tt.needle)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Occurrences(%q, %q) = %v, want %v", tt.hay, tt.needle, got, tt.want)
		}
	}
}

// TestOccurrencesRandom checks the period shortcut against the plain loop on
// small alphabets, where repeats and overlaps are common.
func TestOccurrencesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab"[rng.Intn(2)]
		}
		return string(b)
	}
	for i := 0; i < 20000; i++ {
		hay, needle := word(rng.Intn(40)), word(1+rng.Intn(6))
		var want []int
		for j := 0; j+len(needle) <= len(hay); j++ {
			if hay[j:j+len(needle)] == needle {
				want = append(want, j)
			}
		}
		if got := Occurrences([]byte(hay), needle); !slices.Equal(got, want) {
			t.Fatalf("Occurrences(%q, %q) = %v, want %v", hay, needle, got, want)
		}
	}
}

// TestOccurrencesRepetitive would take minutes with a naive restart after
// each match (1 MB hay, 10 kB needle, a million overlapping matches).
func TestOccurrencesRepetitive(t *testing.T) {
	hay := bytes.Repeat([]byte("a"), 1<<20)
	needle := strings.Repeat("a", 10000)
	if got := len(Occurrences(hay, needle)); got != len(hay)-len(needle)+1 {
		t.Errorf("got %d occurrences", got)
	}
	hay = bytes.Repeat([]byte("ab"), 1<<19)
	needle = strings.Repeat("ab", 5000) + "a"
	if got := len(Occurrences(hay, needle)); got != (len(hay)-len(needle))/2+1 {
		t.Errorf("got %d occurrences", got)
	}
}

func TestOccurrenceLines(t *testing.T) {
	b := []byte("x\nax\n\nxx\r\nx")
	offs := Occurrences(b, "x")
	if !slices.Equal(offs, []int{0, 3, 6, 7, 10}) {
		t.Fatalf("offs = %v", offs)
	}
	if got := OccurrenceLines(b, offs); !slices.Equal(got, []int{1, 2, 4, 4, 5}) {
		t.Errorf("lines = %v", got)
	}
	if got := OccurrenceLines(b, []int{-3, 99, 2}); !slices.Equal(got, []int{1, 5, 5}) {
		t.Errorf("clamped lines = %v", got)
	}
}
