package diffview

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The two oracles every diff here is checked by: a strict in-process
// applier that also checks git's hunk shape, and the real git apply.

// checkPatch checks that patch turns old into new when applied strictly
// at its stated line numbers, and that its hunks follow git's context
// rules. It reports whether all was well.
func checkPatch(t *testing.T, old, new []byte, patch string, context int, headers bool) bool {
	t.Helper()
	context = max(context, 0)
	if bytes.Equal(old, new) {
		if patch != "" {
			t.Errorf("patch for equal texts: %q", patch)
			return false
		}
		return true
	}
	got, err := applyStrict(old, patch, headers, context)
	if err != nil {
		t.Errorf("%v in patch:\n%s", err, patch)
		return false
	}
	if !bytes.Equal(got, new) {
		t.Errorf("patch applied gives %q, want %q; patch:\n%s", got, new, patch)
		return false
	}
	return true
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)

// applyStrict applies a patch produced for old, requiring each hunk at
// exactly its stated old and new line numbers (git apply and patch would
// accept it at an offset), and checks the shape git gives hunks: each has a
// change, exactly context lines around its changes unless it reaches an end
// of the file, at most 2·context equal lines between changes, and at least
// one hidden line between hunks (otherwise they should have been merged).
func applyStrict(old []byte, patch string, headers bool, context int) ([]byte, error) {
	lines := strings.SplitAfter(patch, "\n")
	if lines[len(lines)-1] != "" {
		return nil, errors.New("patch does not end with a newline")
	}
	lines = lines[:len(lines)-1]
	if headers {
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
			return nil, errors.New("missing --- / +++ headers")
		}
		lines = lines[2:]
	}
	if len(lines) == 0 {
		return nil, errors.New("no hunks")
	}
	oldLines := strings.SplitAfter(string(old), "\n")
	if oldLines[len(oldLines)-1] == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}

	var out []byte
	outLines, pos := 0, 0 // lines written to out; next line of old
	for len(lines) > 0 {
		m := hunkHeader.FindStringSubmatch(lines[0])
		if m == nil {
			return nil, fmt.Errorf("bad hunk header %q", lines[0])
		}
		lines = lines[1:]
		num := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		oldStart, oldCount, newStart, newCount := num(m[1]), num(m[2]), num(m[3]), num(m[4])
		// A range of no lines names the line before the hunk.
		at, newAt := oldStart-1, newStart-1
		if oldCount == 0 {
			at = oldStart
		}
		if newCount == 0 {
			newAt = newStart
		}
		if at < pos || (pos > 0 && at == pos) || at > len(oldLines) {
			return nil, fmt.Errorf("hunk %q starts at old line %d, after line %d: overlapping or adjacent hunks", m[0], at+1, pos)
		}
		for ; pos < at; pos++ {
			out = append(out, oldLines[pos]...)
			outLines++
		}
		if newAt != outLines {
			return nil, fmt.Errorf("hunk %q: new start %d, but it lands at new line %d", m[0], newAt+1, outLines+1)
		}

		var signs []byte
		for o, n := 0, 0; o < oldCount || n < newCount; {
			if len(lines) == 0 || lines[0] == "" {
				return nil, fmt.Errorf("hunk %q ends early", m[0])
			}
			sign, text := lines[0][0], lines[0][1:]
			lines = lines[1:]
			if len(lines) > 0 && lines[0] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				lines = lines[1:]
			}
			if sign != '+' {
				if pos >= len(oldLines) || oldLines[pos] != text {
					return nil, fmt.Errorf("hunk %q: %q does not match old line %d", m[0], text, pos+1)
				}
				pos++
				o++
			}
			if sign != '-' {
				out = append(out, text...)
				outLines++
				n++
			}
			if sign != ' ' && sign != '-' && sign != '+' || o > oldCount || n > newCount {
				return nil, fmt.Errorf("hunk %q: bad line or count", m[0])
			}
			signs = append(signs, sign)
		}

		first := bytes.IndexAny(signs, "-+")
		last := bytes.LastIndexAny(signs, "-+")
		switch {
		case first < 0:
			return nil, fmt.Errorf("hunk %q has no change", m[0])
		case first != context && !(first < context && at == 0):
			return nil, fmt.Errorf("hunk %q has %d lines of leading context, want %d", m[0], first, context)
		case len(signs)-1-last != context && !(len(signs)-1-last < context && pos == len(oldLines)):
			return nil, fmt.Errorf("hunk %q has %d lines of trailing context, want %d", m[0], len(signs)-1-last, context)
		case bytes.Contains(signs[first:last], bytes.Repeat([]byte{' '}, 2*context+1)):
			return nil, fmt.Errorf("hunk %q has more than %d equal lines between changes", m[0], 2*context)
		}
	}
	for ; pos < len(oldLines); pos++ {
		out = append(out, oldLines[pos]...)
	}
	return out, nil
}

// An applyCase is one file for gitApply: oldName is written with old
// before applying patch (unless ""), newName must then hold new (or be
// absent if "").
type applyCase struct {
	name             string
	oldName, newName string
	old, new         []byte
	patch            string
	zeroContext      bool
}

// gitApply applies the cases with git apply, batched into one patch per
// kind (zero-context patches need --unidiff-zero), and on failure again
// one by one to name the failing cases.
func gitApply(t *testing.T, cases []applyCase) {
	t.Helper()
	git := needGit(t)
	for _, zero := range []bool{false, true} {
		var batch []applyCase
		for _, c := range cases {
			if c.zeroContext == zero {
				batch = append(batch, c)
			}
		}
		if len(batch) == 0 || runGitApply(t, git, batch, zero) == nil {
			continue
		}
		failed := 0
		for _, c := range batch {
			if err := runGitApply(t, git, []applyCase{c}, zero); err != nil && failed < 5 {
				failed++
				t.Errorf("%s: %v; patch:\n%s", c.name, err, c.patch)
			}
		}
		if failed == 0 {
			t.Errorf("git apply fails on the batch but not on any single case")
		}
	}
}

func runGitApply(t *testing.T, git string, cases []applyCase, zeroContext bool) error {
	dir := t.TempDir()
	var patch strings.Builder
	for _, c := range cases {
		if c.oldName != "" {
			path := filepath.Join(dir, c.oldName)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, c.old, 0o644); err != nil {
				return err
			}
		}
		patch.WriteString(c.patch)
	}
	patchFile := filepath.Join(t.TempDir(), "patch.diff")
	if err := os.WriteFile(patchFile, []byte(patch.String()), 0o644); err != nil {
		return err
	}
	args := []string{"apply", "--whitespace=nowarn"}
	if zeroContext {
		args = append(args, "--unidiff-zero")
	}
	cmd := exec.Command(git, append(args, patchFile)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git apply: %v: %s", err, out)
	}
	for _, c := range cases {
		if c.newName == "" {
			if c.oldName != "" {
				if _, err := os.Stat(filepath.Join(dir, c.oldName)); !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("%s: deleted file still exists (%v)", c.name, err)
				}
			}
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, c.newName))
		if err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, c.new) {
			return fmt.Errorf("%s: git apply gives %q, want %q", c.name, got, c.new)
		}
	}
	return nil
}

func needGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return git
}

// gitEnv isolates git from any repository around dir and from user and
// system configuration.
func gitEnv(dir string) []string {
	return append(os.Environ(),
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir),
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
	)
}
