package text

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// Encoding is how a text file's bytes encode its text, as far as git-edit
// decodes it for the dialects: UTF-8 (taken as is), UTF-16 marked by a
// byte order mark, or an encoding the file's attributes declare
// (LookupEncoding). The zero value is UTF8. Encodings compare with ==.
type Encoding struct {
	form form
	// name is a declared encoding's name as the attribute gives it
	// ("cp1251"): what messages call it.
	name string
	// x decodes and encodes a declared encoding.
	x encoding.Encoding
	// utf16 says that a declared encoding is a form of UTF-16: a file
	// with a UTF-16 byte order mark is then read by its mark.
	utf16 bool
	// declared says that the file's attributes name this encoding (name):
	// UTF-8 declared is not UTF8 (nothing declared), and a declared
	// UTF-16 with a mark requires the mark.
	declared bool
}

type form uint8

const (
	formUTF8 form = iota
	formUTF16LE
	formUTF16BE
	formDeclared
)

var (
	// UTF8 is every file without a UTF-16 byte order mark or a declared
	// encoding: its bytes are the text, nothing is decoded.
	UTF8 = Encoding{}
	// UTF16LE is a file that starts with the bytes FF FE.
	UTF16LE = Encoding{form: formUTF16LE}
	// UTF16BE is a file that starts with the bytes FE FF.
	UTF16BE = Encoding{form: formUTF16BE}
)

// String names the encoding as a person would: a declared one by the name
// its attribute gives.
func (e Encoding) String() string {
	switch e.form {
	case formUTF16LE:
		return "UTF-16LE"
	case formUTF16BE:
		return "UTF-16BE"
	case formDeclared:
		return e.name
	}
	if e.declared {
		return e.name
	}
	return "UTF-8"
}

// IsUTF16 reports whether e is UTF-16 read by its byte order mark.
func (e Encoding) IsUTF16() bool { return e.form == formUTF16LE || e.form == formUTF16BE }

// ErrUnknownEncoding is an encoding name that git-edit cannot read and
// write: not a name IANA or the WHATWG Encoding Standard give, or one
// golang.org/x/text has no codec for (UTF-32).
var ErrUnknownEncoding = errors.New("unknown encoding")

// ErrNotInEncoding is a file whose bytes are not text in its declared
// encoding (they do not decode and encode back to the same bytes), or
// text that has no form in it (a character the encoding lacks).
var ErrNotInEncoding = errors.New("not in the declared encoding")

// LookupEncoding returns the encoding a gitattributes value names
// (working-tree-encoding, or the encoding attribute git's GUI tools read):
// a name or alias IANA registers (ISO-8859-1, windows-1251, Shift_JIS,
// KOI8-R, EUC-KR, UTF-16LE), else one the WHATWG Encoding Standard knows
// (cp1251, sjis, gbk), matched without regard to case; ASCII is US-ASCII
// (WHATWG reads it as windows-1252). UTF-8 (and its aliases) decodes
// nothing, but is declared: a file moved there is written in UTF-8.
// UTF-16 with a byte order mark is git's UTF-16LE-BOM or UTF-16BE-BOM,
// and UTF-16 (or UCS-2) itself, read by its mark, a new file written as
// git's iconv writes it here (little-endian, with the mark). An empty
// name is UTF8, nothing declared. Other names wrap ErrUnknownEncoding.
func LookupEncoding(name string) (Encoding, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return UTF8, nil
	}
	upper := strings.ToUpper(name)
	switch upper {
	case "UTF-16LE-BOM", "UTF16LE-BOM", "UTF-16", "UTF16", "UCS-2", "UCS2":
		return Encoding{form: formUTF16LE, name: name, declared: true}, nil
	case "UTF-16BE-BOM", "UTF16BE-BOM":
		return Encoding{form: formUTF16BE, name: name, declared: true}, nil
	}
	lookup := name
	if upper == "ASCII" || upper == "ANSI_X3.4-1968" {
		lookup = "US-ASCII"
	}
	x, err := ianaindex.IANA.Encoding(lookup)
	if err != nil || x == nil {
		if x, err = htmlindex.Get(lookup); err != nil {
			x = nil
		}
	}
	if x == nil {
		return UTF8, fmt.Errorf("%w %q", ErrUnknownEncoding, name)
	}
	if x == unicode.UTF8 || x == encoding.Nop {
		return Encoding{name: name, declared: true}, nil
	}
	return Encoding{form: formDeclared, name: name, x: x, declared: true, utf16: strings.HasPrefix(upper, "UTF-16") || strings.HasPrefix(upper, "UTF16")}, nil
}

