package match

import "strings"

// escapes is what the Escapes stage read unescaped in a needle: the
// escape sequences found, in the order first seen, e.g. `\n`, `\"`.
type escapes struct {
	kinds []string
}

// unescapedChar maps the character after a run of backslashes to what
// the over-escaped sequence stands for.
var unescapedChar = map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\'': "'", '"': `"`, '`': "`", '\n': "\n"}

// unescapeNeedle reads s as over-escaped text, the way Gemini CLI's edit
// corrector does (unescapeStringForGeminiBug): a run of one or more
// backslashes before n, t, r, ', ", ` or a newline is that character (a
// newline, a tab, ...), and a run of two or more before anything else is
// one backslash. It returns s unchanged and nil when it has none.
func unescapeNeedle(s string) (string, *escapes) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	e := &escapes{}
	seen := map[string]bool{}
	u := unescapeWith(s, nil, func(kind string) {
		if !seen[kind] {
			seen[kind] = true
			e.kinds = append(e.kinds, kind)
		}
	})
	if len(e.kinds) == 0 {
		return s, nil
	}
	return u, e
}

// unescape reads a replacement unescaped the same way as the needle was:
// only the kinds of escape the needle had are read unescaped, so a `\n`
// the agent meant inside a string literal stays when only its quotes were
// over-escaped.
func (e *escapes) unescape(s string) string {
	only := make(map[string]bool, len(e.kinds))
	for _, k := range e.kinds {
		only[k] = true
	}
	return unescapeWith(s, only, func(string) {})
}

// unescapeWith reads s unescaped (see unescapeNeedle), calling found with
// each kind of escape read; with only non-nil, a kind not in it is left as
// written.
func unescapeWith(s string, only map[string]bool, found func(kind string)) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if j < len(s) {
			if c, ok := unescapedChar[s[j]]; ok {
				kind := `\` + s[j:j+1]
				if only != nil && !only[kind] {
					b.WriteString(s[i : j+1])
					i = j + 1
					continue
				}
				b.WriteString(c)
				found(kind)
				i = j + 1
				continue
			}
		}
		if j-i >= 2 && (only == nil || only[`\\`]) {
			b.WriteByte('\\')
			found(`\\`)
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// escapeNames says what each escape sequence stands for.
var escapeNames = map[string]string{`\n`: "a newline", `\t`: "a tab", `\r`: "a carriage return", `\'`: "a quote", `\"`: "a double quote",
	"\\`": "a backtick", `\\`: "a backslash", "\\\n": "a newline"}

// describe words the escapes for Place.Forgave: "over-escaped text read
// unescaped (`\n` as a newline, `\"` as a double quote)".
func (e *escapes) describe() string {
	var parts []string
	for _, k := range e.kinds {
		shown := k
		if k == "\\\n" {
			shown = `\` + " before a line end"
		}
		parts = append(parts, "`"+shown+"` as "+escapeNames[k])
	}
	return "over-escaped text read unescaped (" + strings.Join(parts, ", ") + ")"
}
