package session_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/session"
)

// benchRepo is a repository whose HEAD holds src/pkg/a.txt (with CRLF
// endings on disk when autocrlf), and a session on it; each Apply replaces
// the file with the next of two contents.
func benchRepo(b *testing.B, autocrlf bool) (dir string, edit func(r *repo.Repo)) {
	dir = gittest.New(b)
	content := func(i int) string {
		s := ""
		for l := range 200 {
			s += fmt.Sprintf("line %d of the file, edit %d\r\n", l, i%2)
		}
		return s
	}
	if autocrlf {
		gittest.Git(b, dir, "config", "core.autocrlf", "true")
	}
	gittest.Commit(b, dir, map[string]string{"src/pkg/a.txt": content(1)})
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
//   - plain: a repository where no conversion applies, alternating the
//     path before conversions existed (baseline) with today's, which
//     reads core.autocrlf and the attribute files to find that none
//     applies; it reports both and their ratio (the promise: ≤ 1.05);
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
		var before, after []time.Duration
		for i := 0; b.Loop(); i++ {
			off := i%2 == 0
			session.SetConversionsOff(off)
			start := time.Now()
			edit(r)
			if off {
				before = append(before, time.Since(start))
			} else {
				after = append(after, time.Since(start))
			}
		}
		session.SetConversionsOff(false)
		// Medians: an edit's time is mostly fsyncs, whose outliers would
		// swamp a mean.
		if len(before) > 0 && len(after) > 0 {
			mb, ma := median(before), median(after)
			b.ReportMetric(float64(mb.Nanoseconds()), "ns/before")
			b.ReportMetric(float64(ma.Nanoseconds()), "ns/after")
			b.ReportMetric(float64(ma)/float64(mb), "ratio")
		}
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

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
