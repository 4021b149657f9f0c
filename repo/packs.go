package repo

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/repo/packidx"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// Bounded packs. Every operation writes one small pack (batch.go), so a
// long session would leave thousands: every object lookup would walk their
// indexes, and past gc.autoPackLimit (50 by default) the person's next
// `git commit` would start `git gc --auto`, a full repack of their
// repository. So after each operation, still under the edit lock,
// git-edit rolls its own smallest packs into one, as `git repack
// --geometric=2` does: sorted by object count, the packs that do not
// already form a progression in which each is at least twice the one
// below are written as one new pack. Their number then grows with the
// logarithm of the objects git-edit wrote, and each object is rewritten a
// logarithmic number of times (the cost per edit stays flat, amortised).
// The roll-up waits until more than rollThreshold packs (8) are there, so
// that most edits pay nothing for it.
// On top of that git-edit never keeps more than ownPackCap packs of its
// own (a fifth of gc.autoPackLimit), so it alone never brings the
// repository near the limit.
//
// Only git-edit's own packs are ever rewritten: each is named in
// <common dir>/git-edit/packs (per repository, shared by its worktrees)
// when written. A pack that the person's gc has since folded in is simply
// gone and dropped from the list; a pack with a .keep or .promisor file,
// or one named in a multi-pack index, is left alone. The new pack is
// written, fsynced and renamed into place, with its index, and the pack
// directory fsynced, before any old pack is deleted; every object of the
// old packs is in it (the entries are copied byte for byte, each checked
// against the CRC its index records). A concurrent `git gc` or `git
// repack -a -d` may delete old packs or the new one, but only after
// writing every reachable object into its own pack first, so nothing a
// ref names is lost; a crash at any point leaves the old packs, the new
// one, or both.

// packListFile is the list of git-edit's own packs, one "pack-<hex>" a
// line, in the repository's git-edit state directory.
const packListFile = "packs"

// packName matches a pack's base name as git writes it (SHA-1 or SHA-256).
var packName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pack-([0-9a-f]{40}|[0-9a-f]{64})$`) })

// geometricFactor is the progression's factor, as `git repack
// --geometric=2`.
const geometricFactor = 2

// defaultAutoPackLimit is git's gc.autoPackLimit when unset.
const defaultAutoPackLimit = 50

func (r *Repo) packListPath() string { return filepath.Join(r.StateDir(), packListFile) }

// notePack adds the pack named name (pack-<hex>) to git-edit's own. The
// line is not fsynced: the list only says which packs git-edit may roll
// up, and a name lost to a power cut leaves one pack to the person's gc.
// A line torn by a crash does not parse and is ignored; each name starts
// on a line of its own (a newline first), so that a torn line never takes
// the next name with it. The caller holds the edit lock.
func (r *Repo) notePack(name string) error {
	if err := os.MkdirAll(r.StateDir(), 0o777); err != nil {
		return fmt.Errorf("note pack %s: %w", name, err)
	}
	f, err := OpenStateFile(r.packListPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return fmt.Errorf("note pack %s: %w", name, err)
	}
	_, err = f.WriteString("\n" + name + "\n")
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("note pack %s: %w", name, err)
	}
	return nil
}

// ownPackNames returns the names in git-edit's pack list, each once, in
// the order written. A missing list is an empty one.
func (r *Repo) ownPackNames() ([]string, error) {
	b, err := ReadStateFile(r.packListPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var names []string
	for line := range strings.Lines(string(b)) {
		name, ok := strings.CutSuffix(line, "\n")
		if !ok || !packName().MatchString(name) || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	return names, nil
}

// writePackList replaces the list with names, through a temporary file
// renamed over it (not fsynced, see notePack).
func (r *Repo) writePackList(names []string) error {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	f, err := os.CreateTemp(r.StateDir(), ".packs-*")
	if err != nil {
		return fmt.Errorf("write pack list: %w", err)
	}
	_, err = f.WriteString(b.String())
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), r.packListPath())
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write pack list: %w", err)
	}
	return nil
}

// OwnPackCap is the most packs git-edit keeps of its own in a repository
// whose gc.autoPackLimit is limit: a fifth of it (10 at git's default of
// 50), at least 1; 0 (no cap, the geometric progression alone) when limit
// is 0 or less, which turns git's pack-count trigger off.
func OwnPackCap(limit int64) int {
	if limit <= 0 {
		return 0
	}
	return int(max(1, limit/5))
}

// rollThreshold is how many packs of its own git-edit lets pile up before
// it rolls them up: 8, or fewer where the cap is lower (at least 1). A
// roll-up after every operation would leave fewer packs but cost its three
// fsyncs (pack, index, directory) on every second edit; waiting for 8
// writes the same bytes over a session (each object is copied about
// log2 times either way) with a roll-up about every fifth edit.
func rollThreshold(cap int) int {
	if cap == 0 {
		return 8
	}
	return max(1, min(8, cap-2))
}

