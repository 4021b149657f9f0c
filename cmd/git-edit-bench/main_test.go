package main

import (
	"bytes"
	"testing"
	"time"
)

func TestQuantileNearestRank(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for q, want := range map[float64]time.Duration{0.5: 5, 0.9: 9, 1: 10, 0.01: 1} {
		if got := quantile(ds, q); got != want {
			t.Errorf("quantile %.2f = %d, want %d", q, got, want)
		}
	}
	if got := quantile([]time.Duration{7}, 0.9); got != 7 {
		t.Errorf("one sample: %d", got)
	}
	if ds[0] != 5 {
		t.Error("quantile sorted its argument")
	}
}

// Every edit must find exactly one old string, however far the counter has
// gone: the bench's str_replace calls rely on it.
func TestTextFileHasOneCounterLine(t *testing.T) {
	b := textFile(50 << 10)
	if len(b) < 50<<10 || len(b) > 50<<10+200 {
		t.Fatalf("size %d", len(b))
	}
	for c := range 120 {
		if n := bytes.Count(b, []byte(counterLine(c))); n != 1 {
			t.Fatalf("counter %d found %d times", c, n)
		}
		b = bytes.Replace(b, []byte(counterLine(c)), []byte(counterLine(c+1)), 1)
	}
}
