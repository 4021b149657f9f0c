package main

import (
	"bytes"
	"strings"
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

func TestParseStraceCount(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     int
	}{
		{"calls", `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 80.00    0.004000         500         8           fsync
 20.00    0.001000         500         2           fdatasync
------ ----------- ----------- --------- --------- ----------------
100.00    0.005000         500        10           total
`, 10},
		{"with errors", `100.00    0.005000         500        10         1 total
`, 10},
		{"no call", `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
------ ----------- ----------- --------- --------- ----------------
100.00    0.000000           0                     total
`, 0},
		{"empty", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStraceCount(tc.in)
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

// The table has one line per row, nine cells each, whatever a cell
// holds; a pair's ratio is median over median, judged against its target.
func TestTableRenders(t *testing.T) {
	series := func(name string, ms ...int) *series {
		s := &series{name: name}
		for _, m := range ms {
			s.samples = append(s.samples, sample{d: time.Duration(m) * time.Millisecond})
		}
		return s
	}
	fast := &pair{a: series("edit", 10, 12, 11), b: series("git | commit", 40, 44, 42), ratios: []float64{0.25, 0.27, 0.26}}
	slow := &pair{a: series("show", 90, 100, 95), b: series("small", 40, 40, 40), ratios: []float64{2.2, 2.5, 2.4}, rss: true}
	slow.a.rss = 3 << 20
	rows := []row{pairRow(fast, 0.3), pairRow(slow, 1.5), {work: "warm MCP", verdict: "not measured: node\nis missing"}}
	var b bytes.Buffer
	renderTable(&b, rows)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2+len(rows) {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for _, l := range lines {
		if cells := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); cells != 10 {
			t.Fatalf("%d separators in %q", cells, l)
		}
	}
	for i, want := range []string{
		"| edit | 11.0 ms | 12.0 ms |  | git \\| commit | 42.0 ms | 0.262 (0.25–0.27) | ≤ 0.3 | met |",
		"| show | 95.0 ms | 100.0 ms | 3.0 MiB | small | 40.0 ms | 2.38 (2.20–2.50) | ≤ 1.5 | **missed** |",
		"| warm MCP |  |  |  |  |  |  |  | not measured: node is missing |",
	} {
		if lines[2+i] != want {
			t.Errorf("row %d:\n got %s\nwant %s", i, lines[2+i], want)
		}
	}
}

func TestLoaded(t *testing.T) {
	if loaded("0.00 0.00 0.00") || loaded("unknown") || !loaded("999.0 1 1") {
		t.Fatal("loaded misreads a load average")
	}
}
