// Package jsonargs decodes a tool call's JSON arguments strictly, for every
// dialect: exactly one object, exact (case-sensitive) field names, no
// repeated or unknown fields, values of the right JSON type, whole numbers
// that cannot overflow, and every string valid Unicode text (no invalid
// UTF-8 bytes, no lone surrogate escapes). Every refusal wraps ErrInvalid
// and says what was wrong and what to send instead.
package jsonargs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrInvalid is wrapped by every refusal of this package.
var ErrInvalid = errors.New("invalid arguments")

// ErrNotUTF8 is wrapped, with ErrInvalid, by the refusal of a JSON string
// (a value or a field name) that is not valid Unicode text: raw bytes that
// are not UTF-8, or a \u escape of a lone surrogate.
var ErrNotUTF8 = errors.New("not valid UTF-8 text")

// Invalid formats a refusal wrapping ErrInvalid.
func Invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Object is a decoded JSON object: its fields by name, null-valued ones
// dropped (clients often send every field, null where unused).
type Object map[string]json.RawMessage

// Has reports whether the field was given (and not null).
func (o Object) Has(name string) bool {
	_, ok := o[name]
	return ok
}

// Spec describes one JSON object to decode.
type Spec struct {
	// In names the field that holds the object (such as "arguments" or
	// "operations[2]"); empty for the call's arguments themselves.
	In string
	// Fields are the accepted field names.
	Fields []string
	// Example is a valid object, shown when the input is not an object.
	Example string
}

// Decode reads raw as exactly one JSON object and returns its fields.
// It walks tokens itself rather than decoding into a struct with
// DisallowUnknownFields because encoding/json matches struct fields
// case-insensitively and lets a repeated key silently win; an agent should
// learn about both.
//
// Every string in raw, at any depth and field names included, must be
// valid Unicode text; the first that is not is refused with an error
// wrapping ErrNotUTF8 that names it by its path ("old_str",
// "operations[0].content[2]"). The check covers every field here, as it
// is read, because encoding/json silently turns such bytes into U+FFFD, and
// so would every later decode of a field.
func (s Spec) Decode(raw []byte) (Object, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, Invalid(`%s empty; send one JSON object such as %s`, s.what("are", "is"), s.Example)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, s.syntaxErr(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, Invalid(`%s must be a JSON object, got %s; send one object such as %s`, s.what("", ""), tokenKind(tok), s.Example)
	}
	fields := Object{}
	seen := map[string]bool{}
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, s.syntaxErr(err)
		}
		key, _ := tok.(string) // object keys are always strings
		if err := checkString(raw[start:dec.InputOffset()], s.In, true); err != nil {
			return nil, err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, s.syntaxErr(err)
		}
		if err := checkStrings(val, s.field(key)); err != nil {
			return nil, err
		}
		if !contains(s.Fields, key) {
			hint := ""
			for _, f := range s.Fields {
				if strings.EqualFold(f, key) {
					hint = fmt.Sprintf(" (did you mean %q? names are case-sensitive)", f)
				}
			}
			return nil, Invalid(`unknown field %q%s%s; the accepted fields are %s`, key, s.in(), hint, AndList(QuoteAll(s.Fields)))
		}
		if seen[key] {
			return nil, Invalid(`%q is given more than once%s; send each field once`, key, s.in())
		}
		seen[key] = true
		if string(val) != "null" {
			fields[key] = val
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, s.syntaxErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, Invalid(`unexpected data after the JSON object%s; send exactly one JSON object`, s.in())
	}
	return fields, nil
}

// what names the object in messages: "the arguments are" or "\"arguments\" is".
func (s Spec) what(plural, singular string) string {
	if s.In == "" {
		return strings.TrimSpace("the arguments " + plural)
	}
	return strings.TrimSpace(strconv.Quote(s.In) + " " + singular)
}

// field names a field of the object in messages: "path", "arguments.file_path".
func (s Spec) field(key string) string {
	if s.In == "" {
		return key
	}
	return s.In + "." + key
}

func (s Spec) in() string {
	if s.In == "" {
		return ""
	}
	return " in " + strconv.Quote(s.In)
}

func (s Spec) syntaxErr(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return Invalid(`%s not valid JSON: the object is cut off; send one complete JSON object`, s.what("are", "is"))
	}
	return Invalid(`%s not valid JSON (%s); send one JSON object such as %s`, s.what("are", "is"), strings.TrimPrefix(err.Error(), "json: "), s.Example)
}

// String decodes a JSON string; want describes the expected value for the
// error message. A string that is not valid Unicode text is refused (see
// ErrNotUTF8) rather than decoded with U+FFFD in place of the bad part.
func String(name string, raw json.RawMessage, want string) (string, error) {
	if kind := Kind(raw); kind != "a string" {
		return "", Invalid(`%q must be a string (%s), got %s`, name, want, kind)
	}
	if err := checkString(raw, name, false); err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", Invalid(`%q is not a valid JSON string (%v); send it as a JSON string`, name, err)
	}
	return s, nil
}

// Bool decodes a JSON boolean.
func Bool(name string, raw json.RawMessage) (bool, error) {
	switch strings.TrimSpace(string(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, Invalid(`%q must be true or false, got %s`, name, Kind(raw))
}

// Int decodes a JSON number that must be a whole number fitting in an int.
// Integral forms such as 3.0 or 1e2 are accepted; fractions and huge values
// are refused without overflow or panic. what names the number in the
// too-large message ("a line number", "an offset").
func Int(name string, raw json.RawMessage, what string) (int, error) {
	if kind := Kind(raw); kind != "a number" {
		return 0, Invalid(`%q must be a whole number, got %s`, name, kind)
	}
	s := strings.TrimSpace(string(raw))
	tooLarge := func() (int, error) {
		return 0, Invalid(`%q is %s, which is too large to be %s; use %s of the file`, name, s, what, what)
	}
	if n, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(n), nil
	} else if errors.Is(err, strconv.ErrRange) {
		return tooLarge()
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, Invalid(`%q must be a whole number, got %s`, name, s)
	case err != nil || math.Abs(f) > 1<<53:
		return tooLarge()
	case f != math.Trunc(f):
		return 0, Invalid(`%q must be a whole number, got %s`, name, s)
	}
	return int(f), nil
}

// Array decodes a JSON array into its raw items.
func Array(name string, raw json.RawMessage, want string) ([]json.RawMessage, error) {
	if kind := Kind(raw); kind != "an array" {
		return nil, Invalid(`%q must be an array (%s), got %s`, name, want, kind)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, Invalid(`%q is not a valid array (%v); send %s`, name, err, want)
	}
	return items, nil
}

// Kind names the JSON type of a raw value ("a string", "a number", ...).
func Kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "an object"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// QuoteAll quotes each string.
func QuoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

// AndList joins "a, b and c".
func AndList(list []string) string { return joinList(list, "and") }

// OrList joins "a, b or c".
func OrList(list []string) string { return joinList(list, "or") }

func joinList(list []string, conj string) string {
	switch len(list) {
	case 0:
		return ""
	case 1:
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " " + conj + " " + list[len(list)-1]
}

// Thousands formats n with comma separators: 409600 -> "409,600".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