// DecodeAs returns the text the dialects see of b, a file whose attributes
// declare the encoding declared, and the encoding it is written back in.
// With no declared encoding (UTF8) it is DecodeText. A declared form of
// UTF-16 reads a file with a UTF-16 byte order mark by its mark
// (DecodeText), and one without as the name says. Any other declared
// encoding decodes b to UTF-8, and b must be text in it: its text encoded
// again must give b back byte for byte, so that an edit changes no byte
// it did not mean to. A file that is not is an error wrapping
// ErrNotInEncoding that names its first line that is not (b's line for an
// ASCII-compatible encoding).
func DecodeAs(b []byte, declared Encoding) (text []byte, enc Encoding, err error) {
	switch {
	case !declared.declared:
		return DecodeText(b)
	case declared.form == formUTF8:
		return b, declared, nil
	case len(b) == 0:
		// Nothing to read back: a new or empty file, written in the
		// declared encoding.
		return b, declared, nil
	case declared.IsUTF16():
		if !EncodingOf(b).IsUTF16() {
			return nil, declared, fmt.Errorf("%w: its bytes are not %s text (it does not start with a UTF-16 byte order mark)", ErrNotInEncoding, declared.name)
		}
		text, enc, err = DecodeText(b)
		if err != nil {
			return nil, declared, fmt.Errorf("%w: its bytes are not %s text (%w)", ErrNotInEncoding, declared.name, err)
		}
		return text, enc, nil
	case declared.utf16 && EncodingOf(b).IsUTF16():
		return DecodeText(b)
	}
	text, err = declared.x.NewDecoder().Bytes(b)
	if err == nil {
		var back []byte
		back, err = declared.x.NewEncoder().Bytes(text)
		if err == nil && bytes.Equal(back, b) {
			return text, declared, nil
		}
	}
	return nil, declared, fmt.Errorf("%w: its bytes are not %s text (%s)", ErrNotInEncoding, declared.name, firstUndecodable(b, text, declared))
}

// firstUndecodable says where b, read as enc into text, is first not
// enc's text: the line of the first character that decoded to U+FFFD, or
// of the first byte that did not encode back.
func firstUndecodable(b, text []byte, enc Encoding) string {
	if i := bytes.IndexRune(text, utf8.RuneError); i >= 0 {
		return fmt.Sprintf("line %d has bytes that decode to no character", 1+bytes.Count(text[:i], []byte("\n")))
	}
	back, err := enc.x.NewEncoder().Bytes(text)
	if err != nil {
		return "its text does not encode back"
	}
	i := 0
	for i < len(b) && i < len(back) && b[i] == back[i] {
		i++
	}
	return fmt.Sprintf("line %d would not be written back as the same bytes", 1+bytes.Count(b[:i], []byte("\n")))
}

// readsBackAs says where text, written in the encoding name, reads back
// as back instead: the line and the character.
func readsBackAs(text, back []byte, name string) string {
	i := 0
	for i < len(text) && i < len(back) && text[i] == back[i] {
		i++
	}
	for i > 0 && !utf8.RuneStart(text[min(i, len(text)-1)]) {
		i--
	}
	line := 1 + bytes.Count(text[:i], []byte("\n"))
	if i >= len(text) {
		return fmt.Sprintf("line %d would not read back as written in %s", line, name)
	}
	r, _ := utf8.DecodeRune(text[i:])
	return fmt.Sprintf("line %d has %q (U+%04X), which %s writes as bytes that do not read back as it", line, r, r, name)
}

// encode is text (UTF-8) in a declared encoding. A character the encoding
// lacks, or text that is not valid UTF-8, is an error wrapping
// ErrNotInEncoding that names its line and the character.
func (e Encoding) encode(text []byte) ([]byte, error) {
	out, err := e.x.NewEncoder().Bytes(text)
	if err == nil {
		// Some encoders write a character as bytes that read back as
		// another (GB18030's private-use mappings), or write bytes that
		// are not the encoding's text (ISO-2022-JP and a raw ESC): what
		// is written must read back as the text.
		back, derr := e.x.NewDecoder().Bytes(out)
		if derr == nil && bytes.Equal(back, text) {
			return out, nil
		}
		return nil, fmt.Errorf("%w: %s", ErrNotInEncoding, readsBackAs(text, back, e.name))
	}
	line := 1
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, fmt.Errorf("%w: line %d has invalid UTF-8, which has no %s form", ErrNotInEncoding, line, e.name)
		}
		if r >= utf8.RuneSelf {
			if _, err := e.x.NewEncoder().Bytes(text[i : i+n]); err != nil {
				return nil, fmt.Errorf("%w: line %d has %q (U+%04X), which %s cannot encode", ErrNotInEncoding, line, r, r, e.name)
			}
		} else if r == '\n' {
			line++
		}
		i += n
	}
	return nil, fmt.Errorf("%w: the text cannot be encoded as %s: %w", ErrNotInEncoding, e.name, err)
}
