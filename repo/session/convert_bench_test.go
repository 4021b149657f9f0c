package session_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// benchRepo is a repository whose HEAD holds src/pkg/a.txt (with CRLF
// endings on disk), and a session on it; each Apply replaces the file with
// new content (a new blob, as a real edit makes).
func benchRepo(b *testing.B, autocrlf bool) (dir string, edit func(r *repo.Repo)) {
	dir = gittest.New(b)
	content := func(i int) string {
		var s strings.Builder
		for l := range 200 {
			fmt.Fprintf(&s, "line %d of the file, edit %d\r\n", l, i)
		}
		return s.String()
	}
	if autocrlf {
		gittest.Git(b, dir, "config", "core.autocrlf", "true")
	}
	gittest.Commit(b, dir, map[string]string{"src/pkg/a.txt": content(0)})
	i := 0
	edit = func(r *repo.Repo) {
		s, err := session.New(r, "bench")
		if err != nil {
			b.Fatal(err)
		}
		p, err := r.Resolve(dir, "src/pkg/a.txt")
		if err != nil {
			b.Fatal(err)
		}
		i++
		want := []byte(content(i))
		out, err := s.Apply(context.Background(), []repo.Path{p}, session.RecordOutside, func(*session.Tx) (session.Plan, error) {
			return session.Plan{Changes: []session.Change{{Path: p.Rel, Content: want}}, Meta: session.Meta{Op: session.OpEdit, Tool: "bench"}}, nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if !out.Sync.IsZero() {
			b.Fatal("a sync commit: the benchmark measures edits only")
		}
	}
	return dir, edit
}

// BenchmarkApplyConversions measures one edit through Apply:
//
//   - plain: a repository where no conversion applies, pairing the path
//     before conversions existed (off: the baseline) with today's (on),
//     which reads core.autocrlf and the attribute files to find that none
//     applies; it reports the medians of both and their ratio, of wall
//     time (the promise: ≤ 1.05) and of CPU time. Run it with enough
//     pairs for the medians to settle, e.g. -benchtime=400x;
//   - autocrlf-warm: core.autocrlf=true through one open repository, whose
//     git cat-file process stays up between edits (as in the MCP server);
//   - autocrlf-cold: the same, opening the repository for every edit (as
//     the CLI does), so each edit starts its processes.
func BenchmarkApplyConversions(b *testing.B) {
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	b.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	b.Run("plain", func(b *testing.B) {
		dir, edit := benchRepo(b, false)
		r, err := repo.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		var s pairs
		for i := 0; b.Loop(); i++ {
			// One pair per iteration, the order alternating (off-on,
			// on-off) so that whatever favours the first or the second
			// edit of a pair (a warm page cache, a filesystem journal
			// flushed by the first fsync) falls on both sides alike.
			for _, off := range [2]bool{i%2 == 0, i%2 != 0} {
				session.SetConversionsOff(off)
				wall, cpu := timed(func() { edit(r) })
				s.add(off, wall, cpu)
			}
		}
		session.SetConversionsOff(false)
		s.report(b)
	})
	b.Run("decide", func(b *testing.B) {
		// What the plain path adds: reading core.autocrlf and the
		// attribute files, and matching the path.
		dir, _ := benchRepo(b, false)
		r, err := repo.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			c, err := r.Conversions()
			if err != nil {
				b.Fatal(err)
			}
			if ok, err := c.Applies("src/pkg/a.txt"); ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("autocrlf-warm", func(b *testing.B) {
		dir, edit := benchRepo(b, true)
		r, err := repo.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		for b.Loop() {
			edit(r)
		}
	})
	b.Run("autocrlf-cold", func(b *testing.B) {
		dir, edit := benchRepo(b, true)
		for b.Loop() {
			r, err := repo.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			edit(r)
			r.Close()
		}
	})
}

// pairs holds the plain benchmark's samples: each edit's wall-clock time
// and the process's CPU time (user and system) it took, with conversions
// off (the path before they existed) and on.
type pairs struct {
	offWall, onWall, offCPU, onCPU []time.Duration
}

func (p *pairs) add(off bool, wall, cpu time.Duration) {
	if off {
		p.offWall, p.offCPU = append(p.offWall, wall), append(p.offCPU, cpu)
	} else {
		p.onWall, p.onCPU = append(p.onWall, wall), append(p.onCPU, cpu)
	}
}

// report gives the medians and their ratios (on/off). Medians, not means:
// an edit's wall time is mostly writes and fsyncs, whose outliers (another
// process's writeback, a journal commit) would swamp a mean. The CPU-time
// ratio is the same comparison without the time spent blocked on the
// device (the kernel's own work for write and fsync still counts).
func (p *pairs) report(b *testing.B) {
	if len(p.offWall) == 0 || len(p.onWall) == 0 {
		return
	}
	b.ReportMetric(float64(len(p.onWall)), "pairs")
	b.ReportMetric(float64(median(p.offWall).Nanoseconds()), "ns-off")
	b.ReportMetric(float64(median(p.onWall).Nanoseconds()), "ns-on")
	b.ReportMetric(float64(median(p.onWall))/float64(median(p.offWall)), "ratio")
	// The median of each pair's ratio: the two edits of a pair ran under
	// the same load, so a load that drifts during the run cancels out.
	r := make([]float64, len(p.onWall))
	for i := range r {
		r[i] = float64(p.onWall[i]) / float64(p.offWall[i])
	}
	slices.Sort(r)
	b.ReportMetric(r[len(r)/2], "ratio-paired")
	b.ReportMetric(float64(median(p.offCPU).Nanoseconds()), "cpu-ns-off")
	b.ReportMetric(float64(median(p.onCPU).Nanoseconds()), "cpu-ns-on")
	if m := median(p.offCPU); m > 0 {
		b.ReportMetric(float64(median(p.onCPU))/float64(m), "ratio-cpu")
	}
}

// timed runs f and returns the wall-clock time and the process's CPU time
// it took.
func timed(f func()) (wall, cpu time.Duration) {
	c0 := cpuTime()
	start := time.Now()
	f()
	return time.Since(start), cpuTime() - c0
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
