// Command git-edit-bench measures what one cold `git-edit call` costs in a
// large repository against what committing the same change with git costs,
// and prints a Markdown table.
//
//	go run ./cmd/git-edit-bench [-out DIR] [-keep] [-n 30]
//
// From the module's checkout it builds git-edit, generates two repositories
// with `git fast-import` (small: 100 files; large: 100,000 files in nested
// directories with history, packed by `git gc`), puts a 50 KB text file in
// both and a 10 MB one in the large one, then runs, interleaved n times:
//
//	(a) git-edit call text_editor str_replace on the 50 KB file, large repo
//	(b) the same in the small repo
//	(c) git add FILE && git commit -q of the same change, large repo
//	(d) the str_replace on the 10 MB file, large repo, with its peak RSS
//	(e) (a) with GIT_EDIT_PACKIDX=off: go-git's own object reader
//	(f) git-edit tools: the cost of starting the process at all
//
// Every run is a new process: each agent edit is one. The work directory
// (a temporary one unless -out names it) is removed at the end unless -keep.
// It takes about a minute on 2 cores.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

func main() {
	var o options
	flag.StringVar(&o.out, "out", "", "work directory for the binary and repositories (default: a new temporary directory)")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory when done")
	flag.IntVar(&o.n, "n", 30, "runs of each measurement")
	flag.StringVar(&o.bin, "bin", "", "measure this git-edit binary instead of building one (to compare builds)")
	flag.Parse()
	if err := run(o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "git-edit-bench: %v\n", err)
		os.Exit(1)
	}
}

const (
	file50k   = "bench/file50k.txt"
	base50k   = "bench/base50k.txt" // the baseline's own copy, so git-edit's session never sees git's commits to it
	file10m   = "bench/big10m.txt"
	sessionID = "bench"
)

type options struct {
	out, bin string
	keep     bool
	n        int
}

func run(o options, stdout, logw io.Writer) (err error) {
	out, keep, n := o.out, o.keep, o.n
	if n < 1 {
		return errors.New("-n must be at least 1")
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "git-edit-bench-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	if keep {
		defer fmt.Fprintf(logw, "kept %s\n", out)
	} else {
		defer os.RemoveAll(out)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }

	bin := o.bin
	if bin == "" {
		bin = filepath.Join(out, "git-edit")
		logf("building %s", bin)
		if err := build(bin); err != nil {
			return err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	small, large := filepath.Join(out, "small"), filepath.Join(out, "large")
	for _, g := range []struct {
		dir  string
		spec packtest.Spec
	}{
		{small, packtest.Spec{Files: 100, Commits: 3, Touch: 20, GC: true, Checkout: true,
			Extra: map[string][]byte{file50k: textFile(50 << 10)}}},
		{large, packtest.Spec{Files: 100000, Commits: 5, Touch: 5000, GC: true, Checkout: true,
			Extra: map[string][]byte{file50k: textFile(50 << 10), base50k: textFile(50 << 10), file10m: textFile(10 << 20)}}},
	} {
		start := time.Now()
		if _, err := os.Stat(g.dir); err == nil {
			return fmt.Errorf("%s exists: give -out an empty or new directory", g.dir)
		}
		if err := packtest.Generate(g.dir, g.spec); err != nil {
			return err
		}
		logf("generated %s (%d files, %s) in %s", g.dir, g.spec.Files+len(g.spec.Extra), objectCount(g.dir), time.Since(start).Round(time.Millisecond))
	}

	counters := map[string]int{} // per repo and file: the value of its counter line
	edit := func(dir, file string, env ...string) func(bool) (sample, error) {
		return func(rss bool) (sample, error) {
			key := dir + "\x00" + file
			c := counters[key]
			args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, file, counterLine(c), counterLine(c+1))
			s, stdout, err := timed(dir, env, strings.NewReader(args), rss, bin, "call", "--session", sessionID, texteditor.ToolName)
			if err != nil {
				return s, err
			}
			var res struct{ Status, Message string }
			if err := json.Unmarshal(stdout, &res); err != nil || res.Status != "success" {
				return s, fmt.Errorf("git-edit call in %s: %s", dir, stdout)
			}
			counters[key] = c + 1
			return s, nil
		}
	}
	works := []*work{
		{name: "(a) git-edit str_replace, 50 KB file, large repo", run: edit(large, file50k)},
		{name: "(b) git-edit str_replace, 50 KB file, small repo", run: edit(small, file50k)},
		{name: "(c) git add FILE && git commit -q, 50 KB file, large repo (baseline)", run: func(rss bool) (sample, error) {
			key := large + "\x00" + base50k
			c := counters[key]
			p := filepath.Join(large, base50k)
			b, err := os.ReadFile(p)
			if err != nil {
				return sample{}, err
			}
			b = bytes.Replace(b, []byte(counterLine(c)), []byte(counterLine(c+1)), 1)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return sample{}, err
			}
			add, _, err := timed(large, nil, nil, rss, "git", "add", base50k)
			if err != nil {
				return add, err
			}
			commit, _, err := timed(large, nil, nil, rss, "git", "commit", "-q", "-m", fmt.Sprintf("counter %d", c+1))
			if err != nil {
				return commit, err
			}
			counters[key] = c + 1
			return sample{add.d + commit.d, max(add.rss, commit.rss)}, nil
		}},
		{name: "(d) git-edit str_replace, 10 MB file, large repo", run: edit(large, file10m)},
		{name: "(e) = (a) with GIT_EDIT_PACKIDX=off (go-git's object reader)", run: edit(large, file50k, "GIT_EDIT_PACKIDX=off")},
		{name: "(f) git-edit tools (process start, no repository work)", run: func(rss bool) (sample, error) {
			s, _, err := timed(large, nil, nil, rss, bin, "tools")
			return s, err
		}},
	}
	// One unmeasured round warms the page cache and creates the sessions.
	logf("measuring %d runs of each, interleaved", n)
	for i := -1; i < n; i++ {
		for j := range works {
			w := works[(i+1+j)%len(works)] // rotate, so no work always follows the same one
			s, err := w.run(false)
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			if i >= 0 {
				w.samples = append(w.samples, s)
			}
		}
	}
	// Peak memory is measured in runs of its own: its wrapper costs a
	// millisecond or so that the timings above must not include.
	for range rssRuns {
		for _, w := range works {
			s, err := w.run(true)
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			w.rss = max(w.rss, s.rss)
		}
	}
	report(stdout, works, n)
	return nil
}

