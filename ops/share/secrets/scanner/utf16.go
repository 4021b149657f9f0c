package scanner

import (
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf16"
)

// decodeUTF16 returns content decoded from UTF-16 to a Go (UTF-8) string,
// and whether content is UTF-16 text. Content is UTF-16 when it starts with
// a UTF-16 byte order mark (FF FE little-endian, FE FF big-endian; an odd
// last byte is dropped), or, without one, when it is detectably UTF-16: an
// even, non-zero length, at least half of its code units have a zero high
// byte in one byte order (as text of mostly Latin characters has), and in
// that order it decodes to text: no NUL character, no unpaired surrogate,
// no control character but tab, newline, vertical tab, form feed and
// carriage return. Line breaks survive decoding, so line numbers in the
// decoded text are line numbers in the file.
func decodeUTF16(content []byte) (string, bool) {
	if hasUTF16BOM(content) {
		if content[0] == 0xFF {
			return decode(content[2:], binary.LittleEndian), true
		}
		return decode(content[2:], binary.BigEndian), true
	}
	if len(content) == 0 || len(content)%2 != 0 {
		return "", false
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		if s, ok := detectUTF16(content, order); ok {
			return s, true
		}
	}
	return "", false
}

// hasUTF16BOM reports whether content starts with a UTF-16 byte order mark.
func hasUTF16BOM(content []byte) bool {
	return len(content) >= 2 &&
		(content[0] == 0xFF && content[1] == 0xFE || content[0] == 0xFE && content[1] == 0xFF)
}

// detectUTF16 decodes content in order when it is detectably UTF-16 text
// in that order (see decodeUTF16).
func detectUTF16(content []byte, order binary.ByteOrder) (string, bool) {
	units := units(content, order)
	latin := 0
	for _, u := range units {
		if u == 0 {
			return "", false
		}
		if u < 0x100 {
			latin++
		}
	}
	if 2*latin < len(units) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(units); i++ {
		u := units[i]
		r := rune(u)
		if utf16.IsSurrogate(r) {
			if i+1 >= len(units) {
				return "", false
			}
			r = utf16.DecodeRune(r, rune(units[i+1]))
			if r == unicode.ReplacementChar {
				return "", false
			}
			i++
		} else if unicode.IsControl(r) && !strings.ContainsRune("\t\n\v\f\r", r) {
			return "", false
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// decode decodes content as UTF-16 in order, an odd last byte dropped and
// unpaired surrogates replaced by U+FFFD.
func decode(content []byte, order binary.ByteOrder) string {
	return string(utf16.Decode(units(content, order)))
}

// units returns content's 16-bit code units in order, an odd last byte dropped.
func units(content []byte, order binary.ByteOrder) []uint16 {
	u := make([]uint16, len(content)/2)
	for i := range u {
		u[i] = order.Uint16(content[2*i:])
	}
	return u
}
