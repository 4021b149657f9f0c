package undo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// quarantine is a temporary object directory outside the repository that
// git reads with the repository's own objects as an alternate: the
// objects blame makes up (the blamed content as a commit, the session
// histories rewritten for one path) go there, never into the person's
// repository, as git's own quarantine of incoming pushes does. Remove it
// when done.
type quarantine struct {
	r    *repo.Repo
	dir  string // the temporary directory; objects/ holds the objects
	objs string
}

func newQuarantine(r *repo.Repo) (*quarantine, error) {
	dir, err := os.MkdirTemp("", "git-edit-blame-")
	if err != nil {
		return nil, fmt.Errorf("make a temporary object directory for blame: %w", err)
	}
	q := &quarantine{r: r, dir: dir, objs: filepath.Join(dir, "objects")}
	if err := os.Mkdir(q.objs, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("make a temporary object directory for blame: %w", err)
	}
	return q, nil
}

func (q *quarantine) remove() { os.RemoveAll(q.dir) }

// write stores one loose object, as git does: zlib("<type> <size>\0<content>")
// at objects/<2 hex>/<38 hex>. An object already there is left as it is
// (same id, same content). Not safe for concurrent writes of different
// objects sharing a directory only in that MkdirAll may race, which it
// tolerates.
func (q *quarantine) write(t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	hdr := fmt.Sprintf("%s %d\x00", t, len(content))
	sum := sha1.New()
	sum.Write([]byte(hdr))
	sum.Write(content)
	var h plumbing.Hash
	copy(h[:], sum.Sum(nil))
	hex := h.String()
	dir := filepath.Join(q.objs, hex[:2])
	name := filepath.Join(dir, hex[2:])
	if _, err := os.Stat(name); err == nil {
		return h, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return h, fmt.Errorf("write a blame object: %w", err)
	}
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	zw.Write([]byte(hdr))
	zw.Write(content)
	if err := zw.Close(); err != nil {
		return h, fmt.Errorf("write a blame object: %w", err)
	}
	f, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return h, fmt.Errorf("write a blame object: %w", err)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return h, fmt.Errorf("write a blame object: %w", err)
	}
	return h, nil
}

// pathTree writes the tree holding only path, as e (a tree of nothing when
// e does not exist), and the trees of its directories; it returns the top
// tree.
func (q *quarantine) pathTree(path string, e repo.Entry) (plumbing.Hash, error) {
	parts := strings.Split(path, "/")
	if !e.Exists() {
		return q.write(plumbing.TreeObject, nil)
	}
	h, mode := e.Hash, e.Mode
	for i := len(parts) - 1; i >= 0; i-- {
		var b bytes.Buffer
		fmt.Fprintf(&b, "%o %s\x00", uint32(mode), parts[i])
		b.Write(h[:])
		var err error
		if h, err = q.write(plumbing.TreeObject, b.Bytes()); err != nil {
			return h, err
		}
		mode = filemode.Dir
	}
	return h, nil
}

// commit writes a commit of tree with parents (in order), dated when.
func (q *quarantine) commit(tree plumbing.Hash, parents []plumbing.Hash, when time.Time, msg string) (plumbing.Hash, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	stamp := fmt.Sprintf("%d +0000", when.Unix())
	fmt.Fprintf(&b, "author git-edit blame <git-edit@localhost> %s\ncommitter git-edit blame <git-edit@localhost> %s\n\n%s\n", stamp, stamp, msg)
	return q.write(plumbing.CommitObject, b.Bytes())
}

