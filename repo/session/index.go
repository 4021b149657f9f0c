package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-edit/git-edit/repo"
)

// The history index answers, without walking the session, the questions
// whose answer would otherwise need every commit: where each path was
// first and last touched, how many commits and edits the session has, its
// base, and which commit sits at a position or carries an abbreviated id.
//
// It is a cache beside the ref, never part of the record: two files under
// <common dir>/git-edit/sessions/<name>/, keyed by the tip they were built
// for, and rebuilt from the commits when missing, unreadable or from
// another history. Reading it for a newer tip costs the commits since
// (each names its paths in its trailers), so it needs no writing on every
// edit; it is written back when that catch-up grew past indexPersistEvery
// commits. What it says is checked against the commits before it is used
// (see LastTouches, FirstTouch), so a wrong index costs a walk, never a
// wrong answer:
//
//	history.idx      header and the path table, replaced atomically,
//	                 ending with a checksum of itself; the header holds
//	                 the checksum of the ids in history.commits it covers
//	history.commits  the session's commit ids, 20 bytes each, oldest
//	                 first; only appended to, except when rebuilt
//
// The checksums catch what a crash can leave (the commits file is
// extended in place, without fsync) and any damage; what a well-formed
// index says is still checked against the commits before use.
//
// Session commits are numbered from 0, the oldest ("seq").

// indexPersistEvery is how many commits a catch-up may read before the
// index is written back: it bounds the commits every later reader reads,
// and amortizes the writing of the path table over as many edits.
const indexPersistEvery = 8

const indexMagic = "git-edit history index 3"

// castagnoli is the checksum of the index files (CRC-32C), its table made
// at first use: making it costs every process start a tenth of a
// millisecond, and most commands never read an index.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// touch is where one path was first and last touched.
type touch struct {
	first, last         int
	firstHash, lastHash plumbing.Hash
}

// histIndex is the index of a session up to tip.
type histIndex struct {
	tip, base plumbing.Hash
	n, edits  int
	paths     []string // in the order of their first touch
	touches   map[string]*touch
	// labels lists, per turn id and checkpoint name (labelKey), the
	// commits carrying it, oldest first (see labels.go).
	labels map[string][]label
	nLabel int

	// Commit ids: those of seq < persisted are in the commits file (read
	// on demand into disk), the others in tail.
	persisted int
	ptip      plumbing.Hash // the id at seq persisted-1
	pcrc      uint32        // CRC-32C of the persisted ids
	disk      []byte
	diskRead  bool
	tail      []plumbing.Hash
	seqs      map[plumbing.Hash]int // built on demand

	// walked: every commit was read by this process (the index was built
	// from the commits, not read from disk), so what it says is what the
	// commits say. An index read from disk is checked against the
	// commits' Edit-Seq trailers before use (see view.check).
	walked bool
}

func (s *Session) indexPath() string   { return filepath.Join(s.stateDir(), "history.idx") }
func (s *Session) commitsPath() string { return filepath.Join(s.stateDir(), "history.commits") }
func (s *Session) indexLock() string   { return filepath.Join(s.stateDir(), "history.lock") }

// add records commit c as the next one of the session.
func (x *histIndex) add(c Commit) {
	seq := x.n
	if seq == 0 {
		x.base = c.Parent
	}
	x.n++
	x.tip = c.Hash
	x.tail = append(x.tail, c.Hash)
	if x.seqs != nil {
		x.seqs[c.Hash] = seq
	}
	if IsChange(c.Meta.Op) {
		x.edits++
	}
	for _, p := range c.Meta.Paths {
		t := x.touches[p]
		if t == nil {
			t = &touch{first: seq, firstHash: c.Hash}
			x.touches[p] = t
			x.paths = append(x.paths, p)
		}
		t.last, t.lastHash = seq, c.Hash
	}
	x.addLabels(seq, c)
}

func newIndex() *histIndex {
	return &histIndex{touches: map[string]*touch{}, labels: map[string][]label{}}
}

// hashAt is the id of the session's commit number seq.
func (x *histIndex) hashAt(s *Session, seq int) (plumbing.Hash, error) {
	if seq >= x.persisted {
		return x.tail[seq-x.persisted], nil
	}
	if err := x.loadDisk(s); err != nil {
		return plumbing.ZeroHash, err
	}
	var h plumbing.Hash
	copy(h[:], x.disk[seq*20:])
	return h, nil
}

