package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// This file edits a JSON configuration file in place: it adds or removes
// one object member or array element and leaves every other byte as it
// was. github.com/tailscale/hujson parses the file (JSON, or JSON with
// comments and trailing commas where the host reads that) into a tree that
// packs back byte for byte; git-edit inserts or removes a member there,
// setting the white space around it itself so that it takes the file's
// own indentation. The person's document is never reformatted:
// Standardize runs only on clones, to decode and compare values.

// parseJSONConfig parses a host's JSON file. comments: the host reads JSON
// with comments and trailing commas; else a file holding either is
// refused, as the host itself would refuse it. An error names the line
// and column.
func parseJSONConfig(data []byte, comments bool) (hujson.Value, error) {
	root, err := hujson.Parse(data)
	if err != nil {
		// hujson says "hujson: line L, column C: why"; git-edit says it
		// as it says every other position.
		msg := err.Error()
		if inner := errors.Unwrap(err); inner != nil {
			msg = strings.TrimPrefix(msg, "hujson: ")
			msg = strings.TrimSuffix(msg, ": "+inner.Error()) + ": " + inner.Error()
		}
		return root, fmt.Errorf("not JSON: %s", msg)
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		return root, errors.New("the file is JSON but not an object")
	}
	if !comments {
		// Standardize turns each comment and trailing comma into spaces
		// and keeps every offset: the first byte that differs is the
		// first of them.
		std := standardJSON(root)
		if !bytes.Equal(std, data) {
			at := 0
			for at < len(data) && at < len(std) && data[at] == std[at] {
				at++
			}
			line, col := lineCol(data, at)
			what := "a comment"
			if data[at] == ',' {
				what = "a trailing comma"
			}
			return root, fmt.Errorf("line %d, column %d: %s, which this host does not read (its file is strict JSON); remove it, then run again", line, col, what)
		}
	}
	return root, nil
}

// standardJSON is v packed as standard JSON (comments and trailing commas
// as spaces), v itself unchanged.
func standardJSON(v hujson.Value) []byte {
	c := v.Clone()
	c.Standardize()
	return c.Pack()
}

// decodeJSONValue is v (with or without comments) as encoding/json
// decodes it.
func decodeJSONValue(v hujson.Value) (any, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(standardJSON(v)))
	err := dec.Decode(&x)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	return x, err
}

// valueJSON is v alone (without the comments and white space around it)
// as standard JSON on one line, for a message.
func valueJSON(v hujson.Value) string {
	v.BeforeExtra, v.AfterExtra = nil, nil
	return compactJSON(standardJSON(v))
}

// valueIs reports whether v is the JSON value raw.
func valueIs(v hujson.Value, raw []byte) bool {
	x, err := decodeJSONValue(v)
	var y any
	if err != nil || json.Unmarshal(raw, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// jsonMember returns the value of the member of obj named key, and its index,
// or nil and -1.
func jsonMember(obj *hujson.Object, key string) (*hujson.Value, int) {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return &obj.Members[i].Value, i
		}
	}
	return nil, -1
}

// jsonIndentUnit is the file's indentation: the white space before the
// first member of the top object, if it is on a line of its own; else two
// spaces.
func jsonIndentUnit(root hujson.Value) string {
	if obj, ok := root.Value.(*hujson.Object); ok && len(obj.Members) > 0 {
		before := obj.Members[0].Name.BeforeExtra
		if i := bytes.LastIndexByte(before, '\n'); i >= 0 && i < len(before)-1 &&
			len(bytes.Trim(before[i+1:], " \t")) == 0 {
			return string(before[i+1:])
		}
	}
	return "  "
}

