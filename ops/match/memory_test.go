package match

import (
	"bytes"
	"runtime"
	"testing"
)

// TestFindBoundedMemoryOnAOneByteNeedle: a one-byte needle in a 10 MB
// file of that byte matches at every byte. Find keeps the count and the
// first MaxPlaces places (exactedit streamed the offsets for the same
// reason), so its memory does not grow with the content.
func TestFindBoundedMemoryOnAOneByteNeedle(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 1 << 20
	}
	content := bytes.Repeat([]byte("a"), size)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Find(content, "a", All)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if m.Stage != Exact || m.Count != size || len(m.Places) != MaxPlaces {
		t.Fatalf("stage %v count %d places %d; want exact, %d, %d", m.Stage, m.Count, len(m.Places), size, MaxPlaces)
	}
	if last := m.Places[MaxPlaces-1]; last.Start != MaxPlaces-1 || last.End != MaxPlaces || last.Line != 1 {
		t.Fatalf("last kept place %+v", last)
	}
	// Every place held would be about 100 bytes: 1 GB for 10 million.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("Find allocated %d bytes for %d places", alloc, m.Count)
	}
}
