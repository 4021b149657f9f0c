package text

import (
	"slices"
	"testing"
)

func TestFindExact(t *testing.T) {
	tests := []struct {
		name, content, needle string
		offs                  []int
		matched               string
		crlf                  bool
	}{
		{name: "empty needle", content: "abc", needle: "", offs: nil, matched: ""},
		{name: "empty content", content: "", needle: "a", offs: nil, matched: "a"},
		{name: "not found", content: "abc\n", needle: "x", offs: nil, matched: "x"},
		{name: "once", content: "a\nfoo\n", needle: "foo", offs: []int{2}, matched: "foo"},
		{name: "case-sensitive", content: "Foo foo", needle: "foo", offs: []int{4}, matched: "foo"},
		{name: "overlapping", content: "aaa", needle: "aa", offs: []int{0, 1}, matched: "aa"},
		{name: "LF file, CRLF needle not converted", content: "a\nb\n", needle: "a\r\nb", offs: nil, matched: "a\r\nb"},
		{name: "LF file, LF needle", content: "a\nb\n", needle: "a\nb", offs: []int{0}, matched: "a\nb"},
		{name: "CRLF file, LF needle converted", content: "a\r\nb\r\na\r\nb\r\n", needle: "a\nb\n", offs: []int{0, 6}, matched: "a\r\nb\r\n", crlf: true},
		{name: "CRLF file, CRLF needle exact", content: "a\r\nb\r\n", needle: "a\r\nb", offs: []int{0}, matched: "a\r\nb"},
		{name: "CRLF file, needle without newline", content: "x\r\ny\r\n", needle: "y", offs: []int{3}, matched: "y"},
		{name: "CRLF file, leading LF never splits a CRLF", content: "foo\r\nbar\r\n", needle: "\nbar", offs: []int{3}, matched: "\r\nbar", crlf: true},
		{name: "CRLF file, leading LF matches a real lone LF", content: "a\r\nb\r\nfoo\nbar\r\n", needle: "\nbar", offs: []int{9}, matched: "\nbar"},
		{name: "CRLF file, lone LF needle not found either way", content: "a\r\nb\nc\r\n", needle: "a\nb\r\nc", offs: nil, matched: "a\nb\r\nc"},
		{name: "mixed, LF majority: no conversion", content: "a\r\nb\nc\n", needle: "a\nb", offs: nil, matched: "a\nb"},
		{name: "BOM is ordinary bytes", content: BOM + "x", needle: "x", offs: []int{3}, matched: "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offs, matched, crlf := FindExact([]byte(tt.content), tt.needle)
			if !slices.Equal(offs, tt.offs) || matched != tt.matched || crlf != tt.crlf {
				t.Errorf("FindExact(%q, %q) = %v, %q, %v; want %v, %q, %v", tt.content, tt.needle, offs, matched, crlf, tt.offs, tt.matched, tt.crlf)
			}
			for _, off := range offs {
				if tt.content[off:off+len(matched)] != matched {
					t.Errorf("offset %d does not hold %q", off, matched)
				}
			}
		})
	}
}

// FuzzFindExact: every offset holds matched, offsets increase, and nothing
// is found only when needle (or its CRLF form in a CRLF file) is absent.
func FuzzFindExact(f *testing.F) {
	f.Add([]byte("foo\r\nbar\r\n"), "\nbar")
	f.Add([]byte("aaa"), "aa")
	f.Add([]byte("a\nb"), "")
	f.Fuzz(func(t *testing.T, content []byte, needle string) {
		offs, matched, conv := FindExact(content, needle)
		if conv != (matched != needle) {
			t.Fatalf("crlfConverted %v but matched %q, needle %q", conv, matched, needle)
		}
		for i, off := range offs {
			if off < 0 || off+len(matched) > len(content) || string(content[off:off+len(matched)]) != matched {
				t.Fatalf("offset %d does not hold %q", off, matched)
			}
			if i > 0 && off <= offs[i-1] {
				t.Fatalf("offsets not increasing: %v", offs)
			}
		}
		if len(offs) == 0 && needle != "" && DetectEOL(content) == LF && len(Occurrences(content, needle)) > 0 {
			t.Fatalf("%q occurs in LF content %q but was not found", needle, content)
		}
	})
}
