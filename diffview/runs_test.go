package diffview

import (
	"slices"
	"testing"
)

// TestCountLines pins countLines' meaning, which differs from
// text.LineCount's for a text made of a byte order mark alone: every byte
// is content here, as it is to git (see TestStatMatchesGitNumstat).
func TestCountLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"\n", 1},
		{"a", 1},
		{"a\n", 1},
		{"a\nb", 2},
		{"a\nb\n", 2},
		{"a\r\nb\r", 2},
		{"\n\n\n", 3},
		{"\xef\xbb\xbf", 1},
		{"\xef\xbb\xbfa\n", 1},
	} {
		if got := countLines([]byte(c.text)); got != c.want {
			t.Errorf("countLines(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestLineStarts checks that the offsets cover a stretch of a buffer whole,
// one line each, a last line without "\n" included.
func TestLineStarts(t *testing.T) {
	buf := []byte("skip\nab\n\ncd")
	for _, c := range []struct {
		start, end int
		want       []int
	}{
		{5, 5, []int{5}},
		{5, 8, []int{5, 8}},
		{5, 9, []int{5, 8, 9}},
		{5, 11, []int{5, 8, 9, 11}},
		{0, 11, []int{0, 5, 8, 9, 11}},
	} {
		if got := lineStarts(buf, c.start, c.end); !slices.Equal(got, c.want) {
			t.Errorf("lineStarts(%d, %d) = %v, want %v", c.start, c.end, got, c.want)
		}
	}
}
