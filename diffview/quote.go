package diffview

import "strings"

// headerPath returns the name for a "---" or "+++" header line: /dev/null
// for an absent file, otherwise prefix+name, C-quoted as git quotes it if
// it contains a byte that would otherwise end or garble the line (control
// bytes, '"' or '\\'). Other bytes, UTF-8 included, are kept as they are.
func headerPath(prefix, name string) string {
	if name == "" {
		return "/dev/null"
	}
	path := prefix + name
	if !strings.ContainsFunc(path, needsQuote) {
		return path
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				// Octal, as git writes it; strconv.Quote would write \x.
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// QuotePath is path as git writes it in a diff header or a diffstat:
// C-quoted when it holds a control byte, '"' or '\\' (see headerPath).
func QuotePath(path string) string { return headerPath("", path) }

// needsQuote reports whether r makes git quote a path: a control
// character, '"' or '\\'.
func needsQuote(r rune) bool {
	return r < 0x20 || r == 0x7f || r == '"' || r == '\\'
}
