package text

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"no edits", "abc", nil, "abc"},
		{"replace middle", "hello world", []Edit{{6, 11, "there"}}, "hello there"},
		{"delete", "abcdef", []Edit{{1, 3, ""}}, "adef"},
		{"insert at start", "abc", []Edit{{0, 0, ">"}}, ">abc"},
		{"insert at end", "abc", []Edit{{3, 3, "<"}}, "abc<"},
		{"empty src insert", "", []Edit{{0, 0, "x"}}, "x"},
		{"unsorted input is sorted", "abcdef", []Edit{{4, 5, "E"}, {0, 1, "A"}, {2, 3, "C"}}, "AbCdEf"},
		{"adjacent ranges", "abcdef", []Edit{{0, 2, "X"}, {2, 4, "Y"}}, "XYef"},
		{"two insertions same point keep input order", "ab", []Edit{{1, 1, "1"}, {1, 1, "2"}, {1, 1, "3"}}, "a123b"},
		{"insertions same point, unsorted input", "ab", []Edit{{2, 2, "z"}, {1, 1, "1"}, {1, 1, "2"}}, "a12bz"},
		{"insertion at start of replaced range goes first", "abcd", []Edit{{1, 3, "R"}, {1, 1, "I"}}, "aIRd"},
		{"insertion at end of replaced range goes after", "abcd", []Edit{{3, 3, "I"}, {1, 3, "R"}}, "aRId"},
		{"non-ASCII bytes kept", "héllo\r\n", []Edit{{0, 1, "H"}}, "Héllo\r\n"},
		{"replace all", "abc", []Edit{{0, 3, "xyz123"}}, "xyz123"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			orig := bytes.Clone(src)
			got, err := ApplyEdits(src, tt.edits)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !bytes.Equal(src, orig) {
				t.Errorf("src modified: %q", src)
			}
			if len(got) > 0 && len(src) > 0 && &got[0] == &src[0] {
				t.Errorf("result aliases src")
			}
		})
	}
}

func TestApplyEditsDoesNotReorderCallerSlice(t *testing.T) {
	edits := []Edit{{2, 3, "b"}, {0, 1, "a"}}
	if _, err := ApplyEdits([]byte("xyz"), edits); err != nil {
		t.Fatal(err)
	}
	if edits[0].Start != 2 {
		t.Errorf("edits reordered: %v", edits)
	}
}

func TestApplyEditsErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"negative start", "abc", []Edit{{-1, 1, ""}},
			"invalid edit: edits[0] has start -1, which is negative"},
		{"end before start", "abc", []Edit{{0, 0, ""}, {2, 1, "x"}},
			"invalid edit: edits[1] has end 1 before its start 2"},
		{"end past content", "abc", []Edit{{1, 4, ""}},
			"invalid edit: edits[0] has end 4 past the end of the content (3 bytes)"},
		{"start past content", "abc", []Edit{{5, 5, "x"}},
			"invalid edit: edits[0] has end 5 past the end of the content (3 bytes)"},
		{"overlap", "abcdefghij", []Edit{{0, 5, "x"}, {3, 8, "y"}},
			"invalid edit: edits[1] [3,8) overlaps edits[0] [0,5); edits must not overlap (an insertion may touch the start or end of a replaced range)"},
		{"overlap unsorted reports position order", "abcdefghij", []Edit{{3, 8, "y"}, {0, 5, "x"}},
			"invalid edit: edits[0] [3,8) overlaps edits[1] [0,5); edits must not overlap (an insertion may touch the start or end of a replaced range)"},
		{"same range twice", "abcdef", []Edit{{1, 3, "x"}, {1, 3, "y"}},
			"invalid edit: edits[1] [1,3) overlaps edits[0] [1,3); edits must not overlap (an insertion may touch the start or end of a replaced range)"},
		{"insertion inside replaced range", "abcdef", []Edit{{1, 4, "x"}, {2, 2, "y"}},
			"invalid edit: edits[1] [2,2) overlaps edits[0] [1,4); edits must not overlap (an insertion may touch the start or end of a replaced range)"},
		{"contained range", "abcdefghij", []Edit{{0, 9, ""}, {8, 9, "y"}, {2, 3, "z"}},
			"invalid edit: edits[2] [2,3) overlaps edits[0] [0,9); edits must not overlap (an insertion may touch the start or end of a replaced range)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits([]byte(tt.src), tt.edits)
			if err == nil {
				t.Fatalf("no error, got %q", got)
			}
			if !errors.Is(err, ErrBadEdit) {
				t.Errorf("error does not wrap ErrBadEdit: %v", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.want)
			}
		})
	}
}

// applyReference applies valid edits the slow way: sorted stably, then
// spliced from the last to the first, so that earlier offsets stay valid.
func applyReference(src []byte, edits []Edit) []byte {
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	out := string(src)
	for i := len(sorted) - 1; i >= 0; i-- {
		e := sorted[i]
		out = out[:e.Start] + e.New + out[e.End:]
	}
	return []byte(out)
}

func resultLen(src []byte, edits []Edit) int {
	n := len(src)
	for _, e := range edits {
		n += len(e.New) - (e.End - e.Start)
	}
	return n
}

// decodeEdits turns fuzz bytes into edits: 3 bytes per edit (start, length,
// length of the new text), offsets taken modulo len(src)+2 so that some are
// out of range.
func decodeEdits(src, enc []byte) []Edit {
	var edits []Edit
	for i := 0; i+3 <= len(enc) && len(edits) < 16; i += 3 {
		start := int(enc[i])%(len(src)+2) - 1
		end := start + int(enc[i+1])%5 - 1
		edits = append(edits, Edit{Start: start, End: end, New: string(bytes.Repeat([]byte{'a' + enc[i+2]%26}, int(enc[i+2]%4)))})
	}
	return edits
}

func FuzzApplyEdits(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), []byte{1, 3, 2})
	f.Add([]byte("a\r\nb"), []byte{0, 1, 0, 3, 1, 5})
	f.Add([]byte(""), []byte{1, 1, 3, 1, 1, 2})
	f.Add([]byte("\xef\xbb\xbfx\n"), []byte{4, 2, 1, 2, 4, 3, 4, 1, 1})
	f.Add([]byte("abcdef"), []byte{2, 4, 1, 3, 1, 1})
	f.Fuzz(func(t *testing.T, src, enc []byte) {
		edits := decodeEdits(src, enc)
		orig := bytes.Clone(src)
		got, err := ApplyEdits(src, edits)
		if !bytes.Equal(src, orig) {
			t.Fatalf("src modified")
		}
		if err != nil {
			if !errors.Is(err, ErrBadEdit) {
				t.Fatalf("error does not wrap ErrBadEdit: %v", err)
			}
			return
		}
		if len(got) != resultLen(src, edits) {
			t.Fatalf("len = %d, want %d", len(got), resultLen(src, edits))
		}
		if want := applyReference(src, edits); !bytes.Equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
		// Every byte outside the edits survives: the text before the first
		// edit and after the last one is unchanged.
		lo, hi := len(src), 0
		for _, e := range edits {
			lo, hi = min(lo, e.Start), max(hi, e.End)
		}
		if len(edits) > 0 {
			if !bytes.HasPrefix(got, src[:lo]) || !bytes.HasSuffix(got, src[hi:]) {
				t.Fatalf("bytes outside the edits changed: %q -> %q", src, got)
			}
		}
	})
}