// loadDisk reads the persisted commit ids, checking that they end with
// the commit the index was written for.
func (x *histIndex) loadDisk(s *Session) error {
	if x.diskRead {
		return nil
	}
	f, err := openCacheFile(s.commitsPath(), os.O_RDONLY, 0)
	if err != nil {
		return errIndexStale
	}
	defer f.Close()
	// The file must hold the ids the header counts before they are read:
	// a count that lies costs a stat, not its size in memory.
	if st, err := f.Stat(); err != nil || st.Size() < int64(x.persisted)*20 {
		return errIndexStale
	}
	b := make([]byte, x.persisted*20)
	if _, err := io.ReadFull(f, b); err != nil {
		return errIndexStale
	}
	var last plumbing.Hash
	copy(last[:], b[len(b)-20:])
	if last != x.ptip || crc32.Checksum(b, castagnoli()) != x.pcrc {
		return errIndexStale
	}
	x.disk, x.diskRead = b, true
	return nil
}

// errIndexStale: the commits file does not belong with the index read; the
// caller falls back to reading the commits.
var errIndexStale = errors.New("history index is stale")

// seqOf is the position of h among the session's commits; ok is false
// when h is none of them.
func (x *histIndex) seqOf(s *Session, h plumbing.Hash) (int, bool, error) {
	if h == x.tip {
		return x.n - 1, true, nil
	}
	if x.seqs == nil {
		if x.persisted > 0 {
			if err := x.loadDisk(s); err != nil {
				return 0, false, err
			}
		}
		x.seqs = make(map[plumbing.Hash]int, x.n)
		for i := 0; i < x.persisted; i++ {
			var k plumbing.Hash
			copy(k[:], x.disk[i*20:])
			x.seqs[k] = i
		}
		for i, k := range x.tail {
			x.seqs[k] = x.persisted + i
		}
	}
	seq, ok := x.seqs[h]
	return seq, ok, nil
}

// view is the session's index and the position of tip in it. It is read
// while holding the session's idxMu.
type view struct {
	x   *histIndex
	lim int // seq of tip; -1 for a session without commits
}

// indexAt returns the index caught up to tip (a commit of the session, or
// zero), reading only the commits since the index last seen. A tip older
// than the index's is found in it. The caller holds s.idxMu.
func (s *Session) indexAt(tip plumbing.Hash) (view, error) {
	if tip.IsZero() {
		return view{x: newIndex(), lim: -1}, nil
	}
	x := s.idx
	if x == nil {
		x = s.loadIndex()
	}
	if x.n > 0 && x.tip == tip {
		s.idx = x
		return view{x: x, lim: x.n - 1}, nil
	}
	if x.n > 0 {
		// An older commit of the session (rollback --to, a rollback's
		// target) is in the index already.
		if seq, ok, err := x.seqOf(s, tip); err == nil && ok {
			s.idx = x
			return view{x: x, lim: seq}, nil
		}
	}
	var newer []Commit
	met := false
	for h := tip; !h.IsZero(); {
		if x.n > 0 && h == x.tip {
			met = true
			break
		}
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			if broken := (*BrokenError)(nil); errors.As(err, &broken) && h == tip {
				broken.Tip = true
			}
			return view{}, err
		}
		if !ok {
			break
		}
		newer = append(newer, c)
		h = c.Parent
	}
	if !met {
		x = newIndex() // another history, or none read yet
		x.walked = true
	}
	for i := len(newer) - 1; i >= 0; i-- {
		x.add(newer[i])
	}
	s.idx = x
	if x.n-x.persisted >= indexPersistEvery || !met && x.n >= indexPersistEvery {
		s.persistIndex(x) // a cache: failing to write it changes no answer
	}
	return view{x: x, lim: x.n - 1}, nil
}

// loadIndex reads the index files; anything unreadable gives an empty
// index, rebuilt from the commits. The ids file is read, and checked
// against its checksum, only when an answer needs it.
func (s *Session) loadIndex() *histIndex {
	return s.readIndex()
}