// textFile returns about size bytes of source-like text: numbered lines and
// one counter line in the middle, which each edit advances.
func textFile(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 100)
	counter := false
	for i := 0; b.Len() < size; i++ {
		if b.Len() >= size/2 && !counter {
			b.WriteString(counterLine(0) + "\n")
			counter = true
		}
		fmt.Fprintf(&b, "\tline %07d: the quick brown fox jumps over the lazy dog (%d)\n", i, i*7919%100003)
	}
	return b.Bytes()
}

// counterLine is the one line of a bench file an edit changes; the ";"
// keeps "counter: 1" from matching inside "counter: 12".
func counterLine(c int) string { return fmt.Sprintf("counter: %d;", c) }

// sample is one measured run.
type sample struct {
	d   time.Duration
	rss int64 // peak resident set of the child process, bytes
}

type work struct {
	name    string
	run     func(rss bool) (sample, error)
	samples []sample
	rss     int64 // peak RSS over rssRuns extra runs
}

// rssRuns is how many extra runs of each work measure peak memory.
const rssRuns = 3

// timeCmd is GNU time, which measures a child's peak RSS exactly: it forks
// the child from its own small process. A child that Go starts directly
// (vfork-style, sharing this process's memory until exec) inherits this
// process's peak RSS in its rusage, which would hide the child's own.
const timeCmd = "/usr/bin/time"

