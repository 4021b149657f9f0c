package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
)

// BenchmarkBlame: `git edit blame` of a 5,000-line file that 200 agent
// edits changed (real text_editor calls, each its own operation) against
// `git blame` of the same file, both run as processes, side by side in
// each iteration; the metric ratio is the first's time over the second's
// (the target is at most 2). "synthetic" is a generated file committed
// once; "git.git" (when GIT_EDIT_BENCH_GIT_REPO names a clone of git's
// repository) is its apply.c (about 5,300 lines) with its whole history,
// which git blame itself walks. ratio-session compares with
// `git blame` of the session's own ref, the same 200 commits as plain git
// history.
func BenchmarkBlame(b *testing.B) {
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("synthetic", func(b *testing.B) {
		dir := b.TempDir()
		if out, err := gitIn(dir, "init", "-q", "-b", "main"); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		var sb strings.Builder
		for i := range 5000 {
			fmt.Fprintf(&sb, "line %05d of the person's file\n", i)
		}
		if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		if out, err := gitIn(dir, "add", "big.txt"); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		if out, err := gitIn(dir, "commit", "-q", "-m", "person"); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		agentEdits(b, dir, "big.txt", func(i int) string { return fmt.Sprintf("line %05d of the person's file\n", i*25+1) })
		benchBlame(b, bin, dir, "big.txt")
	})
	b.Run("git.git", func(b *testing.B) {
		src := os.Getenv("GIT_EDIT_BENCH_GIT_REPO")
		if src == "" {
			b.Skip("set GIT_EDIT_BENCH_GIT_REPO to a clone of git's repository")
		}
		dir := filepath.Join(b.TempDir(), "git")
		// A worktree of the clone shares its objects: no copy of them.
		cmd := exec.Command("git", "-C", src, "worktree", "add", "-q", "--detach", dir, "HEAD")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		b.Cleanup(func() { exec.Command("git", "-C", src, "worktree", "remove", "--force", dir).Run() })
		content, err := os.ReadFile(filepath.Join(dir, "apply.c"))
		if err != nil {
			b.Fatal(err)
		}
		// Edit lines that occur once in the file (with the line ending
		// before them, so not as the end of a longer line), spread over
		// it.
		var unique []string
		for _, l := range strings.SplitAfter(string(content), "\n") {
			if len(strings.TrimSpace(l)) > 8 && strings.Count(string(content), "\n"+l) == 1 {
				unique = append(unique, l)
			}
		}
		step := len(unique) / 100
		agentEdits(b, dir, "apply.c", func(i int) string { return unique[i/2*step] })
		benchBlame(b, bin, dir, "apply.c")
	})
}

// agentEdits makes 200 edits of path in session bench, each its own
// text_editor call as an agent makes it: even ones replace the line
// line(i) (not the first line) with an edited one, odd ones insert two
// lines after line 10*i.
func agentEdits(b *testing.B, dir, path string, line func(i int) string) {
	b.Helper()
	e, err := ops.Open(ops.Options{Root: dir, Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for i := range 200 {
		var args string
		if i%2 == 0 {
			old := line(i)
			args = fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, path, "\n"+old, "\n"+strings.TrimSuffix(old, "\n")+" /* agent edit */\n")
		} else {
			args = fmt.Sprintf(`{"command":"insert","path":%q,"insert_line":%d,"new_str":"agent line %d a\nagent line %d b\n"}`, path, 10*i, i, i)
		}
		res, err := e.Call(ctx, "text_editor", []byte(args))
		if err != nil || !res.OK {
			b.Fatalf("edit %d: %v %s", i, err, res.Text)
		}
	}
}

// benchBlame times `git edit blame PATH` and `git blame PATH` in turn.
func benchBlame(b *testing.B, bin, dir, path string) {
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		start := time.Now()
		out, err := cmd.Output()
		d := time.Since(start)
		if err != nil || len(out) == 0 {
			b.Fatalf("%s %v: %v", name, args, err)
		}
		return d
	}
	var ours, theirs, session time.Duration
	b.ResetTimer()
	for b.Loop() {
		ours += run("git", "edit", "blame", "--no-pager", path)
		theirs += run("git", "blame", path)
		session += run("git", "blame", "refs/edits/bench", "--", path)
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "git-edit-ns/op")
	b.ReportMetric(float64(theirs.Nanoseconds())/float64(b.N), "git-ns/op")
	b.ReportMetric(float64(ours)/float64(theirs), "ratio")
	b.ReportMetric(float64(ours)/float64(session), "ratio-session")
}