func (s *Session) readIndex() *histIndex {
	f, err := openCacheFile(s.indexPath(), os.O_RDONLY, 0)
	if err != nil {
		return newIndex()
	}
	defer f.Close()
	x, err := parseIndex(f)
	if err != nil {
		return newIndex()
	}
	return x
}

// maxIndexLine bounds a line of the path table: two commit numbers, two
// ids, four spaces, and a path of up to 4096 bytes, each quoted as up to
// four (strconv.Quote's \xNN), and the newline.
const maxIndexLine = 2*20 + 2*40 + 4 + 4*4096 + 2 + 1

// parseIndex reads an index from r, one line at a time, checking its
// checksum as it goes: what it reads is bounded by what the header
// declares (a file larger than its declared path table could be is
// refused before the table is read), and it holds the parsed table, never
// the file's bytes, so a huge or damaged file costs a stat and a header,
// not its size in memory.
func parseIndex(r io.Reader) (*histIndex, error) {
	bad := errors.New("malformed history index")
	x := newIndex()
	sum := crc32.New(castagnoli())
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxIndexLine)
	// Lines are split at '\n' only, kept whole, so that the checksum is of
	// the bytes as written.
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			return i + 1, data[:i+1], nil
		}
		if atEOF && len(data) > 0 {
			return 0, nil, bad // no newline at the end
		}
		return 0, nil, nil
	})
	read := 0 // bytes of the lines read so far
	line := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		b := sc.Bytes()
		read += len(b)
		sum.Write(b)
		return string(b[:len(b)-1]), true
	}
	if l, ok := line(); !ok || l != indexMagic {
		return nil, bad
	}
	var tip, base string
	var nPaths int
	if l, ok := line(); !ok {
		return nil, bad
	} else if _, err := fmt.Sscanf(l, "%s %s %d %d %d %x", &tip, &base, &x.n, &x.edits, &nPaths, &x.pcrc); err != nil {
		return nil, bad
	}
	if !plumbing.IsHash(tip) || !plumbing.IsHash(base) || x.n < 1 || x.edits < 0 || x.edits > x.n || nPaths < 0 {
		return nil, bad
	}
	// The file can be no larger than its header, nPaths lines, a label
	// table of at most two labels a commit, and the checksum line.
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err != nil || st.Size() > int64(read)+int64(nPaths)*maxIndexLine+(1+2*int64(x.n))*maxLabelLine+int64(len("crc 00000000\n")) {
			return nil, bad
		}
	}
	x.tip, x.base, x.persisted = plumbing.NewHash(tip), plumbing.NewHash(base), x.n
	x.ptip = x.tip
	for range nPaths {
		l, ok := line()
		if !ok {
			return nil, bad
		}
		f := strings.SplitN(l, " ", 5)
		if len(f) != 5 || !plumbing.IsHash(f[1]) || !plumbing.IsHash(f[3]) {
			return nil, bad
		}
		first, err1 := strconv.Atoi(f[0])
		last, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || first < 0 || first > last || last >= x.n {
			return nil, bad
		}
		p := unquotePath(f[4])
		if _, dup := x.touches[p]; dup {
			return nil, bad
		}
		x.touches[p] = &touch{first: first, last: last, firstHash: plumbing.NewHash(f[1]), lastHash: plumbing.NewHash(f[3])}
		x.paths = append(x.paths, p)
	}
	// Then the turns and checkpoints (labels.go), when there are any,
	// and the checksum line, which is not part of what it sums.
	if !sc.Scan() {
		return nil, bad
	}
	next := sc.Bytes()
	if bytes.HasPrefix(next, []byte("labels ")) {
		read += len(next)
		sum.Write(next)
		first, given := string(next[:len(next)-1]), false
		labelLine := func() (string, bool) {
			if !given {
				given = true
				return first, true
			}
			return line()
		}
		if err := x.parseLabels(labelLine); err != nil {
			return nil, bad
		}
		if !sc.Scan() {
			return nil, bad
		}
		next = sc.Bytes()
	}
	if string(next) != fmt.Sprintf("crc %08x\n", sum.Sum32()) || sc.Scan() || sc.Err() != nil {
		return nil, bad
	}
	return x, nil
}

