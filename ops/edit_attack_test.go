package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/ops/positional"
	"github.com/git-edit/git-edit/repo/gittest"
)

// TestAttackEditSearchAndReplaceAllEverywhere: issue 11, finding 9, end to
// end in a real repository. `edit search` of x*, which matches at every
// character of a large file, answers the first MaxSearchMatches matches
// with "truncated" and the exact total, records nothing and changes
// nothing; `edit replaceAll` of x* writes exactly regexp.ReplaceAll's bytes
// as one session commit that git accepts.
func TestAttackEditSearchAndReplaceAllEverywhere(t *testing.T) {
	size := 512 << 10
	if testing.Short() {
		size = 128 << 10
	}
	line := "\tfunc héllo(wörld int) string { return \"日本語\" } // padding\n"
	content := strings.Repeat(line, size/len(line))
	dir := gittest.NewWithCommit(t, map[string]string{"big.txt": content})
	re := regexp.MustCompile(`x*`)
	total := len(re.FindAllStringIndex(content, -1))
	ctx := context.Background()
	opts := ops.Options{Root: dir, Session: "s"}
	call := func(args any) ops.Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		res, err := ops.Call(ctx, opts, "edit", raw)
		if err != nil || !res.OK {
			t.Fatalf("edit %s: %v %s", raw, err, res.Text)
		}
		return res
	}

	person := gittest.Snapshot(t, dir)
	status := gittest.Status(t, dir)
	res := call(map[string]any{"command": "search", "arguments": map[string]any{"file_path": "big.txt", "pattern": "x*"}})
	var found struct {
		Matches   []positional.Match `json:"matches"`
		Truncated bool               `json:"truncated"`
		Total     int                `json:"total"`
	}
	if err := json.Unmarshal([]byte(res.Text), &found); err != nil {
		t.Fatal(err)
	}
	if len(found.Matches) != positional.MaxSearchMatches || !found.Truncated || found.Total != total {
		t.Fatalf("search x*: %d matches, truncated %v, total %d; want %d, true, %d", len(found.Matches), found.Truncated, found.Total, positional.MaxSearchMatches, total)
	}
	if last := found.Matches[len(found.Matches)-1].Range.Start; last.Offset != positional.MaxSearchMatches-1 {
		t.Errorf("the last match returned starts at %+v; want the %dth character", last, positional.MaxSearchMatches)
	}
	if refs := gittest.Git(t, dir, "for-each-ref", "refs/edits/"); refs != "" || gittest.Status(t, dir) != status || gittest.Snapshot(t, dir) != person {
		t.Fatalf("search changed the repository: refs %q, status %q", refs, gittest.Status(t, dir))
	}

	res = call(map[string]any{"command": "replaceAll", "arguments": map[string]any{"file_path": "big.txt", "pattern": "x*", "replacement": "-"}})
	if want := `{"status":"success","replacements_made":` + jsonInt(total) + `}`; res.Text != want {
		t.Fatalf("replaceAll x*: %s, want %s", res.Text, want)
	}
	want := re.ReplaceAllString(content, "-")
	if got := gittest.ReadFile(t, dir, "big.txt"); got != want {
		t.Fatalf("big.txt is not regexp.ReplaceAll's result (%d bytes, want %d)", len(got), len(want))
	}
	if got := gittest.Git(t, dir, "show", "refs/edits/s:big.txt"); got != want {
		t.Fatalf("the session commit's big.txt is not regexp.ReplaceAll's result (%d bytes, want %d)", len(got), len(want))
	}
	if n := strings.Count(gittest.Git(t, dir, "log", "--format=%H", "HEAD..refs/edits/s"), "\n"); n != 1 {
		t.Errorf("the session has %d commits, want 1", n)
	}
	gittest.Fsck(t, dir)
	if gittest.Snapshot(t, dir) != person {
		t.Error("replaceAll changed the person's HEAD, index, refs or config")
	}
	if !bytes.Equal([]byte(gittest.StatusExcept(t, dir, "big.txt")), []byte(status)) {
		t.Errorf("replaceAll changed other files: %q", gittest.Status(t, dir))
	}
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
