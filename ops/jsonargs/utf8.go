package jsonargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The checks here run on the raw bytes of JSON string tokens: encoding/json
// decodes invalid UTF-8 and lone surrogate escapes to U+FFFD without an
// error, so the decoded string cannot tell them from a real U+FFFD.

// checkStrings refuses the first string in val, one syntactically valid
// JSON value (as json.Decoder.Decode returns it into a json.RawMessage),
// that is not valid Unicode text (see scanString), naming it by its path
// below name. It walks the bytes itself instead of using json.Decoder's
// tokens, which would decode every string a second time, at a third of
// the speed, only to be thrown away.
func checkStrings(val []byte, name string) error {
	var stack []frame
	for i := 0; i < len(val); {
		switch val[i] {
		case '"':
			end, bad, at := scanString(val, i)
			if end < 0 {
				return nil // cannot happen in a valid value
			}
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = val[i:end], false
				if bad != "" {
					return notText(path(name, stack[:n-1]), true, at, bad)
				}
			} else if bad != "" {
				return notText(path(name, stack), false, at, bad)
			}
			i = end
			continue
		case '{', '[':
			stack = append(stack, frame{array: val[i] == '[', wantKey: val[i] == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			// The next value of an array has the next index; the next
			// string of an object is a key.
			if n := len(stack); n > 0 {
				stack[n-1].index++
				stack[n-1].wantKey = !stack[n-1].array
			}
		}
		i++
	}
	return nil
}

// checkString refuses token, one JSON string token (quotes included,
// surrounding white space allowed), unless it is valid Unicode text. name
// is the field's path; isKey says the token is a field name of the object
// name, not name's value. A malformed token passes: the JSON decoder
// refuses it in its own words.
func checkString(token []byte, name string, isKey bool) error {
	i := bytes.IndexByte(token, '"')
	if i < 0 {
		return nil
	}
	if _, bad, at := scanString(token, i); bad != "" {
		return notText(name, isKey, at, bad)
	}
	return nil
}

// frame is one open array or object while walking a value.
type frame struct {
	array   bool
	index   int    // array: the index of the current value
	key     []byte // object: the current key's string token
	wantKey bool   // object: the next string is a key
}

// path names a value the way the dialects name fields in their messages,
// "old_str", "edits[1].new_string", "operations[0].content[2]": name, the
// field holding the walked value, then the keys and indexes of stack.
func path(name string, stack []frame) string {
	b := []byte(name)
	for _, f := range stack {
		if f.array {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(f.index), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		var key string
		_ = json.Unmarshal(f.key, &key) // a valid token: checkStrings' input is valid JSON, and the key passed scanString
		b = append(b, key...)
	}
	return string(b)
}

// scanString reads the JSON string token starting at b[start] (a '"') and
// returns the index just after its closing quote (-1 if it has none). When
// the string is not valid Unicode text it also says why, and at which
// character (1-based, counted as decoded): a raw byte that is not part of
// valid UTF-8 (which excludes encoded surrogates and overlong forms), or a
// \u escape of a surrogate half that is not a high-low pair.
func scanString(b []byte, start int) (end int, bad string, at int) {
	chars := 0 // characters decoded so far
	for i := start + 1; i < len(b); chars++ {
		// Most text is plain ASCII: pass it in a tight loop.
		for i < len(b) && b[i] < utf8.RuneSelf && b[i] != '"' && b[i] != '\\' {
			i++
			chars++
		}
		if i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, "", 0
		case c == '\\' && i+1 < len(b) && b[i+1] == 'u':
			r := hex4(b[i+2:])
			switch {
			case r < 0: // malformed escape; the decoder refuses it
				i += 2
				continue
			case utf16.IsSurrogate(r) && r < 0xdc00:
				if i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
					if lo := hex4(b[i+8:]); lo >= 0xdc00 && lo < 0xe000 {
						i += 12
						continue
					}
				}
				return skip(b, i), fmt.Sprintf(`the escape \u%s is a high surrogate not followed by a low surrogate escape (\udc00 to \udfff)`, b[i+2:i+6]), chars + 1
			case utf16.IsSurrogate(r):
				return skip(b, i), fmt.Sprintf(`the escape \u%s is a low surrogate without a high surrogate escape (\ud800 to \udbff) before it`, b[i+2:i+6]), chars + 1
			}
			i += 6
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return skip(b, i), fmt.Sprintf("the byte 0x%02x is not UTF-8", c), chars + 1
			}
			i += size
		}
	}
	return -1, "", 0
}

// skip returns the index after the closing quote of the string that
// b[i] is inside of, or -1.
func skip(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// hex4 decodes the 4 hex digits a \u escape starts with, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	if err != nil {
		return -1
	}
	return rune(n)
}

// notText is the refusal of a string that is not valid Unicode text; it
// wraps ErrInvalid and ErrNotUTF8.
func notText(name string, isKey bool, at int, why string) error {
	subject := strconv.Quote(name)
	switch {
	case isKey && name == "":
		subject = "a field name"
	case isKey:
		subject = "a field name in " + subject
	case name == "":
		subject = "a string"
	}
	return fmt.Errorf(`%w: %s is %w: %s (at character %d); send the text as UTF-8, with \u escapes only of whole characters (one above U+FFFF as a surrogate pair such as \ud83d\ude00); bytes that are not UTF-8 text cannot be sent in JSON`,
		ErrInvalid, subject, ErrNotUTF8, why, at)
}