// persistIndex writes x back, if no other process is writing the session's
// index now: the commit ids after those already on disk are appended (the
// whole file is rewritten when the one on disk is of another history), then
// the path table replaces the old one atomically. Readers never see a
// table naming ids not yet written.
func (s *Session) persistIndex(x *histIndex) {
	dir := s.stateDir()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return
	}
	lock, err := openCacheFile(s.indexLock(), os.O_RDWR|os.O_CREATE, 0o666)
	if repo.IsLinkError(err) {
		// A link where the lock belongs: git-edit never made it, and
		// never follows it; the name is the cache's own.
		if os.Remove(s.indexLock()) == nil {
			lock, err = openCacheFile(s.indexLock(), os.O_RDWR|os.O_CREATE, 0o666)
		}
	}
	if err != nil {
		return
	}
	defer lock.Close()
	if ok, _ := repo.TryLockFile(lock); !ok {
		return // another process is writing it (or it cannot be locked)
	}
	defer repo.UnlockFile(lock)

	// Extend the commits file when what is on disk is a prefix of x (and
	// the file is no link: it is then replaced, never written through).
	onDisk := s.loadIndex()
	from := 0
	var f *os.File
	if onDisk.n > 0 && onDisk.n <= x.n {
		if h, err := x.hashAt(s, onDisk.n-1); err == nil && h == onDisk.tip {
			if f, err = openCacheFile(s.commitsPath(), os.O_WRONLY, 0); err == nil {
				if st, err := f.Stat(); err == nil && st.Size() >= int64(onDisk.n)*20 {
					from = onDisk.n
				} else {
					f.Close()
				}
			}
		}
	}
	ids := make([]byte, 0, (x.n-from)*20)
	for i := from; i < x.n; i++ {
		h, err := x.hashAt(s, i)
		if err != nil {
			if from > 0 {
				f.Close()
			}
			return
		}
		ids = append(ids, h[:]...)
	}
	pcrc := crc32.Update(0, castagnoli(), ids)
	if from > 0 {
		// The checksum goes on from the one of the ids on disk (a wrong
		// prefix stays detected: its bytes do not give that checksum).
		pcrc = crc32.Update(onDisk.pcrc, castagnoli(), ids)
		// Ids past the table on disk were never published; drop them.
		_, werr := f.WriteAt(ids, int64(from)*20)
		terr := f.Truncate(int64(x.n) * 20)
		if errors.Join(werr, terr, f.Close()) != nil {
			return
		}
	} else if writeAtomic(dir, s.commitsPath(), ids) != nil {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%s %s %d %d %d %08x\n", indexMagic, x.tip, x.base, x.n, x.edits, len(x.paths), pcrc)
	for _, p := range x.paths {
		t := x.touches[p]
		fmt.Fprintf(&b, "%d %s %d %s %s\n", t.first, t.firstHash, t.last, t.lastHash, quotePath(p))
	}
	x.writeLabels(&b)
	fmt.Fprintf(&b, "crc %08x\n", crc32.Checksum(b.Bytes(), castagnoli()))
	if writeAtomic(dir, s.indexPath(), b.Bytes()) != nil {
		return
	}
	// x's ids are all on disk now; read again when needed.
	x.persisted, x.ptip, x.pcrc, x.tail, x.disk, x.diskRead = x.n, x.tip, pcrc, nil, nil, false
}

// openCacheFile opens one of the index's files without following a
// symlink (the open fails with an error repo.IsLinkError reports): what is there may have been put
// there by anyone, and the cache never reads or writes outside the git dir
// through it. Nor does it block or read anything but a regular file (a
// FIFO put there fails the open, repo.OpenStateFile): the index is then
// rebuilt from the commits and written anew by rename, which replaces
// what was there.
func openCacheFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return repo.OpenStateFileNoFollow(name, flag, perm)
}

// writeAtomic replaces name with b (no fsync: the index is a cache, and a
// torn one is detected and rebuilt).
func writeAtomic(dir, name string, b []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-index-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// dropIndex forgets the cached index and removes its files, after it was
// found to disagree with the commits.
// The caller holds s.idxMu.
func (s *Session) dropIndex() {
	s.idx = nil
	os.Remove(s.indexPath())
}
