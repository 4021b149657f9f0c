package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
)

// The cost of the overlap check: one edit of a.txt with 1 live session
// (the editing one, the baseline) and with 20, the 19 others each with a
// change to a.txt still in effect (the worst case: each of the
// session.MaxOverlapSessions most recent is read and noted). "server" is one engine for every call, as the MCP server runs;
// "process" opens the engine per call, as `git edit call` does, so each
// other session's history index is read from disk every time.
// sessions=20/check-off is the same repository with the check turned off:
// what the check itself costs, apart from the 20 sessions' objects. Compare
// the lines of one run (see the README).
func BenchmarkEditOverlap(b *testing.B) {
	for _, mode := range []string{"server", "process"} {
		for _, v := range []struct {
			n   int
			off bool
		}{{1, false}, {20, false}, {20, true}} {
			n := v.n
			name := fmt.Sprintf("%s/sessions=%d", mode, n)
			if v.off {
				name += "/check-off"
			}
			b.Run(name, func(b *testing.B) {
				ops.SetOverlapsOff(v.off)
				defer ops.SetOverlapsOff(false)
				lines := []string{"tok0"}
				for i := 1; i < n; i++ {
					lines = append(lines, fmt.Sprintf("line %d", i))
				}
				dir := gittest.NewWithCommit(b, map[string]string{"a.txt": strings.Join(lines, "\n") + "\n"})
				for i := 1; i < n; i++ {
					replace(b, sessionEngine(b, dir, fmt.Sprintf("other%02d", i)), "a.txt", fmt.Sprintf("line %d\n", i), fmt.Sprintf("LINE %d\n", i))
				}
				opts := ops.Options{Root: dir, Session: "bench"}
				e := sessionEngine(b, dir, "bench")
				call := func(old, new string) {
					raw, _ := json.Marshal(map[string]any{"command": "str_replace", "path": "a.txt", "old_str": old, "new_str": new})
					var res ops.Result
					var err error
					if mode == "server" {
						res, err = e.Call(context.Background(), "text_editor", raw)
					} else {
						res, err = ops.Call(context.Background(), opts, "text_editor", raw)
					}
					if err != nil || !res.OK {
						b.Fatal(err, res.Text)
					}
					want := min(n-1, session.MaxOverlapSessions)
					if v.off {
						want = 0
					}
					if got := strings.Count(res.Text, "\nNote: session "); got != want {
						b.Fatalf("%d notes, want %d:\n%s", got, want, res.Text)
					}
				}
				call("tok0", "tok1")
				call("tok1", "tok0")
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i%2 == 0 {
						call("tok0", "tok1")
					} else {
						call("tok1", "tok0")
					}
				}
			})
		}
	}
}