// ownPackCap reads gc.autoPackLimit (git's default when unset or
// malformed: git itself refuses to run on a malformed value, and a
// consolidation must not fail an edit) and returns OwnPackCap of it.
func (r *Repo) ownPackCap() int {
	limit, err := r.ConfigInt("gc", "autoPackLimit", defaultAutoPackLimit)
	if err != nil {
		limit = defaultAutoPackLimit
	}
	return OwnPackCap(limit)
}

// geometricSplit returns how many of the packs whose object counts are
// weights (ascending) to roll into one so that the rest, with the new
// pack, form a progression of factor geometricFactor: git's
// split_pack_geometry (builtin/repack.c). Then, while more than limit
// packs would remain (limit > 0), it rolls the next smallest one too.
func geometricSplit(weights []int, limit int) int {
	n := len(weights)
	if n == 0 {
		return 0
	}
	i := n - 1
	for ; i > 0; i-- {
		if weights[i] < geometricFactor*weights[i-1] {
			break
		}
	}
	split := i
	if split > 0 {
		// The heavier of the last pair compared is not in the
		// progression either.
		split++
	}
	total := 0
	for _, w := range weights[:split] {
		total += w
	}
	// The new pack may break the progression above it: roll those too.
	for split < n && weights[split] < geometricFactor*total {
		total += weights[split]
		split++
	}
	remaining := func(s int) int { return n - s + min(s, 1) }
	for limit > 0 && split < n && remaining(split) > limit {
		split++
	}
	return split
}

// ownPack is one of git-edit's packs, a candidate for the roll-up.
type ownPack struct {
	name string // pack-<hex>
	idx  *packidx.Index
}

// ErrPackNotRollable marks a listed pack whose bytes git-edit would not
// copy (a delta entry, a CRC that differs from its index's, a malformed
// header): it is dropped from git-edit's own packs and left to git.
var ErrPackNotRollable = errors.New("pack cannot be rolled up by git-edit")

