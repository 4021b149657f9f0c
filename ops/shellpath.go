package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/git-edit/git-edit/repo"
)

// shellSpecial are the characters a shell needs escaped in a word: a
// backslash before one of them is the shell's escape, a backslash before
// anything else is kept (it may be part of the name).
const shellSpecial = " \t\\'\"$`&*?()[]{}<>|;!#~="

// shellUnescape reads arg as one shell word, the way agents paste paths
// from a shell command: `my\ file.txt`, `'my file.txt'`, `"my file.txt"`,
// `dir/'a b'/c.txt`. It returns the word and true when that differs from
// arg; "" and false when arg has nothing a shell would unquote, or is not one
// well-formed word (an unclosed quote, a blank outside quotes, a trailing
// lone backslash).
func shellUnescape(arg string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		switch {
		case c == '\\':
			if i+1 == len(arg) {
				return "", false
			}
			if strings.IndexByte(shellSpecial, arg[i+1]) >= 0 {
				i++
			}
			b.WriteByte(arg[i])
		case c == '\'':
			end := strings.IndexByte(arg[i+1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(arg[i+1 : i+1+end])
			i += 1 + end
		case c == '"':
			closed := false
			for i++; i < len(arg); i++ {
				if arg[i] == '"' {
					closed = true
					break
				}
				// In double quotes only these are escaped.
				if arg[i] == '\\' && i+1 < len(arg) && strings.IndexByte("$`\"\\", arg[i+1]) >= 0 {
					i++
				}
				b.WriteByte(arg[i])
			}
			if !closed {
				return "", false
			}
		case c == ' ' || c == '\t' || c == '\n':
			return "", false // two words, or a name with a blank: not a pasted word
		default:
			b.WriteByte(c)
		}
	}
	if w := b.String(); w != arg && w != "" {
		return w, true
	}
	return "", false
}

// unescapedPath is a path argument read as shell-escaped: given by the
// agent, used because only it exists.
type unescapedPath struct {
	Given string `json:"given"`
	Used  string `json:"used"`
}

// locate is Engine.locate with one forgiveness: when the file at arg does
// not exist, arg reads differently as a shell word (shellUnescape), and
// the file at that reading exists, that file is used and the call's record
// notes it (the result then says so). Both readings go through the same
// confinement; a path refused as given is refused, never retried; a path
// that exists as given is always the one used.
func (w workspace) locate(arg string) (*Engine, repo.Path, error) {
	e, p, err := w.e.locate(arg)
	if err != nil || exists(p) {
		return e, p, err
	}
	alt, ok := shellUnescape(arg)
	if !ok {
		return e, p, nil
	}
	ae, ap, aerr := w.e.locate(alt)
	if aerr != nil || !exists(ap) {
		return e, p, nil
	}
	w.rec.unescape(arg, alt)
	return ae, ap, nil
}

// locateRecorded is Engine.locateRecorded with locate's forgiveness: an
// undo of `my\ file.txt` where only "my file.txt" exists undoes that
// file, the path an edit of the same argument changed.
func (w workspace) locateRecorded(arg string) (*Engine, repo.Path, error) {
	e, p, err := w.e.locateRecorded(arg)
	if err != nil || exists(p) {
		return e, p, err
	}
	alt, ok := shellUnescape(arg)
	if !ok {
		return e, p, nil
	}
	ae, ap, aerr := w.e.locateRecorded(alt)
	if aerr != nil || !exists(ap) {
		return e, p, nil
	}
	w.rec.unescape(arg, alt)
	return ae, ap, nil
}

// exists reports whether something (a file, a link, a directory) is at p;
// a path that cannot be looked at counts as existing, so that it is never
// taken for another.
func exists(p repo.Path) bool {
	_, err := os.Lstat(p.Abs)
	return !errors.Is(err, fs.ErrNotExist)
}

func (r *callRecord) unescape(given, used string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range r.unescaped {
		if u.Given == given {
			return
		}
	}
	r.unescaped = append(r.unescaped, unescapedPath{Given: given, Used: used})
}

// withUnescaped adds to a call's result the paths it read as shell-escaped:
// a note per path after the text, and "unescaped_paths" in the result
// object.
func withUnescaped(res Result, rec *callRecord) Result {
	rec.mu.Lock()
	list := rec.unescaped
	rec.mu.Unlock()
	if len(list) == 0 {
		return res
	}
	var notes strings.Builder
	for _, u := range list {
		fmt.Fprintf(&notes, "\nNote: there is no file %s, but there is %s: the path was read as shell-escaped, and %s was used.", u.Given, u.Used, u.Used)
	}
	out := extendResult(res, "", nil, []field{{"unescaped_paths", list}})
	if raw, ok := out.Value.(json.RawMessage); !ok || out.Text != string(raw) {
		out.Text += notes.String()
	}
	return out
}