// timed runs one process and measures its wall time; with rss, its peak
// RSS too, through timeCmd when there is one (else from the child's rusage,
// an upper bound).
func timed(dir string, env []string, stdin io.Reader, rss bool, name string, args ...string) (sample, []byte, error) {
	var rssFile string
	if _, err := os.Stat(timeCmd); rss && err == nil {
		f, err := os.CreateTemp("", "git-edit-bench-rss-")
		if err != nil {
			return sample{}, nil, err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		args = append([]string{"-f", "%M", "-o", rssFile, name}, args...)
		name = timeCmd
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(packtest.Env(), env...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return sample{}, nil, fmt.Errorf("%s %s: %w\n%s%s", name, strings.Join(args, " "), err, out.String(), errb.String())
	}
	var peak int64
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return sample{}, nil, err
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return sample{}, nil, fmt.Errorf("%s output %q: %w", timeCmd, b, err)
		}
		peak = kb * 1024
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && rss {
		peak = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	return sample{d, peak}, out.Bytes(), nil
}

// build compiles git-edit from the module this command belongs to.
func build(bin string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return errors.New("run from inside the git-edit checkout")
	}
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/git-edit")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, out)
	}
	return nil
}

func objectCount(dir string) string {
	out, err := packtest.Git(dir, nil, "count-objects", "-v")
	if err != nil {
		return "? objects"
	}
	var loose, packed, packs string
	for line := range strings.Lines(out) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ": ")
		switch k {
		case "count":
			loose = v
		case "in-pack":
			packed = v
		case "packs":
			packs = v
		}
	}
	return fmt.Sprintf("%s packed objects in %s pack(s), %s loose", packed, packs, loose)
}

// quantile returns the q-quantile (0 < q <= 1) of ds by the nearest-rank
// method; ds must not be empty.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func durations(ss []sample) []time.Duration {
	var ds []time.Duration
	for _, s := range ss {
		ds = append(ds, s.d)
	}
	return ds
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func report(w io.Writer, works []*work, n int) {
	med := make([]time.Duration, len(works))
	fmt.Fprintf(w, "\n| work | median | p90 | peak RSS |\n| --- | ---: | ---: | ---: |\n")
	for i, wk := range works {
		ds := durations(wk.samples)
		med[i] = quantile(ds, 0.5)
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", wk.name, ms(med[i]), ms(quantile(ds, 0.9)), mib(wk.rss))
	}
	a, b, c, d, e, f := med[0], med[1], med[2], med[3], med[4], med[5]
	ratio := func(x, y time.Duration) float64 { return float64(x) / float64(y) }
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**missed**"
	}
	rssD := works[3].rss
	rssTarget := int64(6*(10<<20) + 30<<20)
	fmt.Fprintf(w, "\n| target | measured | target | |\n| --- | ---: | ---: | --- |\n")
	fmt.Fprintf(w, "| (a) / (c): large repo edit vs git add && git commit | %.2f | ≤ 0.30 | %s |\n", ratio(a, c), verdict(ratio(a, c) <= 0.3))
	fmt.Fprintf(w, "| (a) / (b): large repo vs small repo | %.2f | ≤ 1.5 | %s |\n", ratio(a, b), verdict(ratio(a, b) <= 1.5))
	fmt.Fprintf(w, "| (d) 10 MB str_replace, median | %s | < 150 ms | %s |\n", ms(d), verdict(d < 150*time.Millisecond))
	fmt.Fprintf(w, "| (d) peak RSS | %s | < 6 × 10 MiB + 30 MiB = %s | %s |\n", mib(rssD), mib(rssTarget), verdict(rssD < rssTarget))
	fmt.Fprintf(w, "| (e) / (a): go-git's reader vs packidx (for contrast) | %.2f | | |\n", ratio(e, a))
	fmt.Fprintf(w, "| (a) − (f): the edit's own work beyond process start | %s | | |\n", ms(a-f))
	how := "measured by " + timeCmd
	if _, err := os.Stat(timeCmd); err != nil {
		how = "from rusage, an upper bound (it includes this program's own peak; install GNU time for exact figures)"
	}
	fmt.Fprintf(w, "\nMedians and p90 of %d cold runs each, interleaved; peak RSS is the largest of %d more runs, %s ((c): the larger of its two processes).\n", n, rssRuns, how)
	fmt.Fprintf(w, "Machine: %s\n", machine())
}

func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	gov, _ := exec.Command("go", "version").Output()
	gitv, _ := exec.Command("git", "version").Output()
	return fmt.Sprintf("%d CPUs (nproc), %s; %s; %s.", runtime.NumCPU(), cpu,
		strings.TrimSpace(string(gov)), strings.TrimSpace(string(gitv)))
}
