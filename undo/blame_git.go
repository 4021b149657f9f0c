package undo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
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
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
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

// objset is objects to write to the quarantine as one pack: trees and
// commits are small and many (one of each per commit of a session's
// history of a path), and one pack is two files where loose objects would
// be one file and often one directory each.
type objset struct {
	order []plumbing.Hash
	objs  map[plumbing.Hash]setObject
}

type setObject struct {
	t       plumbing.ObjectType
	content []byte
}

func newObjset() *objset { return &objset{objs: map[plumbing.Hash]setObject{}} }

// add adds an object (once) and returns its id.
func (s *objset) add(t plumbing.ObjectType, content []byte) plumbing.Hash {
	h := plumbing.ComputeHash(t, content)
	if _, ok := s.objs[h]; !ok {
		s.objs[h] = setObject{t, content}
		s.order = append(s.order, h)
	}
	return h
}

// pathTree adds the tree holding only path, as e (a tree of nothing when
// e does not exist), and the trees of its directories; it returns the top
// tree.
func (s *objset) pathTree(path string, e repo.Entry) plumbing.Hash {
	if !e.Exists() {
		return s.add(plumbing.TreeObject, nil)
	}
	parts := strings.Split(path, "/")
	h, mode := e.Hash, e.Mode
	for i := len(parts) - 1; i >= 0; i-- {
		var b bytes.Buffer
		fmt.Fprintf(&b, "%o %s\x00", uint32(mode), parts[i])
		b.Write(h[:])
		h = s.add(plumbing.TreeObject, b.Bytes())
		mode = filemode.Dir
	}
	return h
}

// commit adds a commit of tree with parents (in order), dated when.
func (s *objset) commit(tree plumbing.Hash, parents []plumbing.Hash, when time.Time, msg string) plumbing.Hash {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	stamp := fmt.Sprintf("%d +0000", when.Unix())
	fmt.Fprintf(&b, "author git-edit blame <git-edit@localhost> %s\ncommitter git-edit blame <git-edit@localhost> %s\n\n%s\n", stamp, stamp, msg)
	return s.add(plumbing.CommitObject, b.Bytes())
}

// writePack writes the set as a version 2 pack without deltas and its
// index into the quarantine's objects/pack. Safe for concurrent use with
// other sets: each pack is named by its checksum, and a git that blame
// runs reads the packs there when it starts, which is after the ones it
// needs are written. Not fsynced: the directory is temporary.
func (q *quarantine) writePack(s *objset) error {
	if len(s.order) == 0 {
		return nil
	}
	dir := filepath.Join(q.objs, "pack")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write blame objects: %w", err)
	}
	var pack bytes.Buffer
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(len(s.order)))
	pack.Write(hdr[:])
	idx := new(idxfile.Writer)
	idx.OnHeader(uint32(len(s.order)))
	var entry bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&entry, zlib.BestSpeed)
	for _, h := range s.order {
		o := s.objs[h]
		entry.Reset()
		entry.Write(repo.PackObjectHeader(o.t, len(o.content)))
		zw.Reset(&entry)
		zw.Write(o.content)
		if err := zw.Close(); err != nil {
			return fmt.Errorf("write blame objects: %w", err)
		}
		idx.Add(h, uint64(pack.Len()), crc32.ChecksumIEEE(entry.Bytes()))
		pack.Write(entry.Bytes())
	}
	sum := sha1.Sum(pack.Bytes())
	pack.Write(sum[:])
	var checksum plumbing.Hash
	copy(checksum[:], sum[:])
	if err := idx.OnFooter(checksum); err != nil {
		return fmt.Errorf("index blame objects: %w", err)
	}
	index, err := idx.Index()
	if err != nil {
		return fmt.Errorf("index blame objects: %w", err)
	}
	var ib bytes.Buffer
	if _, err := idxfile.NewEncoder(&ib).Encode(index); err != nil {
		return fmt.Errorf("index blame objects: %w", err)
	}
	base := filepath.Join(dir, "pack-"+checksum.String())
	// The pack first: git looks for packs by their index.
	if err := os.WriteFile(base+".pack", pack.Bytes(), 0o400); err != nil && !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("write blame objects: %w", err)
	}
	if err := os.WriteFile(base+".idx", ib.Bytes(), 0o400); err != nil && !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("write blame objects: %w", err)
	}
	return nil
}

// git runs git on the repository with the quarantine as its object
// directory and the repository's objects as the alternate: every object
// git might write goes to the quarantine, and no optional lock is taken
// (a blame must not refresh the person's index).
func (q *quarantine) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
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
	env = append(env, "GIT_DIR="+q.r.GitDir, "GIT_WORK_TREE="+q.r.Top,
		"GIT_OBJECT_DIRECTORY="+q.objs, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+alts,
		"GIT_OPTIONAL_LOCKS=0", "GIT_NO_REPLACE_OBJECTS=1")
	return runGit(ctx, q.r.Top, env, stdin, args[0], args...)
}

// runGit runs git with args in dir with the environment env, stdin (nil:
// none) as its input, and returns what it printed. A failure is an error
// naming the command as name, with git's last lines of complaint; when ctx
// ended, it wraps ctx's error.
func runGit(ctx context.Context, dir string, env []string, stdin []byte, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = dir, env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", name, ctx.Err())
		}
		return nil, fmt.Errorf("git %s: %w: %s", name, err, strings.TrimSpace(lastLines(errb.String(), 5)))
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
	// Path is the file's path in the commit, for the lines that follow
	// (porcelain names it again where a commit holds lines of several).
	Path string
}

// blameLine is one line of git blame's porcelain output.
type blameLine struct {
	Commit *blamed
	Text   string // the line's text, without its line ending
	// Orig and Path are where the line is in Commit's version of the
	// file: its 1-based number, and the file's path there.
	Orig int
	Path string
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
	final, orig := 0, 0
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
			lines = append(lines, blameLine{Commit: cur, Text: text, Orig: orig, Path: cur.Path})
			cur = nil
			continue
		}
		if cur == nil {
			f := strings.Fields(line)
			if len(f) < 3 || !plumbing.IsHash(f[0]) {
				return nil, fmt.Errorf("%w: %q", errBlameFormat, line)
			}
			h := plumbing.NewHash(f[0])
			o, err1 := strconv.Atoi(f[1])
			n, err2 := strconv.Atoi(f[2])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("%w: %q", errBlameFormat, line)
			}
			final, orig = n, o
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
		case "filename":
			cur.Path = unquoteC(val)
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
