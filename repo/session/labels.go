package session

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// The history index also lists, per turn id and checkpoint name, the
// commits that carry it, so that `undo --turn`, `rollback --to` a turn or
// checkpoint and `checkpoint NAME` (which refuses a name in use) read
// those commits, not every commit of the session. Each answer is checked
// against the commits it names, as the path table's are.

// label is one commit carrying a turn id or checkpoint name.
type label struct {
	seq  int
	hash plumbing.Hash
}

// Kinds of label, the first byte of a labelKey and of a label's line.
const (
	labelTurn       = 't'
	labelCheckpoint = 'c'
)

func labelKey(kind byte, name string) string { return string(kind) + name }

// addLabels records commit c, number seq, under its turn and its
// checkpoint name, if any.
func (x *histIndex) addLabels(seq int, c Commit) {
	if c.Meta.Turn != "" {
		x.addLabel(labelKey(labelTurn, c.Meta.Turn), label{seq, c.Hash})
	}
	if c.Meta.Op == OpCheckpoint && c.Meta.Checkpoint != "" {
		x.addLabel(labelKey(labelCheckpoint, c.Meta.Checkpoint), label{seq, c.Hash})
	}
}

func (x *histIndex) addLabel(key string, l label) {
	x.labels[key] = append(x.labels[key], l)
	x.nLabel++
}

// writeLabels appends the label table: "labels N", then per label
// "<seq> <commit> <kind> <name>", oldest first; nothing when there is none.
func (x *histIndex) writeLabels(b *bytes.Buffer) {
	if x.nLabel == 0 {
		return
	}
	type line struct {
		l   label
		key string
	}
	all := make([]line, 0, x.nLabel)
	for k, ls := range x.labels {
		for _, l := range ls {
			all = append(all, line{l, k})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].l.seq != all[j].l.seq {
			return all[i].l.seq < all[j].l.seq
		}
		return all[i].key < all[j].key
	})
	fmt.Fprintf(b, "labels %d\n", len(all))
	for _, a := range all {
		fmt.Fprintf(b, "%d %s %c %s\n", a.l.seq, a.l.hash, a.key[0], quotePath(a.key[1:]))
	}
}

// maxLabelLine bounds a line of the label table: a position, a commit id,
// the kind and a quoted label of at most maxLabel bytes.
const maxLabelLine = 24 + 41 + 3 + 4*maxLabel + 3

// parseLabels reads the label table writeLabels wrote, through line.
func (x *histIndex) parseLabels(line func() (string, bool)) error {
	bad := errors.New("malformed label table")
	l, ok := line()
	if !ok {
		return nil // no labels
	}
	n, err := strconv.Atoi(strings.TrimPrefix(l, "labels "))
	if !strings.HasPrefix(l, "labels ") || err != nil || n < 1 || n > 2*x.n {
		return bad
	}
	prev := -1
	for range n {
		l, ok := line()
		if !ok {
			return bad
		}
		f := strings.SplitN(l, " ", 4)
		if len(f) != 4 || !plumbing.IsHash(f[1]) || len(f[2]) != 1 || (f[2][0] != labelTurn && f[2][0] != labelCheckpoint) {
			return bad
		}
		seq, err := strconv.Atoi(f[0])
		if err != nil || seq < prev || seq >= x.n {
			return bad
		}
		prev = seq
		x.addLabel(labelKey(f[2][0], unquotePath(f[3])), label{seq, plumbing.NewHash(f[1])})
	}
	return nil
}

// TurnCommits lists the session's commits up to tip that carry Edit-Turn:
// turn, newest first. It reads those commits only (the history index
// names them); a missing commit fails with a *BrokenError.
func (s *Session) TurnCommits(tip plumbing.Hash, turn string) ([]Commit, error) {
	return s.labeled(tip, labelTurn, turn, func(m Meta) bool { return m.Turn == turn })
}

// CheckpointsNamed lists the session's checkpoint commits up to tip named
// name, newest first (more than one only where another process made one
// of the same name meanwhile), reading those commits only.
func (s *Session) CheckpointsNamed(tip plumbing.Hash, name string) ([]Commit, error) {
	return s.labeled(tip, labelCheckpoint, name, func(m Meta) bool { return m.Op == OpCheckpoint && m.Checkpoint == name })
}

// labeled answers TurnCommits and CheckpointsNamed from the index, each
// commit checked with match; an index that names a commit that does not
// match is stale, and the commits are walked instead.
func (s *Session) labeled(tip plumbing.Hash, kind byte, name string, match func(Meta) bool) ([]Commit, error) {
	if name == "" {
		return nil, nil // never indexed: "" is no turn and no name
	}
	var out []Commit
	err := s.withIndex(tip, func(v view) error {
		out = nil
		ls := v.x.labels[labelKey(kind, name)]
		for i := len(ls) - 1; i >= 0; i-- {
			if ls[i].seq > v.lim {
				continue
			}
			c, ok, err := s.cached(ls[i].hash)
			if err != nil {
				return err
			}
			if !ok || !match(c.Meta) {
				return errIndexStale
			}
			out = append(out, c)
		}
		return nil
	})
	if errors.Is(err, errIndexStale) {
		all, err := s.Commits(tip)
		if err != nil {
			return nil, err
		}
		out = nil
		for _, c := range all {
			if match(c.Meta) {
				out = append(out, c)
			}
		}
		return out, nil
	}
	return out, err
}
