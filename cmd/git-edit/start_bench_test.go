package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// BenchmarkProcessStart is the cost of starting git-edit with no
// repository work (`git-edit tools`) and with the least (`git-edit call` of
// a text_editor view of a one-line file), next to a Go hello-world built
// the same way (go build, default flags), in the same run: each iteration
// runs the three, in an order that alternates, and the benchmark reports
// each one's median, the quartiles of tools' per-pair ratio to hello and
// the ratios of the medians (the target: at most 2). Medians and
// quartiles because a loaded machine's outliers would swamp a mean.
func BenchmarkProcessStart(b *testing.B) {
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	binBuilt = true
	hello := procStartHello(b)
	gitEdit := filepath.Join(bin, "git-edit")
	repo := gittest.NewWithCommit(b, map[string]string{"f.txt": "hello\n"})
	run := func(name, stdin string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(stdin)
		start := time.Now()
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatalf("%s %v: %v (%d bytes of output)", name, args, err, len(out))
		}
		return time.Since(start)
	}
	const view = `{"command":"view","path":"f.txt"}`
	runHello := func() time.Duration { return run(hello, "") }
	runTools := func() time.Duration { return run(gitEdit, "", "tools") }
	runCall := func() time.Duration { return run(gitEdit, view, "call", "--session", "start", "text_editor") }
	runHello()
	runTools() // page cache warm for all
	runCall()
	var h, g, c []time.Duration
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var dh, dg, dc time.Duration
		if i%2 == 0 {
			dh, dg, dc = runHello(), runTools(), runCall()
		} else {
			dc, dg, dh = runCall(), runTools(), runHello()
		}
		h, g, c = append(h, dh), append(g, dg), append(c, dc)
		ratios = append(ratios, float64(dg)/float64(dh))
	}
	b.StopTimer()
	slices.Sort(h)
	slices.Sort(g)
	slices.Sort(c)
	slices.Sort(ratios)
	q := func(n int, p float64) int { return min(n-1, int(float64(n)*p)) }
	b.ReportMetric(float64(h[len(h)/2].Microseconds()), "µs-hello")
	b.ReportMetric(float64(g[len(g)/2].Microseconds()), "µs-tools")
	b.ReportMetric(float64(c[len(c)/2].Microseconds()), "µs-call")
	b.ReportMetric(float64(g[len(g)/2])/float64(h[len(h)/2]), "tools/hello")
	b.ReportMetric(float64(c[len(c)/2])/float64(h[len(h)/2]), "call/hello")
	b.ReportMetric(ratios[q(len(ratios), 0.25)], "pair-ratio-p25")
	b.ReportMetric(ratios[q(len(ratios), 0.75)], "pair-ratio-p75")
}

// procStartHello builds a Go hello-world the way buildBinary builds
// git-edit and returns its path.
func procStartHello(b *testing.B) string {
	dir := b.TempDir()
	files := map[string]string{
		"go.mod":  "module hello\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-o", "hello", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build hello: %v\n%s", err, out)
	}
	return filepath.Join(dir, "hello")
}
