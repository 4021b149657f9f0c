package text

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrNotUTF16 is a file that starts with a UTF-16 byte order mark but is
// not well-formed UTF-16 (an odd number of bytes, a lone surrogate), or
// text that has no UTF-16 form (not valid UTF-8).
var ErrNotUTF16 = errors.New("not valid UTF-16")

// EncodingOf tells b's encoding from its first two bytes: UTF16LE or
// UTF16BE when b starts with that byte order mark, else UTF8. It looks at
// nothing else, so it costs nothing on an ordinary file.
func EncodingOf(b []byte) Encoding {
	if len(b) >= 2 {
		switch {
		case b[0] == 0xff && b[1] == 0xfe:
			return UTF16LE
		case b[0] == 0xfe && b[1] == 0xff:
			return UTF16BE
		}
	}
	return UTF8
}

// DecodeText returns the text the dialects see of b, and b's encoding.
// For UTF8 that is b itself (no copy). For UTF-16 it is UTF-8: the byte
// order mark becomes the UTF-8 BOM (which the line model and every
// dialect already keep out of the text and keep in the file), and every
// other code unit is decoded as is, line endings included, so
// EncodeText(text, enc) gives b back byte for byte. A malformed UTF-16
// file is an error wrapping ErrNotUTF16 that says where it is broken.
func DecodeText(b []byte) (text []byte, enc Encoding, err error) {
	enc = EncodingOf(b)
	if enc == UTF8 {
		return b, UTF8, nil
	}
	if len(b)%2 != 0 {
		return nil, enc, fmt.Errorf("%w: it starts with a %s byte order mark but has an odd number of bytes (%d)", ErrNotUTF16, enc, len(b))
	}
	lo, hi := 0, 1 // where the low and high byte of a code unit are
	if enc.form == formUTF16BE {
		lo, hi = 1, 0
	}
	// The BOM (2 bytes) becomes 3 bytes; other units at most 3 bytes per
	// 2, or 4 per surrogate pair (4 bytes).
	out := make([]byte, 0, len(b)/2*3)
	out = append(out, BOM...)
	for i := 2; i < len(b); i += 2 {
		r := rune(b[i+lo]) | rune(b[i+hi])<<8
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
			continue
		case utf16.IsSurrogate(r) && r < 0xdc00 && i+3 < len(b):
			if r2 := rune(b[i+2+lo]) | rune(b[i+2+hi])<<8; r2 >= 0xdc00 && r2 <= 0xdfff {
				out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
				i += 2
				continue
			}
			fallthrough
		case utf16.IsSurrogate(r):
			return nil, enc, fmt.Errorf("%w: it starts with a %s byte order mark but has a lone surrogate (U+%04X) at byte %d", ErrNotUTF16, enc, r, i)
		}
		out = utf8.AppendRune(out, r)
	}
	return out, enc, nil
}

// EncodeText is the inverse of DecodeText: text (UTF-8) in the encoding
// enc. For UTF8 it is text itself. For UTF-16 one leading UTF-8 BOM, if
// any, becomes the byte order mark, and a text without one gets it all the
// same: the mark is how the file is known to be UTF-16, so it is kept as
// the file's line endings are. Text that is not valid UTF-8 has no UTF-16
// form: an error wrapping ErrNotUTF16 says where.
func EncodeText(text []byte, enc Encoding) ([]byte, error) {
	switch enc.form {
	case formUTF8:
		return text, nil
	case formDeclared:
		return enc.encode(text)
	}
	text = text[BOMLen(text):]
	// At most 2 bytes per UTF-8 byte (ASCII), plus the mark.
	out := make([]byte, 2+len(text)*2)
	lo, hi := 0, 1 // where the low and high byte of a code unit go
	if enc.form == formUTF16BE {
		lo, hi = 1, 0
	}
	out[lo], out[hi] = 0xff, 0xfe
	o := 2
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			out[o+lo], out[o+hi] = c, 0
			o += 2
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, fmt.Errorf("%w: text with invalid UTF-8 at byte %d has no %s form", ErrNotUTF16, i, enc)
		}
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			out[o+lo], out[o+hi] = byte(r1), byte(r1>>8)
			out[o+2+lo], out[o+2+hi] = byte(r2), byte(r2>>8)
			o += 4
		} else {
			out[o+lo], out[o+hi] = byte(r), byte(r>>8)
			o += 2
		}
		i += n
	}
	return out[:o], nil
}

// NotText says why b is not text a dialect may interpret, or nil when it
// is. The reason reads after the file's name: "contains NUL bytes" (a NUL
// in its first 8000 bytes, IsBinary), or "is not valid UTF-16: ..." (a
// UTF-16 byte order mark on bytes that are not well-formed UTF-16; it
// wraps ErrNotUTF16). Dialects see UTF-16 files decoded (DecodeText), so a
// UTF-16 mark on what they see means the file could not be decoded.
func NotText(b []byte) error {
	if enc := EncodingOf(b); enc.IsUTF16() {
		if _, _, err := DecodeText(b); err != nil {
			return fmt.Errorf("is %w", err)
		}
		return fmt.Errorf("is %s text that was not decoded", enc)
	}
	if IsBinary(b) {
		return errNUL
	}
	return nil
}

var errNUL = errors.New("contains NUL bytes")