// marshalIndented is v as JSON indented by unit, its lines after the first
// prefixed with depth units, with <, > and & as they are.
func marshalIndented(v any, unit string, depth int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(strings.Repeat(unit, depth), unit)
	if err := enc.Encode(v); err != nil {
		panic(err) // the values are git-edit's own structs and strings
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// items is an object's members or an array's elements, seen the same
// way: where each starts (the Value whose BeforeExtra precedes it: a
// member's name) and ends (the Value whose AfterExtra follows it, before
// the comma; on the last one non-nil means a trailing comma).
type items struct {
	n          int
	head, tail func(i int) *hujson.Value
	remove     func(i int)
	after      *hujson.Extra // before the closing bracket
}

func itemsOf(c hujson.ValueTrimmed) items {
	switch c := c.(type) {
	case *hujson.Object:
		return items{len(c.Members),
			func(i int) *hujson.Value { return &c.Members[i].Name },
			func(i int) *hujson.Value { return &c.Members[i].Value },
			func(i int) { c.Members = append(c.Members[:i], c.Members[i+1:]...) },
			&c.AfterExtra}
	case *hujson.Array:
		return items{len(c.Elements),
			func(i int) *hujson.Value { return &c.Elements[i] },
			func(i int) *hujson.Value { return &c.Elements[i] },
			func(i int) { c.Elements = append(c.Elements[:i], c.Elements[i+1:]...) },
			&c.AfterExtra}
	}
	panic("itemsOf: not a container")
}

// sameLineComment splits the extra after a container's last item into a
// line comment that ends that item's line (" // why") and the rest, which
// starts with the line break; a nil comment when there is none.
func sameLineComment(extra []byte) (comment, rest []byte) {
	t := bytes.TrimLeft(extra, " \t")
	nl := bytes.IndexByte(extra, '\n')
	if !bytes.HasPrefix(t, []byte("//")) || nl < 0 {
		return nil, extra
	}
	return extra[:nl], extra[nl:]
}

// insertIntoJSON adds value (as member key, or as an element when key is
// "") at the end of container, which lies depth levels below the top,
// indented by unit: after the last item as `,\n<indent>item` (after a
// line comment that ends the last item's line; a trailing comma stays
// last), or into an empty container as `\n<indent>item\n<indent-1>` (the
// white space or comments that were inside it are kept after the item).
// removeFromJSON undoes either exactly.
func insertIntoJSON(container *hujson.Value, depth int, unit, key string, value any) {
	ind := strings.Repeat(unit, depth+1)
	parsed, err := hujson.Parse([]byte(marshalIndented(value, unit, depth+1)))
	if err != nil {
		panic(err) // encoding/json's output is JSON
	}
	v := hujson.Value{Value: parsed.Value}
	head := &v
	var m hujson.ObjectMember
	if key != "" {
		k, _ := json.Marshal(key)
		m = hujson.ObjectMember{Name: hujson.Value{Value: hujson.Literal(k)}, Value: v}
		m.Value.BeforeExtra = []byte(" ")
		head = &m.Name
	}
	it := itemsOf(container.Value)
	switch {
	case it.n > 0:
		last := it.tail(it.n - 1)
		comment, rest := sameLineComment(*it.after)
		head.BeforeExtra = append(append([]byte{}, comment...), "\n"+ind...)
		*it.after = rest
		// The trailing comma (and what was before it), if any, moves
		// to the new last item.
		tailExtra := last.AfterExtra
		last.AfterExtra = nil
		if key != "" {
			m.Value.AfterExtra = tailExtra
		} else {
			v.AfterExtra = tailExtra
		}
	case len(*it.after) == 0: // {} or []
		head.BeforeExtra = []byte("\n" + ind)
		*it.after = []byte("\n" + strings.Repeat(unit, depth))
	default:
		head.BeforeExtra = []byte("\n" + ind)
	}
	switch c := container.Value.(type) {
	case *hujson.Object:
		c.Members = append(c.Members, m)
	case *hujson.Array:
		c.Elements = append(c.Elements, v)
	}
}

// removeFromJSON removes the i-th member or element of container (depth
// levels below the top, indented by unit): with the comma and white space
// before it, or, when it is the first of several, up to the next one;
// when it is the only one, from the bracket to its end, and then the line
// break and indentation insertIntoJSON put before the closing bracket if
// that is all that is left inside. A line comment insertIntoJSON put
// before the item (it ended the line of the item before) goes back where
// it was.
func removeFromJSON(container *hujson.Value, depth int, unit string, i int) {
	it := itemsOf(container.Value)
	head, tail := it.head(i).BeforeExtra, it.tail(i).AfterExtra
	// The part of the item's leading extra on the line before it: a
	// comment that ends that line.
	var kept []byte
	if nl := bytes.LastIndexByte(head, '\n'); nl > 0 && bytes.IndexByte(head[:nl], '\n') < 0 {
		kept = append([]byte{}, head[:nl]...)
	}
	switch {
	case it.n == 1:
		if tail == nil && string(*it.after) == "\n"+strings.Repeat(unit, depth) {
			*it.after = nil
		}
	case i > 0:
		it.tail(i - 1).AfterExtra = tail
		if i == it.n-1 {
			*it.after = append(kept, *it.after...)
		} else {
			next := it.head(i + 1)
			next.BeforeExtra = append(kept, next.BeforeExtra...)
		}
	default:
		it.head(1).BeforeExtra = head
	}
	it.remove(i)
}
