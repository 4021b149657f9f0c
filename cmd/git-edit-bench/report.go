package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// row is one line of the table, already rendered.
type row struct {
	work, med, p90, rss, baseline, bmed, ratio, target, verdict string
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

// pairRow is a pair's line: medians, p90, the ratio of the medians with the
// spread of the rounds' own ratios (p10–p90), and whether it is at most
// target.
func pairRow(p *pair, target float64) row {
	a, b := durations(p.a.samples), durations(p.b.samples)
	r := row{work: p.a.name, med: ms(quantile(a, 0.5)), p90: ms(quantile(a, 0.9)),
		baseline: p.b.name, bmed: ms(quantile(b, 0.5))}
	ratio := float64(quantile(a, 0.5)) / float64(quantile(b, 0.5))
	r.ratio = fmt.Sprintf("%.3g (%.2f–%.2f)", ratio, quantile(p.ratios, 0.1), quantile(p.ratios, 0.9))
	if p.rss {
		r.rss = mib(p.a.rss)
	}
	if target > 0 {
		r.target = fmt.Sprintf("≤ %.2g", target)
		r.verdict = verdict(ratio <= target)
	}
	return r
}

// cell keeps a cell on its line: no newline or "|" of a message may
// break the table.
func cell(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func renderTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| work | median | p90 | peak RSS | baseline | baseline median | ratio (p10–p90 of rounds) | target | |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", cell(r.work), cell(r.med), cell(r.p90), cell(r.rss),
			cell(r.baseline), cell(r.bmed), cell(r.ratio), cell(r.target), cell(r.verdict))
	}
}

// machine describes where the numbers come from.
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
	version := func(name string, args ...string) string {
		out, err := exec.Command(name, args...).Output()
		if err != nil {
			return name + " missing"
		}
		return strings.TrimSpace(string(out))
	}
	return fmt.Sprintf("%d CPUs (nproc), %s; %s; %s; node %s", runtime.NumCPU(), cpu,
		version("go", "version"), version("git", "version"), version("node", "--version"))
}

// loadavg is the 1, 5 and 15 minute load averages, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// loaded reports whether a loadavg() reading shows more runnable work than
// CPUs, over the last minute.
func loaded(avg string) bool {
	f := strings.Fields(avg)
	if len(f) == 0 {
		return false
	}
	one, err := strconv.ParseFloat(f[0], 64)
	return err == nil && one > float64(runtime.NumCPU())
}
