package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
)

// What the engine adds to every writing dialect, in one place rather than
// in each: the optional arguments dry_run and turn, and the note that another
// session's change to a file the call changed is still in effect.
//
// dry_run: true runs the call as it would run (the same reads, plan and
// refusals, under the same lock) and answers with the diff it would apply
// and the result it would return, writing nothing and recording nothing:
// no file, no object, no ref, no read record.

// dryRunProperty is the schema of dry_run, added to the properties of
// every writing tool whose schema does not declare it itself.
const dryRunProperty = `"dry_run": {"type": "boolean", "default": false, "description": "Answer with the diff the call would apply and the result it would return, writing and recording nothing."}`

// turnProperty is the schema of turn, added after dry_run: the turn (the
// person's prompt) a call's edit belongs to, recorded as Edit-Turn. An MCP
// client may send it in the request's _meta as "git-edit/turn" instead.
const turnProperty = `"turn": {"type": "string", "description": "The id of the turn (the person's prompt) this edit belongs to, so the whole turn can be reviewed and undone together (git edit log, git edit undo --turn)."}`

// dryRunCommit stands, in a dry run, for the commit the call would make:
// dialects say "no change" when Outcome.Commit is empty.
const dryRunCommit = "dry-run"

// dryRunSchemas holds, for each tool whose dry_run the engine serves, its
// schema with dry_run (and turn) added, made on first use per tool: a
// command-line call asks for its one tool only, so no process builds the
// others' (about 0.4 ms of a cold edit).
var dryRunSchemas sync.Map // tool name → dryRunSchema

// dryRunSchema is one entry of dryRunSchemas: ok is false for a tool that
// takes no dry_run.
type dryRunSchema struct {
	schema string
	ok     bool
}

// dryRunSchemaOf is t's schema with dry_run and turn added; ok is false
// when t takes no dry_run (a read-only tool, or a schema that has no
// properties object or declares dry_run already).
func dryRunSchemaOf(t dialect.Tool) (string, bool) {
	if v, ok := dryRunSchemas.Load(t.Name); ok {
		d := v.(dryRunSchema)
		return d.schema, d.ok
	}
	var d dryRunSchema
	if !t.ReadOnly() {
		d.schema, d.ok = withProperties(t.Schema, property{"dry_run", dryRunProperty}, property{"turn", turnProperty})
	}
	dryRunSchemas.Store(t.Name, d)
	return d.schema, d.ok
}

// schemaOf is t's input schema as offered: with dry_run for a writing tool.
func schemaOf(t dialect.Tool) string {
	if s, ok := dryRunSchemaOf(t); ok {
		return s
	}
	return t.Schema
}

// withDryRun adds dryRunProperty as the last of schema's properties,
// keeping the rest byte for byte; ok is false when schema has no
// properties object or declares dry_run already.
func withDryRun(schema string) (string, bool) {
	return withProperties(schema, property{"dry_run", dryRunProperty})
}

// property is a member of a schema's properties: its key, and the member
// as written.
type property struct{ key, member string }

// withProperties adds props, in order, as the last of schema's
// properties, keeping the rest byte for byte, in one reading of the
// schema; a property the schema declares already is left out. ok is false
// when schema has no properties object or declares the first of props
// already.
func withProperties(schema string, props ...property) (string, bool) {
	members, ok := objectMembers([]byte(schema))
	if !ok {
		return schema, false
	}
	for _, m := range members {
		if m.key != "properties" {
			continue
		}
		have, ok := objectMembers(m.value)
		declared := func(key string) bool { return slices.ContainsFunc(have, func(p member) bool { return p.key == key }) }
		if !ok || len(props) == 0 || declared(props[0].key) {
			return schema, false
		}
		var added []string
		for _, p := range props {
			if !declared(p.key) {
				added = append(added, p.member)
			}
		}
		// m.value ends with the properties' closing brace.
		end := m.end - 1
		body := bytes.TrimRight([]byte(schema[:end]), " \t\r\n")
		sep := ",\n    "
		if len(have) == 0 {
			sep = ""
		}
		return string(body) + sep + strings.Join(added, ",\n    ") + "\n  " + schema[end:], true
	}
	return schema, false
}

// member is one member of a JSON object: its key, its value as written,
// and where the member starts (its key) and ends (its value) in the
// object's text.
type member struct {
	key        string
	value      []byte
	start, end int
	comma      int // the offset of the comma before it; -1 for the first
}

