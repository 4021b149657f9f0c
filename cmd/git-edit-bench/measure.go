package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// sample is one measured run.
type sample struct {
	d   time.Duration
	rss int64 // peak resident set of the child process, bytes
}

// series is one kind of work, run again and again.
type series struct {
	name    string
	run     func(rss bool) (sample, error)
	samples []sample
	rss     int64 // peak RSS over the extra runs that measure it
}

// pair is a work and the baseline it is compared with. They run one right
// after the other, in alternating order, so that the load of a shared
// machine falls on both alike; ratios holds each round's a/b.
type pair struct {
	a, b   *series
	ratios []float64
	rss    bool // measure peak RSS too, in runs of its own
}

// round runs the pair once; swap runs the baseline first.
func (p *pair) round(swap, keep bool) error {
	first, second := p.a, p.b
	if swap {
		first, second = p.b, p.a
	}
	s1, err := first.run(false)
	if err != nil {
		return fmt.Errorf("%s: %w", first.name, err)
	}
	s2, err := second.run(false)
	if err != nil {
		return fmt.Errorf("%s: %w", second.name, err)
	}
	if !keep {
		return nil
	}
	first.samples = append(first.samples, s1)
	second.samples = append(second.samples, s2)
	if swap {
		s1, s2 = s2, s1
	}
	p.ratios = append(p.ratios, float64(s1.d)/float64(s2.d))
	return nil
}

// interleave runs every pair n times after one unmeasured round (which
// warms the page cache and creates the sessions), rotating the order of
// the pairs each round so that no pair always follows the same one.
func interleave(pairs []*pair, n int, logf func(string, ...any)) error {
	for i := -1; i < n; i++ {
		for j := range pairs {
			p := pairs[(i+1+j)%len(pairs)]
			if err := p.round(i%2 != 0, i >= 0); err != nil {
				return err
			}
		}
		if i >= 0 && (i+1)%5 == 0 {
			logf("  round %d of %d", i+1, n)
		}
	}
	return nil
}

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
	} else if b, ok := peakRSS(cmd.ProcessState); ok && rss { // rss_<os>.go
		peak = b
	}
	return sample{d, peak}, out.Bytes(), nil
}

// quantile returns the q-quantile (0 < q <= 1) of xs by the nearest-rank
// method; xs must not be empty.
func quantile[T int64 | float64 | time.Duration](xs []T, q float64) T {
	s := slices.Clone(xs)
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

// straceFsyncs runs a command under strace and returns how many fsync and
// fdatasync calls it and its children made.
func straceFsyncs(dir string, stdin io.Reader, name string, args ...string) (int, error) {
	f, err := os.CreateTemp("", "git-edit-bench-strace-")
	if err != nil {
		return 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	if _, _, err := timed(dir, nil, stdin, false, "strace", append([]string{"-f", "-c", "-e", "trace=fsync,fdatasync", "-o", f.Name(), name}, args...)...); err != nil {
		return 0, err
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, err
	}
	return parseStraceCount(string(b))
}

// parseStraceCount reads the calls column of strace -c's total line
// ("% time seconds usecs/call calls errors syscall"; none when no call
// was made).
func parseStraceCount(s string) (int, error) {
	for line := range strings.Lines(s) {
		f := strings.Fields(line)
		if len(f) >= 5 && f[len(f)-1] == "total" {
			return strconv.Atoi(f[3])
		}
	}
	return 0, nil
}

// fsyncFloor times, n times, what an edit's durability costs by itself: a
// 50 KB file and four 300-byte files (standing for the pack, its index,
// the ref lock and the pack directory's entry) written in dir, each
// fsynced: five fsyncs, as a committing edit makes.
func fsyncFloor(dir string, n int) ([]time.Duration, error) {
	big, small := make([]byte, 50<<10), make([]byte, 300)
	var out []time.Duration
	for i := range n {
		start := time.Now()
		for j, b := range [][]byte{big, small, small, small, small} {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("floor-%d-%d", i, j)))
			if err != nil {
				return nil, err
			}
			_, err = f.Write(b)
			if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
				return nil, err
			}
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}
