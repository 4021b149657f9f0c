package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// This file edits a JSON configuration file in place: it adds or removes
// one object member or array element and leaves every other byte as it
// was. encoding/json says whether the file is JSON and compares values;
// jsonNode finds where each value lies in the bytes.

// jsonNode is a value of a JSON text and where it lies: data[start:end].
type jsonNode struct {
	start, end int
	kind       byte // '{', '[', or 0 for a scalar
	members    []jsonMember
	elems      []*jsonNode
}

// jsonMember is an object member: its key, where the key's quote starts,
// and its value.
type jsonMember struct {
	key      string
	keyStart int
	val      *jsonNode
}

// parseJSONSpans parses data, which json.Valid accepted, into nodes with
// their byte ranges.
func parseJSONSpans(data []byte) (*jsonNode, error) {
	p := &spanParser{data: data}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	return n, nil
}

type spanParser struct {
	data []byte
	pos  int
}

func (p *spanParser) ws() {
	for p.pos < len(p.data) && strings.IndexByte(" \t\r\n", p.data[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *spanParser) value() (*jsonNode, error) {
	p.ws()
	if p.pos >= len(p.data) {
		return nil, errors.New("unexpected end of JSON")
	}
	n := &jsonNode{start: p.pos}
	switch c := p.data[p.pos]; c {
	case '{':
		n.kind = '{'
		p.pos++
		for {
			p.ws()
			if p.data[p.pos] == '}' {
				p.pos++
				break
			}
			if p.data[p.pos] == ',' {
				p.pos++
				p.ws()
			}
			keyStart := p.pos
			if err := p.str(); err != nil {
				return nil, err
			}
			var key string
			if err := json.Unmarshal(p.data[keyStart:p.pos], &key); err != nil {
				return nil, err
			}
			p.ws()
			p.pos++ // ':'
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, jsonMember{key: key, keyStart: keyStart, val: v})
		}
	case '[':
		n.kind = '['
		p.pos++
		for {
			p.ws()
			if p.data[p.pos] == ']' {
				p.pos++
				break
			}
			if p.data[p.pos] == ',' {
				p.pos++
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
	case '"':
		if err := p.str(); err != nil {
			return nil, err
		}
	default:
		for p.pos < len(p.data) && strings.IndexByte(",]} \t\r\n", p.data[p.pos]) < 0 {
			p.pos++
		}
	}
	n.end = p.pos
	return n, nil
}

func (p *spanParser) str() error {
	if p.data[p.pos] != '"' {
		return fmt.Errorf("expected a string at byte %d", p.pos)
	}
	for p.pos++; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			return nil
		}
	}
	return errors.New("unterminated string")
}

// member returns the member of an object node named key, and its index.
func (n *jsonNode) member(key string) (*jsonNode, int) {
	for i, m := range n.members {
		if m.key == key {
			return m.val, i
		}
	}
	return nil, -1
}

// jsonIndentUnit is the file's indentation: the white space before the
// first member of the top object, if it is on a line of its own; else two
// spaces.
func jsonIndentUnit(data []byte, root *jsonNode) string {
	if root.kind == '{' && len(root.members) > 0 {
		k := root.members[0].keyStart
		i := k
		for i > 0 && (data[i-1] == ' ' || data[i-1] == '\t') {
			i--
		}
		if i > 0 && data[i-1] == '\n' && i < k {
			return string(data[i:k])
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

// jsonEqual reports whether two JSON texts are the same value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// depthOf is how deep node lies below root (root: 0).
func depthOf(root, node *jsonNode) int {
	if root == node {
		return 0
	}
	for _, m := range root.members {
		if d := depthOf(m.val, node); d >= 0 {
			return d + 1
		}
	}
	for _, e := range root.elems {
		if d := depthOf(e, node); d >= 0 {
			return d + 1
		}
	}
	return -1
}

// splice returns data with data[from:to] replaced by s.
func splice(data []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(s))
	out = append(out, data[:from]...)
	out = append(out, s...)
	return append(out, data[to:]...)
}

// lastEnd is where container's last member or element ends.
func (n *jsonNode) lastEnd() int {
	if len(n.members) > 0 {
		return n.members[len(n.members)-1].val.end
	}
	return n.elems[len(n.elems)-1].end
}

// insertIntoJSON adds item (a member key: value, or an element when key is
// "") at the end of container: after the last one as `,\n<indent>item`,
// or into an empty container as `\n<indent>item\n<indent-1>` (the
// white space that was inside it is kept after the item). removeFromJSON
// undoes either exactly.
func insertIntoJSON(data []byte, root, container *jsonNode, key string, value any) []byte {
	unit := jsonIndentUnit(data, root)
	depth := depthOf(root, container)
	item := marshalIndented(value, unit, depth+1)
	if key != "" {
		k, _ := json.Marshal(key)
		item = string(k) + ": " + item
	}
	ind := strings.Repeat(unit, depth+1)
	if len(container.members)+len(container.elems) > 0 {
		at := container.lastEnd()
		return splice(data, at, at, ",\n"+ind+item)
	}
	inside := strings.TrimSpace(string(data[container.start+1 : container.end-1]))
	if inside != "" {
		panic("insertIntoJSON: container not empty")
	}
	if container.end-container.start == 2 { // {} or []
		return splice(data, container.start+1, container.start+1, "\n"+ind+item+"\n"+strings.Repeat(unit, depth))
	}
	return splice(data, container.start+1, container.start+1, "\n"+ind+item)
}

// removeFromJSON removes the i-th member or element of container: with
// the comma and white space before it, or, when it is the first of
// several, up to the next one; when it is the only one, from the bracket
// to its end, and then the line break and indentation insertIntoJSON put
// before the closing bracket if that is all that is left inside.
func removeFromJSON(data []byte, root, container *jsonNode, i int) []byte {
	starts, ends := container.itemSpans()
	switch {
	case len(starts) == 1:
		rest := string(data[ends[0] : container.end-1])
		if rest == "\n"+strings.Repeat(jsonIndentUnit(data, root), depthOf(root, container)) {
			return splice(data, container.start+1, container.end-1, "")
		}
		return splice(data, container.start+1, ends[0], "")
	case i > 0:
		return splice(data, ends[i-1], ends[i], "")
	default:
		return splice(data, starts[0], starts[1], "")
	}
}

// itemSpans are where each member (from its key) or element starts and
// ends.
func (n *jsonNode) itemSpans() (starts, ends []int) {
	for _, m := range n.members {
		starts, ends = append(starts, m.keyStart), append(ends, m.val.end)
	}
	for _, e := range n.elems {
		starts, ends = append(starts, e.start), append(ends, e.end)
	}
	return starts, ends
}
