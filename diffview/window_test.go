package diffview

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSmallEditInLargeFile checks exact hunk numbers deep in a 10 MB file.
func TestSmallEditInLargeFile(t *testing.T) {
	old, new := largeFile()
	want := "@@ -399997,7 +399997,7 @@\n" +
		" line 0399997\n line 0399998\n line 0399999\n" +
		"-line 0400000\n+changed 0400000\n" +
		" line 0400001\n line 0400002\n line 0400003\n"
	if got := Hunks(old, new, 3); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// largeFile returns a 10 MB file of 800,000 numbered lines and a copy with
// its middle line changed.
func largeFile() (old, new []byte) {
	old = make([]byte, 0, 800000*13)
	for i := 1; i <= 800000; i++ {
		old = fmt.Appendf(old, "line %07d\n", i)
	}
	new = bytes.Replace(old, []byte("line 0400000\n"), []byte("changed 0400000\n"), 1)
	return old, new
}