// objectMembers reads raw as one JSON object; ok is false when it is not
// one (then the dialect's parser words the refusal), and the members are
// those read before what is wrong.
func objectMembers(raw []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		prev := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return out, false
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return out, false
		}
		m := member{key: key, value: val, end: int(dec.InputOffset()), comma: -1}
		// The key starts after the whitespace and the comma before it.
		i := prev
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n' || raw[i] == ',') {
			if raw[i] == ',' {
				m.comma = i
			}
			i++
		}
		m.start = i
		out = append(out, m)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return out, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return out, false
	}
	return out, true
}

// takeDryRun takes the top-level dry_run off a call's arguments (see
// takeMember). dry_run must be true, false or null (absent).
func takeDryRun(args []byte) (rest []byte, dry bool, err error) {
	rest, val, err := takeMember(args, "dry_run")
	if err != nil || val == nil {
		return rest, false, err
	}
	switch string(val) {
	case "true":
		dry = true
	case "false", "null":
	default:
		return nil, false, jsonargs.Invalid(`"dry_run" must be true or false, got %s; send "dry_run": true to see what the call would change without changing anything`, val)
	}
	return rest, dry, nil
}

// takeTurn takes the top-level turn off a call's arguments (see
// takeMember): a string, or null (absent).
func takeTurn(args []byte) (rest []byte, turn string, err error) {
	rest, val, err := takeMember(args, "turn")
	if err != nil || val == nil || string(val) == "null" {
		return rest, "", err
	}
	if err := json.Unmarshal(val, &turn); err != nil {
		return nil, "", jsonargs.Invalid(`"turn" must be a string, got %s; send the id of the turn (the person's prompt) the edit belongs to, such as "turn": "3"`, val)
	}
	return rest, turn, nil
}

// takeMember takes the top-level member key off a call's arguments: the
// member and one comma beside it are blanked out with spaces, so the
// dialect's parser sees the other arguments where the call put them (its
// refusals, offsets included, are those of the call without it).
// Malformed arguments are passed on, for the dialect to refuse as it
// would without the member (one read before what is wrong is taken off).
// val is the member's value as written; nil when absent.
func takeMember(args []byte, key string) (rest []byte, val json.RawMessage, err error) {
	if !bytes.Contains(args, []byte(key)) && !bytes.Contains(args, []byte(`\u`)) {
		return args, nil, nil // no key can spell it: the common case, no parse
	}
	members, _ := objectMembers(args)
	var out []byte
	for _, m := range members {
		if m.key != key {
			continue
		}
		if val != nil {
			return nil, nil, jsonargs.Invalid(`%q is given more than once; send it once`, key)
		}
		val = m.value
		if out == nil {
			out = bytes.Clone(args)
		}
		from, to := m.start, m.end
		next := m.end
		for next < len(args) && (args[next] == ' ' || args[next] == '\t' || args[next] == '\r' || args[next] == '\n') {
			next++
		}
		switch {
		case next < len(args) && args[next] == ',':
			to = next + 1 // through the comma after it
		case m.comma >= 0:
			from = m.comma // from the comma before it
		}
		for j := from; j < to; j++ {
			out[j] = ' '
		}
	}
	if out == nil {
		return args, nil, nil
	}
	return out, val, nil
}

// callRecord is what the workspace of one call saw its operations do: in
// a dry run, the changes they would make; else the paths they changed,
// by the engine that recorded them.
type callRecord struct {
	mu      sync.Mutex
	changes []recordedChange
	// unescaped are the path arguments read as shell-escaped (see
	// workspace.locate).
	unescaped []unescapedPath
}

type recordedChange struct {
	e             *Engine
	path          string
	before, after repo.FileState
}

func (r *callRecord) add(e *Engine, out session.Outcome) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for p, after := range out.After {
		r.changes = append(r.changes, recordedChange{e: e, path: p, before: out.Before[p], after: after})
	}
	slices.SortStableFunc(r.changes, func(a, b recordedChange) int { return strings.Compare(a.path, b.path) })
}

