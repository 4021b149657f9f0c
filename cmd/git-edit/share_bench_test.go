package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// BenchmarkPush300Sessions: `git edit push --all` of 300 sessions, each
// made by one real edit call (as agents make them), to a git daemon on
// loopback, against the baseline a person compares it with: one
// `git push` of 300 branches at the same commits, so with the same
// objects, to another empty repository of the same server. The baseline
// pushes to the URL, so that, like git-edit's push, it writes no
// remote-tracking refs here: a person's push by remote name writes 300,
// which costs as much again or more on this machine, and would flatter
// the ratio. Each
// iteration pushes both to fresh repositories; the ratio
// (git-edit-push/git-push) is the cost of the checks (ls-remote, the
// ignore check and the secret scan of every added line) on top of git's
// own push. The target is at most 2.
func BenchmarkPush300Sessions(b *testing.B) {
	srv := gittest.ServeDaemon(b)
	url := srv.NewBare(b, "seed.git")
	dir := filepath.Join(b.TempDir(), "alice")
	gittest.Git(b, filepath.Dir(dir), "clone", "-q", url, dir)
	gittest.Git(b, dir, "config", "user.email", "alice@example.com")
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("src/f%03d.go", i)] = fmt.Sprintf("package src\n\n// F%03d is one of many.\nfunc F%03d() int {\n\treturn %d\n}\n", i, i, i)
	}
	gittest.Commit(b, dir, files)
	for i := range 300 {
		in := fmt.Sprintf(`{"command":"str_replace","path":"src/f%03d.go","old_str":"return %d","new_str":"return %d + 1"}`, i, i, i)
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"git-edit", "call", "--root", dir, "--session", fmt.Sprintf("s%03d", i), "text_editor"}, strings.NewReader(in), &out, &errOut); code != 0 {
			b.Fatalf("edit %d: %s", i, errOut.String())
		}
		// The baseline's branches: the same commits.
		gittest.Git(b, dir, "branch", fmt.Sprintf("b%03d", i), fmt.Sprintf("refs/edits/s%03d", i))
	}
	binBuilt = true
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	var edit, git time.Duration
	var ratios []float64
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		for _, name := range []string{fmt.Sprintf("e%d.git", i), fmt.Sprintf("g%d.git", i)} {
			srv.NewBare(b, name)
		}
		gittest.Git(b, dir, "remote", "add", fmt.Sprintf("e%d", i), srv.URL+fmt.Sprintf("/e%d.git", i))
		b.StartTimer()
		// Each pushes first in every other iteration: the first push of
		// an iteration pays for what the server warms.
		pushEdit := func() time.Duration {
			t0 := time.Now()
			cmd := exec.Command(filepath.Join(bin, "git-edit"), "push", "--all", fmt.Sprintf("e%d", i))
			cmd.Dir, cmd.Env = dir, gittest.Env()
			if out, err := cmd.CombinedOutput(); err != nil || strings.Count(string(out), "pushed s") != 300 {
				b.Fatalf("git edit push: %v\n%s", err, out)
			}
			return time.Since(t0)
		}
		pushGit := func() time.Duration {
			t0 := time.Now()
			cmd := exec.Command("git", "push", "-q", srv.URL+fmt.Sprintf("/g%d.git", i), "refs/heads/b*:refs/heads/b*")
			cmd.Dir, cmd.Env = dir, gittest.Env()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git push: %v\n%s", err, out)
			}
			return time.Since(t0)
		}
		var de, dg time.Duration
		if i%2 == 0 {
			de, dg = pushEdit(), pushGit()
		} else {
			dg, de = pushGit(), pushEdit()
		}
		edit, git = edit+de, git+dg
		ratios = append(ratios, float64(de)/float64(dg))
		b.StopTimer()
		gittest.Git(b, dir, "remote", "remove", fmt.Sprintf("e%d", i))
		b.StartTimer()
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
	b.ReportMetric(float64(edit.Milliseconds())/float64(b.N), "git-edit-push-ms")
	b.ReportMetric(float64(git.Milliseconds())/float64(b.N), "git-push-ms")
	b.ReportMetric(float64(edit)/float64(git), "ratio-of-sums")
}
