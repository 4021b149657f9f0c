package ops_test

// The fuzz target of Edit and MultiEdit, and what README promises of them.

import (
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
)

// omits reports whether replacing old with new puts an omission
// placeholder where old's lines were (match.Omission).
func omits(old, new string) bool {
	_, _, found := match.Omission(old, new)
	return found
}

// FuzzExactEdit: Edit (mode even) or MultiEdit (odd) on f.txt with fuzzed
// old and new strings; mode's other bits set replace_all per edit, whether
// replace_all is sent when false, and whether MultiEdit has one edit or two.
func FuzzExactEdit(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, mode uint8, old1, new1, old2, new2 string) {
		r := env.get(t)
		r.reset(t, content)
		type edit struct {
			old, new string
			all      bool
		}
		edits := []edit{{old1, new1, mode&2 != 0}}
		multi := mode&1 != 0
		if multi && mode&16 == 0 {
			edits = append(edits, edit{old2, new2, mode&4 != 0})
		}
		item := func(e edit) map[string]any {
			m := map[string]any{"old_string": e.old, "new_string": e.new}
			if e.all || mode&8 != 0 {
				m["replace_all"] = e.all
			}
			return m
		}
		tool, args := "Edit", item(edits[0])
		if multi {
			var list []any
			for _, e := range edits {
				list = append(list, item(e))
			}
			tool, args = "MultiEdit", map[string]any{"edits": list}
		}
		args["file_path"] = "f.txt"
		c := r.run(t, tool, fuzzJSON(t, args), "f.txt")

		// Each edit applies to the result of the previous one. Where an
		// old_string is not in the file, the Read-prefix retry or the
		// matching ladder may apply: nothing is stated then. A MultiEdit
		// edit whose place overlaps text an earlier edit wrote, or spans
		// where one deleted text, is refused ("sequential" is not sent).
		if isBinary(content) {
			mustRefuse().check(t, c, content)
			return
		}
		if !plainLF(content) {
			return
		}
		cur := string(content)
		written, cuts := make([]bool, len(cur)), make([]bool, len(cur)+1)
		for _, e := range edits {
			o, n := sent(e.old), sent(e.new)
			var places []int // where o is replaced, in cur
			switch {
			case strings.Contains(o+n, "\r"):
				return
			case o == "" && n != "" && strings.TrimPrefix(cur, "\ufeff") == "":
				places = []int{len(cur)} // a file without text is filled
			case o == "" || o == n:
				mustRefuse().check(t, c, content)
				return
			case omits(o, n):
				// A placeholder in new_string for lines it deletes
				// (issue 25): refused before the search.
				mustRefuse().check(t, c, content)
				return
			case !strings.Contains(cur, o):
				return
			case e.all:
				for from := 0; ; {
					i := strings.Index(cur[from:], o)
					if i < 0 {
						break
					}
					places = append(places, from+i)
					from += i + len(o)
				}
			case len(occurrences(cur, o)) != 1:
				mustRefuse().check(t, c, content)
				return
			default:
				places = []int{strings.Index(cur, o)}
			}
			var b strings.Builder
			var nw []bool
			cutAt := map[int]bool{}
			keep := func(from, to int) {
				for k := from; k < to; k++ {
					if cuts[k] {
						cutAt[len(nw)] = true
					}
					nw = append(nw, written[k])
					b.WriteByte(cur[k])
				}
			}
			pos := 0
			for _, at := range places {
				for k := at; k < at+len(o); k++ {
					if written[k] || (k > at && cuts[k]) {
						mustRefuse().check(t, c, content)
						return
					}
				}
				keep(pos, at)
				if cuts[at] || n == "" {
					cutAt[len(nw)] = true
				}
				b.WriteString(n)
				for range len(n) {
					nw = append(nw, true)
				}
				pos = at + len(o)
			}
			keep(pos, len(cur))
			cutAt[len(nw)] = cutAt[len(nw)] || cuts[len(cur)]
			cur, written, cuts = b.String(), nw, make([]bool, len(nw)+1)
			for k := range cutAt {
				cuts[k] = cutAt[k]
			}
		}
		mustBecome(cur).check(t, c, content)
	})
}