// run serves one call of t in e: dry_run taken off the arguments of a
// tool that takes it, the dialect run, and its result given what the
// engine adds: a dry run's diff, or the notes on overlapping sessions.
func (e *Engine) run(ctx context.Context, t dialect.Tool, args []byte) Result {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	dry := false
	if _, ok := dryRunSchemaOf(t); ok {
		var err error
		if args, dry, err = takeDryRun(args); err != nil {
			return t.Refuse(err)
		}
		var turn string
		if args, turn, err = takeTurn(args); err != nil {
			return t.Refuse(err)
		}
		if turn != "" {
			ctx = session.WithTurn(ctx, turn) // the argument wins over _meta
		}
	}
	if turn := session.TurnOf(ctx); turn != "" {
		if err := session.ValidateTurn(turn); err != nil {
			return t.Refuse(err)
		}
	}
	if err := session.ValidateOrigin(session.OriginOf(ctx)); err != nil {
		return t.Refuse(err)
	}
	rec := &callRecord{}
	res := t.Run(ctx, workspace{e: e, tool: t.Name, dry: dry, rec: rec}, args)
	if !res.OK {
		return res
	}
	res = withUnescaped(res, rec)
	if dry {
		return dryResult(res, rec)
	}
	return e.withOverlaps(res, rec)
}

// dryResult is the answer of a dry run: the diff the call would apply
// (diffs as edit_history and git edit show print them, file by file in
// path order), then the dialect's result as the call would return it.
// The result object gains "dry_run": true and "diff", and loses "commit".
func dryResult(res Result, rec *callRecord) Result {
	var diff strings.Builder
	for _, c := range rec.changes {
		diff.WriteString(Unified(c.path, c.before, c.after))
	}
	text := "Dry run: nothing was written or recorded. "
	if diff.Len() == 0 {
		text += "The call would change no file, and answer:\n"
	} else {
		text += "The call would apply this diff:\n" + diff.String() + "and answer:\n"
	}
	return extendResult(res, text, []string{"commit"}, []field{{"dry_run", true}, {"diff", diff.String()}})
}

type field struct {
	key   string
	value any
}

// extendResult adds fields to res's result object (replacing those of the
// same name, dropping those named in drop) and text before its text. A
// text that is the result object itself (dialect.JSONOK) stays that:
// the object with the fields, and without the text added.
func extendResult(res Result, text string, drop []string, add []field) Result {
	raw, err := json.Marshal(res.Value)
	if err != nil {
		return res
	}
	members, ok := objectMembers(raw)
	if !ok {
		return res
	}
	isJSON := res.Text == string(raw)
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range members {
		if slices.Contains(drop, m.key) || slices.ContainsFunc(add, func(f field) bool { return f.key == m.key }) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(raw[m.start:m.end])
		n++
	}
	for _, f := range add {
		k, _ := json.Marshal(f.key)
		v, err := json.Marshal(f.value)
		if err != nil {
			return res
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		n++
	}
	b.WriteByte('}')
	res.Value = json.RawMessage(b.Bytes())
	if isJSON {
		res.Text = b.String()
	} else {
		res.Text = text + res.Text
	}
	return res
}

// overlapsOff skips the overlap check: the benchmark's baseline (see
// export_test.go).
var overlapsOff bool

// overlapJSON is one overlap in a result object.
type overlapJSON struct {
	Session string `json:"session"`
	Path    string `json:"path"`
	Edit    string `json:"edit"`
}

// withOverlaps adds to a successful call's result the other sessions whose
// changes to the files it changed are still in effect (see
// session.Overlaps): a note per session and file after the text, and
// "overlaps" in the result object. A failure to look is no failure of the
// call, which has happened: the result stays as it is.
func (e *Engine) withOverlaps(res Result, rec *callRecord) Result {
	if len(rec.changes) == 0 || overlapsOff {
		return res
	}
	byEngine := map[*Engine][]string{}
	var order []*Engine
	for _, c := range rec.changes {
		if _, ok := byEngine[c.e]; !ok {
			order = append(order, c.e)
		}
		byEngine[c.e] = append(byEngine[c.e], c.path)
	}
	var list []overlapJSON
	var notes strings.Builder
	for _, oe := range order {
		found, err := oe.Session.Overlaps(&oe.others, byEngine[oe])
		if err != nil {
			continue
		}
		for _, o := range found {
			short := o.Edit.String()[:7]
			list = append(list, overlapJSON{Session: o.Session, Path: o.Path, Edit: short})
			fmt.Fprintf(&notes, "\nNote: session %s also changed %s (its last edit %s), and that change is still in effect; see it with `%s`.", o.Session, o.Path, short, session.Hint(o.Session, "show", short))
		}
	}
	if len(list) == 0 {
		return res
	}
	out := extendResult(res, "", nil, []field{{"overlaps", list}})
	if out.Text != string(out.Value.(json.RawMessage)) {
		out.Text += notes.String()
	}
	return out
}