// git runs git on the repository with the quarantine as its object
// directory and the repository's objects as the alternate: every object
// git might write goes to the quarantine, and no optional lock is taken
// (a blame must not refresh the person's index).
func (q *quarantine) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = q.r.Top
	env := make([]string, 0, len(os.Environ())+6)
	for _, kv := range os.Environ() {
		// The repository's own object directories are named below; one
		// named in the environment would be written to.
		if strings.HasPrefix(kv, "GIT_OBJECT_DIRECTORY=") || strings.HasPrefix(kv, "GIT_ALTERNATE_OBJECT_DIRECTORIES=") {
			continue
		}
		env = append(env, kv)
	}
	alts := filepath.Join(q.r.CommonDir, "objects")
	if v, ok := os.LookupEnv("GIT_ALTERNATE_OBJECT_DIRECTORIES"); ok && v != "" {
		alts += string(filepath.ListSeparator) + v
	}
	cmd.Env = append(env, "GIT_DIR="+q.r.GitDir, "GIT_WORK_TREE="+q.r.Top,
		"GIT_OBJECT_DIRECTORY="+q.objs, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+alts,
		"GIT_OPTIONAL_LOCKS=0", "GIT_NO_REPLACE_OBJECTS=1")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(lastLines(errb.String(), 5)))
	}
	return out.Bytes(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// blameArgs are the options every blame runs with: porcelain output, and
// none of the person's blame settings that would change which commit a
// line is blamed on (blame.ignoreRevsFile names revisions to skip).
func blameArgs(extra ...string) []string {
	return append([]string{"-c", "blame.ignoreRevsFile=", "-c", "blame.markIgnoredLines=false",
		"-c", "blame.markUnblamableLines=false", "blame", "--porcelain"}, extra...)
}

// blamed is one commit git blame names, with what porcelain says of it.
type blamed struct {
	Hash     plumbing.Hash
	Author   string
	Time     time.Time
	Boundary bool
}

// blameLine is one line of git blame's porcelain output.
type blameLine struct {
	Commit *blamed
	Text   string // the line's text, without its line ending
}

// errBlameFormat is porcelain output blame could not read.
var errBlameFormat = errors.New("git blame printed what git-edit cannot read")

// parsePorcelain reads `git blame --porcelain` output: per line a header
// "<id> <orig line> <final line> [<group size>]", then the commit's
// key-value lines the first time it appears, then the line's text after a
// TAB.
func parsePorcelain(out []byte) ([]blameLine, error) {
	commits := map[plumbing.Hash]*blamed{}
	var lines []blameLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	var cur *blamed
	final := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") {
			if cur == nil {
				return nil, fmt.Errorf("%w: a line's text before its commit", errBlameFormat)
			}
			text := strings.TrimSuffix(line[1:], "\r")
			if final != len(lines)+1 {
				return nil, fmt.Errorf("%w: line %d out of order", errBlameFormat, final)
			}
			lines = append(lines, blameLine{Commit: cur, Text: text})
			cur = nil
			continue
		}
		if cur == nil {
			f := strings.Fields(line)
			if len(f) < 3 || !plumbing.IsHash(f[0]) {
				return nil, fmt.Errorf("%w: %q", errBlameFormat, line)
			}
			h := plumbing.NewHash(f[0])
			n, err := strconv.Atoi(f[2])
			if err != nil {
				return nil, fmt.Errorf("%w: %q", errBlameFormat, line)
			}
			final = n
			if cur = commits[h]; cur == nil {
				cur = &blamed{Hash: h}
				commits[h] = cur
			}
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "author":
			cur.Author = val
		case "author-time":
			if t, err := strconv.ParseInt(val, 10, 64); err == nil {
				cur.Time = time.Unix(t, 0)
			}
		case "author-tz":
			cur.Time = inZone(cur.Time, val)
		case "boundary":
			cur.Boundary = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", errBlameFormat, err)
	}
	return lines, nil
}

// inZone is t in the zone git writes as "+hhmm".
func inZone(t time.Time, tz string) time.Time {
	if len(tz) != 5 || t.IsZero() {
		return t
	}
	hh, err1 := strconv.Atoi(tz[1:3])
	mm, err2 := strconv.Atoi(tz[3:])
	if err1 != nil || err2 != nil {
		return t
	}
	off := hh*3600 + mm*60
	if tz[0] == '-' {
		off = -off
	}
	return t.In(time.FixedZone(tz, off))
}

// splitText is content's lines without their line endings, as git blame
// numbers them.
func splitText(content []byte) []string {
	if len(content) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(content), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// sortedNames is the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