// ConsolidatePacks rolls git-edit's smallest own packs into one (see the
// comment at the top of this file) and reports how many packs it rolled
// (0: the packs already form the progression). The caller must hold the
// edit lock (Lock) and have no batch with a kept pack outstanding. On an
// error no pack was deleted; a pack that git-edit cannot copy is dropped
// from its list, so that the next operation proceeds without it.
func (r *Repo) ConsolidatePacks() (int, error) {
	dir := filepath.Join(r.CommonDir, "objects", "pack")
	names, err := r.ownPackNames()
	if err != nil || len(names) == 0 {
		return 0, err
	}
	midx := multiPackIndexes(dir)
	var packs []ownPack
	var live []string // listed names whose pack still exists
	defer func() {
		for _, p := range packs {
			p.idx.Close()
		}
	}()
	for _, name := range names {
		base := filepath.Join(dir, name)
		if _, err := os.Stat(base + ".pack"); err != nil {
			continue // folded in by the person's gc, or never made visible
		}
		live = append(live, name)
		if exists(base+".keep") || exists(base+".promisor") || bytes.Contains(midx, []byte(name+".idx")) {
			continue // someone else holds it: leave it as it is
		}
		x, err := packidx.OpenIndex(base + ".idx")
		if err != nil {
			continue // being deleted by a concurrent gc, or not git-edit's to fix
		}
		packs = append(packs, ownPack{name, x})
	}
	slices.SortStableFunc(packs, func(a, b ownPack) int { return a.idx.Count() - b.idx.Count() })
	weights := make([]int, len(packs))
	for i, p := range packs {
		weights[i] = p.idx.Count()
	}
	cap := r.ownPackCap()
	split := 0
	if len(packs) > rollThreshold(cap) {
		split = geometricSplit(weights, cap)
	}
	if split < 2 {
		if len(live) < len(names) {
			// Keep the list as short as what exists.
			return 0, r.writePackList(live)
		}
		return 0, nil
	}
	roll := packs[:split]
	Pause("consolidate-chosen", "")
	CrashPoint("consolidate-chosen")
	var base string
	for range 3 {
		// `git prune` deletes temporary files in objects/pack older than
		// its expiry, which --prune=now makes every one: write again.
		if base, err = r.writeRolledPack(dir, roll); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	var bad *unrollableError
	if errors.As(err, &bad) {
		// Drop it from the list: git's gc is its keeper now.
		return 0, errors.Join(err, r.writePackList(slices.DeleteFunc(live, func(n string) bool { return n == bad.name })))
	}
	if err != nil {
		return 0, fmt.Errorf("roll up git-edit's packs: %w", err)
	}
	newName := filepath.Base(base)
	CrashPoint("consolidate-written")
	Pause("consolidate-written", "")
	rolled := map[string]bool{}
	for _, p := range roll {
		if p.name == newName {
			continue // the same objects in the same order: the pack it already was
		}
		old := filepath.Join(dir, p.name)
		if exists(old + ".keep") {
			continue // kept since it was chosen: its objects are in both
		}
		// The index first, as git does, so that no reader sees a pack
		// without its index.
		for _, ext := range []string{".idx", ".pack", ".rev", ".bitmap"} {
			os.Remove(old + ext)
		}
		rolled[p.name] = true
		CrashPoint("consolidate-deleting")
	}
	keep := slices.DeleteFunc(live, func(n string) bool { return rolled[n] })
	if !slices.Contains(keep, newName) {
		keep = append(keep, newName)
	}
	r.objects.read.Reload()
	return len(roll), r.writePackList(keep)
}

// unrollableError names a listed pack that ConsolidatePacks cannot copy.
type unrollableError struct {
	name string
	err  error
}

func (e *unrollableError) Error() string {
	return fmt.Sprintf("pack %s: %v; it is left to git gc", e.name, e.err)
}
func (e *unrollableError) Unwrap() []error { return []error{ErrPackNotRollable, e.err} }

// multiPackIndexes returns the bytes of the repository's multi-pack
// indexes (the single file and an incremental chain's layers), in which
// git-edit looks for the names of packs it must then leave alone: git
// resolves the objects of a pack a multi-pack index covers through that
// index, which would name a deleted pack.
func multiPackIndexes(dir string) []byte {
	var all []byte
	if b, err := os.ReadFile(filepath.Join(dir, "multi-pack-index")); err == nil {
		all = append(all, b...)
	}
	layers, _ := filepath.Glob(filepath.Join(dir, "multi-pack-index.d", "*"))
	for _, l := range layers {
		if b, err := os.ReadFile(l); err == nil {
			all = append(all, b...)
		}
	}
	return all
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// packedEntry is one object of a pack to copy: where its bytes are.
type packedEntry struct {
	h        plumbing.Hash
	off, end int64
	crc      uint32
}

// writeRolledPack writes every object of packs, each once, into one new
// pack with its index (entries copied byte for byte: git-edit's packs hold
// no deltas), fsynced and renamed into place, the directory fsynced. It
// returns the new pack's path without extension. The new pack is named in
// git-edit's list before it becomes visible.
func (r *Repo) writeRolledPack(dir string, packs []ownPack) (string, error) {
	type source struct {
		f       *os.File
		entries []packedEntry
		name    string
	}
	var srcs []source
	defer func() {
		for _, s := range srcs {
			s.f.Close()
		}
	}()
	seen := map[plumbing.Hash]bool{}
	total := 0
	for _, p := range packs {
		f, err := os.Open(filepath.Join(dir, p.name+".pack"))
		if err != nil {
			return "", fmt.Errorf("open %s: %w", p.name, err)
		}
		srcs = append(srcs, source{f: f, name: p.name})
		s := &srcs[len(srcs)-1]
		fi, err := f.Stat()
		if err != nil {
			return "", fmt.Errorf("open %s: %w", p.name, err)
		}
		var hdr [12]byte
		sum := p.idx.PackChecksum()
		var trailer [20]byte
		if _, err := f.ReadAt(hdr[:], 0); err != nil {
			return "", &unrollableError{p.name, err}
		}
		if _, err := f.ReadAt(trailer[:], fi.Size()-20); err != nil {
			return "", &unrollableError{p.name, err}
		}
		if string(hdr[:4]) != "PACK" || binary.BigEndian.Uint32(hdr[4:]) != 2 ||
			int(binary.BigEndian.Uint32(hdr[8:])) != p.idx.Count() || !bytes.Equal(trailer[:], sum[:]) {
			return "", &unrollableError{p.name, errors.New("its header or checksum does not match its index")}
		}
		for i := range p.idx.Count() {
			h, off, crc, err := p.idx.Entry(i)
			if err != nil {
				return "", &unrollableError{p.name, err}
			}
			s.entries = append(s.entries, packedEntry{h: h, off: off, crc: crc})
		}
		slices.SortFunc(s.entries, func(a, b packedEntry) int { return int(a.off - b.off) })
		for i := range s.entries {
			end := fi.Size() - 20
			if i+1 < len(s.entries) {
				end = s.entries[i+1].off
			}
			if s.entries[i].off < 12 || end <= s.entries[i].off {
				return "", &unrollableError{p.name, errors.New("its index's offsets do not fit the pack")}
			}
			s.entries[i].end = end
			if !seen[s.entries[i].h] {
				seen[s.entries[i].h] = true
				total++
			}
		}
	}
	packTmp, err := createTemp(dir, "tmp_pack_")
	if err != nil {
		return "", err
	}
	defer os.Remove(packTmp.Name()) // a no-op once renamed
	sum := sha1.New()
	w := bufio.NewWriterSize(io.MultiWriter(packTmp, sum), 64<<10)
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(total))
	w.Write(hdr[:])
	idx := new(idxfile.Writer)
	idx.OnHeader(uint32(total))
	offset := uint64(len(hdr))
	written := map[plumbing.Hash]bool{}
	var buf []byte
	fail := func(err error) (string, error) {
		packTmp.Close()
		return "", err
	}
	for _, s := range srcs {
		for _, e := range s.entries {
			if written[e.h] {
				continue
			}
			buf = slices.Grow(buf[:0], int(e.end-e.off))[:e.end-e.off]
			if _, err := s.f.ReadAt(buf, e.off); err != nil {
				return fail(fmt.Errorf("read %s: %w", s.name, err))
			}
			if crc32.ChecksumIEEE(buf) != e.crc {
				return fail(&unrollableError{s.name, fmt.Errorf("object %s differs from the CRC its index records", e.h)})
			}
			if t := plumbing.ObjectType((buf[0] >> 4) & 7); t < plumbing.CommitObject || t > plumbing.TagObject {
				return fail(&unrollableError{s.name, fmt.Errorf("object %s is stored as a %s", e.h, t)})
			}
			idx.Add(e.h, offset, e.crc)
			if _, err := w.Write(buf); err != nil {
				return fail(fmt.Errorf("write pack: %w", err))
			}
			offset += uint64(len(buf))
			written[e.h] = true
		}
	}
	if err := w.Flush(); err != nil {
		return fail(fmt.Errorf("write pack: %w", err))
	}
	var checksum plumbing.Hash
	copy(checksum[:], sum.Sum(nil))
	if _, err := packTmp.Write(checksum[:]); err != nil {
		return fail(fmt.Errorf("write pack: %w", err))
	}
	if err := errors.Join(packTmp.Sync(), packTmp.Close()); err != nil {
		return "", fmt.Errorf("write pack: %w", err)
	}
	base := filepath.Join(dir, "pack-"+checksum.String())
	if err := r.notePack(filepath.Base(base)); err != nil {
		return "", err
	}
	if err := installPack(dir, packTmp.Name(), idx, checksum, base, false); err != nil {
		return "", err
	}
	return base, nil
}

// installPack writes the index of the pack written to packTmp (idx fed
// with its entries), then renames pack and index into place as base.pack
// and base.idx and fsyncs dir. fresh says the pack is new to the
// repository (a batch's, named by its own new objects): a pack renamed
// into place without its index is then removed again. A rolled pack may
// share its name with a pack already there (the same objects, the same
// bytes), which must never be removed.
func installPack(dir, packTmp string, idx *idxfile.Writer, checksum plumbing.Hash, base string, fresh bool) error {
	if err := idx.OnFooter(checksum); err != nil {
		return fmt.Errorf("index pack: %w", err)
	}
	index, err := idx.Index()
	if err != nil {
		return fmt.Errorf("index pack: %w", err)
	}
	idxTmp, err := createTemp(dir, "tmp_idx_")
	if err != nil {
		return err
	}
	defer os.Remove(idxTmp.Name()) // a no-op once renamed
	// go-git's encoder writes the index a few bytes at a time (one write
	// per fan-out entry: 256 and more); buffered, it takes one or two.
	iw := bufio.NewWriterSize(idxTmp, 64<<10)
	if _, err := idxfile.NewEncoder(iw).Encode(index); err != nil {
		idxTmp.Close()
		return fmt.Errorf("write pack index: %w", err)
	}
	if err := iw.Flush(); err != nil {
		idxTmp.Close()
		return fmt.Errorf("write pack index: %w", err)
	}
	if err := errors.Join(idxTmp.Chmod(0o444), idxTmp.Sync(), idxTmp.Close()); err != nil {
		return fmt.Errorf("write pack index: %w", err)
	}
	if err := os.Chmod(packTmp, 0o444); err != nil {
		return fmt.Errorf("store pack: %w", err)
	}
	if err := os.Rename(packTmp, base+".pack"); err != nil {
		return fmt.Errorf("store pack: %w", err)
	}
	if err := os.Rename(idxTmp.Name(), base+".idx"); err != nil {
		if fresh {
			os.Remove(base + ".pack")
		}
		return fmt.Errorf("store pack index: %w", err)
	}
	return syncDir(dir)
}
