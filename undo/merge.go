package undo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/diffview"
)

// ErrBinaryMerge: one of the three versions is binary as git judges it (a
// NUL byte in its first 8000 bytes, which UTF-16 text has too), and git
// merge-file merges text only.
var ErrBinaryMerge = errors.New("binary content cannot be merged line by line")

// Merged is what Merge found.
type Merged struct {
	// Content is the merge result when there is no conflict: git
	// merge-file's output, byte for byte.
	Content []byte
	// Conflicts are the regions where ours and theirs both changed the
	// same lines of base, as lines of ours (the file as it is now), in
	// order; empty when the merge is clean.
	Conflicts []LineRange
}

// LineRange is lines Start..End of a file, 1-based and inclusive. End is
// Start-1 when the range holds no line: then it is the place just before
// line Start where lines were removed.
type LineRange struct{ Start, End int }

func (r LineRange) String() string {
	switch {
	case r.End < r.Start:
		return fmt.Sprintf("the lines removed before line %d", r.Start)
	case r.End == r.Start:
		return fmt.Sprintf("line %d", r.Start)
	}
	return fmt.Sprintf("lines %d-%d", r.Start, r.End)
}

// markerSize is the conflict markers' length: longer than git's 7, so that
// a line of the file is not taken for one (Markdown underlines are rows
// of '=').
const markerSize = 41

// Merge is git's three-way merge of the change from base to theirs into
// ours: `git merge-file -p ours base theirs`, run on temporary copies of
// the three (git 2.39 reads files only; `--object-id` came in 2.43), with
// no configuration read (merge.conflictStyle would change what counts as
// one conflict), ending when ctx does. The bytes are merged as they are:
// line endings, a missing final newline and every other byte stay as git
// leaves them. A binary version is refused with ErrBinaryMerge without
// running git.
func Merge(ctx context.Context, base, ours, theirs []byte) (Merged, error) {
	for _, b := range [][]byte{base, ours, theirs} {
		if isBinary(b) {
			return Merged{}, ErrBinaryMerge
		}
	}
	dir, err := os.MkdirTemp("", "git-edit-merge-")
	if err != nil {
		return Merged{}, fmt.Errorf("merge: %w", err)
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, b := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), b, 0o600); err != nil {
			return Merged{}, fmt.Errorf("merge: %w", err)
		}
	}
	nonce := make([]byte, 8)
	rand.Read(nonce)
	tag := hex.EncodeToString(nonce)
	cmd := exec.CommandContext(ctx, "git", "merge-file", "-p", "-q", "--marker-size="+strconv.Itoa(markerSize),
		"-L", "ours-"+tag, "-L", "base-"+tag, "-L", "theirs-"+tag, "ours", "base", "theirs")
	cmd.Dir = dir
	cmd.Env = mergeEnv()
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Merged{Content: out.Bytes()}, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128 && ctx.Err() == nil:
		// The exit code is the number of conflicts.
		return Merged{Conflicts: conflicts(out.Bytes(), ours, tag)}, nil
	case ctx.Err() != nil:
		return Merged{}, fmt.Errorf("git merge-file: %w", ctx.Err())
	}
	return Merged{}, fmt.Errorf("git merge-file failed: %w: %s", err, strings.TrimSpace(stderr.String()))
}

// mergeEnv is the environment with nothing that would make git read a
// repository or a configuration: the merge depends on the three inputs
// only.
func mergeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CEILING_DIRECTORIES="+os.TempDir())
}

// isBinary is git's buffer_is_binary: a NUL in the first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// conflicts finds the conflict regions in git merge-file's output (markers
// labelled with tag) as lines of ours. The output between conflicts is
// ours with theirs' clean changes applied, so the ours side of each
// conflict is placed in ours through a diff of ours against the output
// resolved to ours.
func conflicts(out, ours []byte, tag string) []LineRange {
	start := strings.Repeat("<", markerSize) + " ours-" + tag
	mid := strings.Repeat("=", markerSize)
	end := strings.Repeat(">", markerSize) + " theirs-" + tag
	var resolved []byte  // the output with each conflict resolved to ours
	var regions [][2]int // each conflict's ours side: first line, count (0-based, in resolved)
	state, line := 0, 0  // 0 outside, 1 in ours' side, 2 in theirs'
	for _, l := range splitLines(out) {
		key := strings.TrimRight(string(l), "\r\n")
		switch {
		case state == 0 && key == start:
			state = 1
			regions = append(regions, [2]int{line, 0})
			continue
		case state == 1 && key == mid:
			state = 2
			continue
		case state == 2 && key == end:
			state = 0
			continue
		case state == 2:
			continue
		case state == 1:
			regions[len(regions)-1][1]++
		}
		resolved = append(resolved, l...)
		line++
	}
	toOurs := lineMap(ours, resolved)
	var ranges []LineRange
	for _, r := range regions {
		first := toOurs(r[0]) + 1
		ranges = append(ranges, LineRange{Start: first, End: first + r[1] - 1})
	}
	return ranges
}

// lineMap maps a 0-based line of b to the line of a it comes from, or for
// a line b added, to where it was added, through diffview's diff of a and
// b with no context.
func lineMap(a, b []byte) func(int) int {
	type hunk struct{ aStart, aCount, bStart, bCount int }
	var hunks []hunk
	for _, l := range strings.Split(diffview.Hunks(a, b, 0), "\n") {
		var h hunk
		if !strings.HasPrefix(l, "@@ -") {
			continue
		}
		old, nw, _ := strings.Cut(strings.TrimPrefix(l, "@@ -"), " +")
		nw, _, _ = strings.Cut(nw, " @@")
		h.aStart, h.aCount = unifiedRange(old)
		h.bStart, h.bCount = unifiedRange(nw)
		hunks = append(hunks, h)
	}
	return func(n int) int {
		shift := 0
		for _, h := range hunks {
			// unified ranges are 1-based; an empty range names the line before.
			bFirst := h.bStart - 1
			if h.bCount == 0 {
				bFirst = h.bStart
			}
			if n < bFirst {
				break
			}
			aFirst := h.aStart - 1
			if h.aCount == 0 {
				aFirst = h.aStart
			}
			if n < bFirst+h.bCount {
				return aFirst
			}
			shift = (aFirst + h.aCount) - (bFirst + h.bCount)
		}
		return n + shift
	}
}

// unifiedRange reads "start,count" or "start" (count 1).
func unifiedRange(s string) (start, count int) {
	a, b, found := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	count = 1
	if found {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}

// splitLines splits b after each '\n'; a last line without one is kept.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}
