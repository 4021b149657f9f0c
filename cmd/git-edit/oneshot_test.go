package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/cmd/internal/oneshot"
	"github.com/git-edit/git-edit/repo/gittest"
)

// A command collects no garbage until it holds oneshot.FirstGC bytes, and
// then collects as Go does by default; GOGC set by the person wins. The
// runtime's own trace (GODEBUG=gctrace=1, one "gc N @" line per cycle)
// says which cycles ran.
func TestOneShotCollector(t *testing.T) {
	bin := binDir(t)
	// 3 MB: an edit of it holds more than the 4 MiB heap at which Go's
	// default pacing starts its first cycle, and less than FirstGC.
	small := strings.Repeat("a line of a small file\n", 3<<20/23) + "counter: 0;\n"
	// 30 MB, under edit.maxFileSize: an edit holds it about three times.
	big := strings.Repeat("a line of a file close to oneshot.FirstGC....\n", oneshot.FirstGC*3/4/46) + "counter: 0;\n"
	dir := gittest.NewWithCommit(t, map[string]string{"small.txt": small, "big.txt": big})
	cycles := regexp.MustCompile(`(?m)^gc \d+ @`)
	for _, c := range []struct {
		name, file, gogc string
		want             func(n int) bool
		says             string
	}{
		{"3 MB edit", "small.txt", "", func(n int) bool { return n == 0 }, "no cycle"},
		// GOGC=10: a first cycle at 0.4 MiB of heap, where the default is 4.
		{"3 MB edit, GOGC=10", "small.txt", "10", func(n int) bool { return n > 0 }, "the person's pacing: cycles"},
		{"edit of a file of 3/4 FirstGC", "big.txt", "", func(n int) bool { return n > 1 }, "cycles once FirstGC is held"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Count(string(b), "\n") // any counter value not yet used
			old := regexp.MustCompile(`counter: \d+;`).Find(b)
			cmd := exec.Command(filepath.Join(bin, "git-edit"), "call", "--session", "gc", "text_editor")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1", "GOGC="+c.gogc, "GOMEMLIMIT=")
			cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":"counter: %d;"}`, c.file, old, i))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || !strings.Contains(string(out), `"success"`) {
				t.Fatalf("edit: %v\n%s\n%s", err, out, stderr.String())
			}
			if n := len(cycles.FindAllString(stderr.String(), -1)); !c.want(n) {
				t.Errorf("%d garbage collection cycles, want %s:\n%s", n, c.says, stderr.String())
			}
		})
	}
}
